import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { peekToken } from "@worker/domain/auth/one-time-tokens";
import { signInWithMagicLink } from "@worker/domain/accounts/magic-link";
import { AuthCard } from "~/components/auth-card";
import { Notice } from "~/components/forms";
import { LinkConfirmation } from "~/components/link-confirmation";
import { handleForm, signedIn } from "~/lib/forms.server";
import { twoStepAsked, type SignInFormResult } from "~/lib/two-step-form.server";
import { readTrustedDevice } from "@worker/http/trusted-device-cookie";
import { TwoStepCodeStep } from "~/components/two-step-code-step";
import { useSignedIn } from "~/lib/use-signed-in";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Sign in"))]);

const tokenOf = (request: Request) => (new URL(request.url).searchParams.get("token") ?? "").slice(0, 64);

/** /login/withToken?token=… : the magic link. The loader only checks the token; the POST uses it up. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  return { valid: token !== "" && (await peekToken(context.domain.db, token, "magic_login")) !== null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const result = await signInWithMagicLink(context.domain, tokenOf(request), readTrustedDevice(request));
    if ("twoStep" in result) return twoStepAsked(result.twoStep, "/home");
    return signedIn(result.token, "/home");
  });
}

export default function LoginWithToken() {
  const { t } = useTranslation();
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as SignInFormResult | undefined;
  useSignedIn(result);

  // The link is used up now; the second step is sent to /login, which shows it again after a wrong code.
  if (result?.twoStep) return <TwoStepCodeStep result={result} challenge={result.twoStep} action="/login?index" />;
  if (!valid || (result && !result.ok)) {
    return (
      <AuthCard title={t("Sign in")}>
        <div className="space-y-4">
          <Notice tone="error">{t("This link is invalid or has expired.")}</Notice>
          <Link to="/login" className="btn-secondary w-full">
            {t("Back to sign in")}
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("Sign in")} subtitle={t("Signing you in with your link…")}>
      <LinkConfirmation autoSubmit={!result} button={t("Sign in")} pendingText={t("Signing in…")} />
    </AuthCard>
  );
}
