import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { peekToken } from "@worker/domain/auth/one-time-tokens";
import { resetPassword } from "@worker/domain/accounts/password-reset";
import { NewPasswordFormSchema } from "@shared/contracts/accounts";
import { clearedSessionCookie } from "@worker/http/cookies";
import { AuthCard } from "~/components/auth-card";
import { AppForm, Field, Notice, SubmitButton } from "~/components/forms";
import { handleForm, parseForm, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Reset password"))]);

export async function loader({ params, context }: LoaderFunctionArgs) {
  const token = (params.token ?? "").slice(0, 64);
  return { valid: (await peekToken(context.domain.db, token, "password_reset")) !== null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const { password } = await parseForm(request, NewPasswordFormSchema);
    await resetPassword(context.domain, (params.token ?? "").slice(0, 64), password);
    return redirect("/login?reset=1", { headers: { "Set-Cookie": clearedSessionCookie() } });
  });
}

export default function ResetPassword() {
  const { t } = useTranslation();
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormResult | undefined;
  const errors = result && !result.ok ? result.errors : {};

  if (!valid) {
    return (
      <AuthCard title={t("Reset your password")}>
        <div className="space-y-4">
          <Notice tone="error">{t("This link is invalid or has expired.")}</Notice>
          <Link to="/forgot-password" className="btn-secondary w-full">
            {t("Request a new link")}
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t("Reset your password")}
      subtitle={t("Choose a new password. You will be signed out everywhere else.")}
    >
      <AppForm method="post" className="space-y-4" noValidate>
        {result && !result.ok && !Object.keys(errors).length ? <Notice tone="error">{result.message}</Notice> : null}
        <Field
          label={t("New password")}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          errors={errors.password}
          hint={t("At least 8 characters.")}
        />
        <Field
          label={t("Confirm new password")}
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          required
          errors={errors.passwordConfirmation}
        />
        <SubmitButton pendingText={t("Saving…")}>{t("Reset password")}</SubmitButton>
      </AppForm>
    </AuthCard>
  );
}
