import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { EmailBodySchema, SignInBodySchema } from "@shared/contracts/accounts";
import { signIn } from "@worker/domain/accounts/sign-in";
import { requestMagicLink } from "@worker/domain/accounts/magic-link";
import { AuthCard } from "~/components/auth-card";
import { AppForm, Field, Notice, SubmitButton } from "~/components/forms";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { formIntent, handleForm, parseForm, readForm, signedIn } from "~/lib/forms.server";
import { twoStepAsked, twoStepFormAction, type SignInFormResult } from "~/lib/two-step-form.server";
import { readTrustedDevice } from "@worker/http/trusted-device-cookie";
import { TwoStepCodeStep } from "~/components/two-step-code-step";
import { useSignedIn } from "~/lib/use-signed-in";
import { pageMeta, titleTag } from "~/i18n/meta";
import { safeLocalPath } from "@shared/local-path";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Sign in"))]);

export async function loader({ context, request }: LoaderFunctionArgs) {
  if (context.session) throw redirect(safeLocalPath(new URL(request.url).searchParams.get("redirectTo")));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const intent = await formIntent(request);
    if (intent === "magic-link") {
      const { email } = await parseForm(request, EmailBodySchema);
      await requestMagicLink(context.domain, email);
      return {
        ok: true,
        message: context.domain.t("If an account exists for that address, we have sent it a link."),
      } satisfies SignInFormResult;
    }
    if (intent === "two-step-code" || intent === "two-step-email")
      return twoStepFormAction(context, await readForm(request), intent);
    const input = await parseForm(request, SignInBodySchema.extend({ redirectTo: z.string().optional() }));
    const result = await signIn(context.domain, input, readTrustedDevice(request));
    if ("twoStep" in result) return twoStepAsked(result.twoStep, safeLocalPath(input.redirectTo));
    return signedIn(result.token, safeLocalPath(input.redirectTo));
  });
}

export default function Login() {
  const { t } = useTranslation();
  const result = useActionData<typeof action>() as SignInFormResult | undefined;
  const [params] = useSearchParams();
  useSignedIn(result);
  const errors = result && !result.ok ? result.errors : {};

  if (result?.twoStep) return <TwoStepCodeStep result={result} challenge={result.twoStep} />;

  return (
    <AuthCard
      title={t("Sign in")}
      subtitle={t("Welcome back! Sign in to see your feed.")}
      footer={
        <>
          {t("Don't have an account?")}{" "}
          <Link to="/signup" className="link">
            {t("Sign up")}
          </Link>
        </>
      }
    >
      <div className="space-y-4">
        {params.get("reset") ? (
          <Notice tone="success">{t("Your password has been changed. Please sign in.")}</Notice>
        ) : null}
        {result?.ok && result.message ? <Notice tone="success">{result.message}</Notice> : null}
        {result && !result.ok && !Object.keys(errors).length ? <Notice tone="error">{result.message}</Notice> : null}
        <AppForm method="post" className="space-y-4" noValidate>
          <input type="hidden" name="redirectTo" value={safeLocalPath(params.get("redirectTo"))} />
          <Field label={t("Email or username")} name="login" autoComplete="username" required errors={errors.login} />
          <Field
            label={t("Password")}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            errors={errors.password}
          />
          <div className="text-end text-sm">
            <Link to="/forgot-password" className="link">
              {t("Forgot password?")}
            </Link>
          </div>
          <SubmitButton name="intent" value="password" pendingText={t("Signing in…")}>
            {t("Sign in")}
          </SubmitButton>
        </AppForm>
        <PasskeySignIn redirectTo={safeLocalPath(params.get("redirectTo"))} />
        <details className="group rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <summary className="cursor-pointer text-sm font-medium">{t("Email me a sign-in link instead")}</summary>
          <AppForm method="post" className="mt-4 space-y-3" noValidate>
            <Field
              label={t("Email address")}
              name="email"
              type="email"
              autoComplete="email"
              required
              errors={errors.email}
            />
            <SubmitButton name="intent" value="magic-link" className="btn-secondary w-full" pendingText={t("Sending…")}>
              {t("Send me a link")}
            </SubmitButton>
          </AppForm>
        </details>
      </div>
    </AuthCard>
  );
}
