import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EmailBodySchema } from "@shared/contracts/accounts";
import { requestPasswordReset } from "@worker/domain/accounts/password-reset";
import { AuthCard } from "~/components/auth-card";
import { AppForm, Field, FormNotice, SubmitButton } from "~/components/forms";
import { handleForm, parseForm, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Forgot your password?"))]);

export async function action({ request, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const { email } = await parseForm(request, EmailBodySchema);
    await requestPasswordReset(context.domain, email);
    return {
      ok: true,
      message: context.domain.t("If an account exists for that address, we have sent it a link."),
    } satisfies FormResult;
  });
}

export default function ForgotPassword() {
  const { t } = useTranslation();
  const result = useActionData<typeof action>() as FormResult | undefined;
  const errors = result && !result.ok ? result.errors : {};
  return (
    <AuthCard
      title={t("Forgot your password?")}
      subtitle={t("Enter your email address and we will send you a link to choose a new one.")}
      footer={
        <Link to="/login" className="link">
          {t("Back to sign in")}
        </Link>
      }
    >
      <AppForm method="post" className="space-y-4" noValidate>
        <FormNotice result={result} />
        <Field
          label={t("Email address")}
          name="email"
          type="email"
          autoComplete="email"
          required
          errors={errors.email}
        />
        <SubmitButton pendingText={t("Sending…")}>{t("Send reset link")}</SubmitButton>
      </AppForm>
    </AuthCard>
  );
}
