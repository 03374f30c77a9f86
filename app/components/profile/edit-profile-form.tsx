import { useFetcher, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field, FormNotice, Notice } from "~/components/forms";
import { ImagePicker } from "~/components/media/image-picker";
import { ApiError } from "~/lib/api";
import type { UploadedMedia } from "~/lib/uploads";
import type { Profile } from "@shared/contracts/profiles";
import { useSession } from "~/lib/session";
import { IntentForm } from "~/components/profile/intent-form";

/** The fields of the owner's profile (the API's Profile contract) that the form shows and edits. */
export type EditableProfile = Pick<
  Profile,
  "username" | "name" | "bio" | "location" | "website" | "avatarUrl" | "coverUrl"
>;

type Result = { ok: true; message?: string } | { ok: false; message: string; errors: Record<string, string[]> };

/** Settings → Profile: avatar and cover (saved as soon as uploaded), then name, bio, location and website. */
export function EditProfileForm({ profile }: { profile: EditableProfile }) {
  return (
    <div className="max-w-lg space-y-6">
      <ProfileImages profile={profile} />
      <ProfileTextForm profile={profile} />
    </div>
  );
}

function ProfileImages({ profile }: { profile: EditableProfile }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const revalidator = useRevalidator();
  const [status, setStatus] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  async function save(which: "avatar" | "cover", media: UploadedMedia) {
    try {
      await api.post(`/me/${which}`, { mediaId: media.id });
      setStatus({
        tone: "success",
        text: which === "avatar" ? t("Your avatar has been saved.") : t("Your cover image has been saved."),
      });
      revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError) setStatus({ tone: "error", text: error.body.message });
    }
  }
  return (
    <div className="space-y-4">
      {status ? <Notice tone={status.tone}>{status.text}</Notice> : null}
      <ImagePicker
        purpose="avatar"
        label={t("Avatar")}
        shape="round"
        currentUrl={profile.avatarUrl || null}
        onUploaded={(media) => void save("avatar", media)}
      />
      <ImagePicker
        purpose="cover"
        label={t("Cover image")}
        shape="wide"
        currentUrl={profile.coverUrl || null}
        onUploaded={(media) => void save("cover", media)}
      />
    </div>
  );
}

function ProfileTextForm({ profile }: { profile: EditableProfile }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const result = fetcher.state === "idle" ? (fetcher.data as Result | undefined) : undefined;
  const errors = result && !result.ok ? result.errors : {};
  return (
    <IntentForm fetcher={fetcher} intent="profile" className="space-y-4">
      <FormNotice result={result} saved={t("Your profile has been saved.")} />
      <Field
        label={t("Name")}
        name="name"
        defaultValue={profile.name}
        required
        maxLength={60}
        autoComplete="name"
        errors={errors.name}
      />
      <BioField defaultValue={profile.bio} errors={errors.bio} />
      <Field
        label={t("Location")}
        name="location"
        defaultValue={profile.location}
        maxLength={60}
        errors={errors.location}
      />
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
