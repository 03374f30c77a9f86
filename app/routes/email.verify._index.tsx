import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { resendVerificationEmail } from "@worker/domain/accounts/email-verification";
import { requestEmailChange } from "@worker/domain/accounts/change-email";
import { EmailChangeBodySchema } from "@shared/contracts/accounts";
import { AuthCard } from "~/components/auth-card";
import { AppForm, Field, FormNotice, Notice, SubmitButton } from "~/components/forms";
import { useRootData } from "~/root";
import { formIntent, handleForm, parseForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Verify your email"))]);

/** The email verification notice of spec §4: Resend, Check status, and a way out of a mistyped address. */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  return { email: user.email, verified: user.email_verified_at !== null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  return handleForm(context, async () => {
    const intent = await formIntent(request);
    if (intent === "change-email") {
      const input = await parseForm(request, EmailChangeBodySchema);
      await requestEmailChange(context.domain, user, input.email, input.password ?? "");
      return {
        ok: true,
        message: context.domain.t("We have sent a confirmation link to your new address."),
      } satisfies FormResult;
    }
    await resendVerificationEmail(context.domain, user);
    return {
      ok: true,
      message: context.domain.t("A new verification link has been sent to your email address."),
    } satisfies FormResult;
  });
}

export default function VerifyEmailNotice() {
  const { t } = useTranslation();
  const { email, verified } = useLoaderData<typeof loader>();
  const devMailbox = useRootData()?.devMailbox ?? false;
  const result = useActionData<typeof action>() as FormResult | undefined;
  const errors = result && !result.ok ? result.errors : {};
  // "Check status" loads the page again with ?checked: say what it found (spec §8's sentence), as Resend says it sent.
  const [params] = useSearchParams();

  if (verified) {
    return (
      <AuthCard title={t("Email verified")}>
        <div className="space-y-4">
          <Notice tone="success">{t("Your email address is verified.")}</Notice>
          <Link to="/home" className="btn-primary">
            {t("Continue")}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t("Verify your email address")}
      subtitle={t("We sent a verification link to {{email}}. Open it to finish setting up your account.", { email })}
    >
      <div className="space-y-4">
        {result ? (
          <FormNotice result={result} />
        ) : params.has("checked") ? (
          <Notice tone="info">{t("Your email didn't verified yet.")}</Notice>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row">
          <AppForm method="post" className="flex-1">
            <SubmitButton name="intent" value="resend" pendingText={t("Sending…")}>
              {t("Resend")}
            </SubmitButton>
          </AppForm>
          {/* A plain GET of this page: the loader reads the current state again. */}
          <Link to="/email/verify?checked" reloadDocument className="btn-secondary flex-1">
            {t("Check status")}
          </Link>
        </div>
        <Link to="/home" className="block text-center text-sm link">
          {t("Continue without verifying")}
        </Link>
        {devMailbox ? (
          <Notice tone="info">
            {t("Running locally: emails are not sent but kept in the development mailbox.")}{" "}
            <a href={`/dev/mailbox?to=${encodeURIComponent(email)}`} className="link">
              {t("Open the development mailbox")}
            </a>
          </Notice>
        ) : null}
        <details className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <summary className="cursor-pointer text-sm font-medium">{t("Wrong address? Change your email")}</summary>
          <AppForm method="post" className="mt-4 space-y-3" noValidate>
            <Field
              label={t("New email address")}
              name="email"
              type="email"
              autoComplete="email"
              required
              errors={errors.email}
            />
            <Field
              label={t("Current password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              errors={errors.password}
            />
            <SubmitButton
              name="intent"
              value="change-email"
              className="btn-secondary w-full"
              pendingText={t("Sending…")}
            >
              {t("Send confirmation link")}
            </SubmitButton>
          </AppForm>
        </details>
      </div>
    </AuthCard>
  );
}
