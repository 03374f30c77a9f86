import { useTranslation } from "react-i18next";
import { Field, Notice } from "~/components/forms";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/** Settings → Account → Change password: the current one, the new one twice (spec §5). */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const { fetcher, container, result, errors } = useFormFetcher();
  return (
    <section aria-labelledby="change-password" className="max-w-lg space-y-3" ref={container}>
      <h3 id="change-password" className="font-semibold">
        {t("Change password")}
      </h3>
      {result && (result.ok || !Object.keys(result.errors).length) ? (
        <Notice tone={result.ok ? "success" : "error"}>{result.message}</Notice>
      ) : null}
      <IntentForm fetcher={fetcher} intent="password" className="space-y-3">
        <Field
          label={t("Current password")}
          name="password"
          type="password"
          autoComplete="current-password"
          errors={errors.password}
        />
        <Field
          label={t("New password")}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          required
          errors={errors.newPassword}
          hint={t("At least 8 characters.")}
        />
        <Field
          label={t("Repeat the new password")}
          name="newPasswordConfirmation"
          type="password"
          autoComplete="new-password"
          required
          errors={errors.newPasswordConfirmation}
        />
        <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
          {t("Change password")}
        </button>
      </IntentForm>
    </section>
  );
}

/** Settings → Account → Change email: a confirmation link goes to the new address; the password is asked. */
export function ChangeEmailForm() {
  const { t } = useTranslation();
  const { fetcher, container, result, errors } = useFormFetcher();
  return (
    <section aria-labelledby="change-email" className="max-w-lg space-y-3" ref={container}>
      <h3 id="change-email" className="font-semibold">
        {t("Change email")}
      </h3>
      {result && (result.ok || !Object.keys(result.errors).length) ? (
        <Notice tone={result.ok ? "success" : "error"}>{result.message}</Notice>
      ) : null}
      <IntentForm fetcher={fetcher} intent="email" className="space-y-3">
        <Field
          label={t("New email address")}
          name="email"
          type="email"
          autoComplete="email"
          required
          errors={errors.email}
        />
        <Field
          label={t("Password")}
          name="password"
          type="password"
          autoComplete="current-password"
          errors={errors.password}
        />
        <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
          {t("Send confirmation link")}
        </button>
      </IntentForm>
    </section>
  );
}
