import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { EmailVerificationLinkSchema } from "@shared/contracts/accounts";
import { verifyEmail } from "@worker/domain/accounts/email-verification";
import { AuthCard } from "~/components/auth-card";
import { Notice } from "~/components/forms";
import { LinkConfirmation } from "~/components/link-confirmation";
import { announceEmailVerified } from "~/lib/email-verified";
import { handleForm, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Verify your email address"))]);

function linkParams(request: Request, params: Record<string, string | undefined>) {
  const query = new URL(request.url).searchParams;
  return EmailVerificationLinkSchema.safeParse({
    id: params.id,
    hash: params.hash,
    expires: query.get("expires"),
    signature: query.get("signature"),
  });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return { wellFormed: linkParams(request, params).success };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const link = linkParams(request, params);
    if (!link.success)
      return {
        ok: false,
        message: context.domain.t("This link is invalid or has expired."),
        errors: {},
      } satisfies FormResult;
    await verifyEmail(context.domain, link.data);
    return { ok: true, message: context.domain.t("Your email address is verified.") } satisfies FormResult;
  });
}

export default function VerifyEmailLink() {
  const { t } = useTranslation();
  const { wellFormed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormResult | undefined;
  // The tabs still asking to verify (Home, Settings) hear it at once.
  useEffect(() => {
    if (result?.ok) announceEmailVerified();
  }, [result?.ok]);

  if (result?.ok) {
    return (
      <AuthCard title={t("Email verified")}>
        <div className="space-y-4">
          <Notice tone="success">{result.message}</Notice>
          <Link to="/home" className="btn-primary">
            {t("Continue")}
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (!wellFormed || result) {
    return (
      <AuthCard title={t("Verify your email address")}>
        <div className="space-y-4">
          <Notice tone="error">{t("This link is invalid or has expired.")}</Notice>
          <Link to="/email/verify" className="btn-secondary w-full">
            {t("Request a new link")}
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("Verify your email address")}>
      <LinkConfirmation autoSubmit button={t("Verify email address")} pendingText={t("Verifying…")} />
    </AuthCard>
  );
}
