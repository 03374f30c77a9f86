import { useFetcher } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, Notice } from "~/components/forms";
import { IntentForm } from "./intent-form";

export interface EditableProfile {
  username: string;
  name: string;
  bio: string;
  location: string;
  website: string;
}

type Result = { ok: true; message?: string } | { ok: false; message: string; errors: Record<string, string[]> };

/**
 * Settings → Profile: name, bio, location and website. The avatar and cover pickers (the media work's
 * ImagePicker with POST /api/me/avatar|cover) go above the form.
 */
export function EditProfileForm({ profile }: { profile: EditableProfile }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const result = fetcher.state === "idle" ? (fetcher.data as Result | undefined) : undefined;
  const errors = result && !result.ok ? result.errors : {};
  return (
    <IntentForm fetcher={fetcher} intent="profile" className="max-w-lg space-y-4">
      {result ? <Notice tone={result.ok ? "success" : "error"}>{result.ok ? t("Your profile has been saved.") : result.message}</Notice> : null}
      <Field label={t("Name")} name="name" defaultValue={profile.name} required maxLength={60} autoComplete="name" errors={errors.name} />
      <BioField defaultValue={profile.bio} errors={errors.bio} />
      <Field label={t("Location")} name="location" defaultValue={profile.location} maxLength={60} errors={errors.location} />
      <Field
        label={t("Website")}
        name="website"
        type="url"
        inputMode="url"
        placeholder="https://"
        defaultValue={profile.website}
        maxLength={200}
        errors={errors.website}
        hint={t("An https:// address.")}
      />
      <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
        {t("Save")}
      </button>
    </IntentForm>
  );
}

function BioField({ defaultValue, errors }: { defaultValue: string; errors?: string[] }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-1">
      <label htmlFor="profile-bio" className="block text-sm font-medium">
        {t("Bio")}
      </label>
      <textarea
        id="profile-bio"
        name="bio"
        rows={4}
        maxLength={1000}
        defaultValue={defaultValue}
        className="input"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? "profile-bio-error" : undefined}
      />
      {errors?.length ? (
        <p id="profile-bio-error" role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
