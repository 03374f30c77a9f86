import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ACCOUNT_TYPES } from "@shared/contracts/account-constants";
import { signUp } from "@worker/domain/accounts/sign-up";
import { AuthCard } from "~/components/auth-card";
import { AppForm, Field, Notice, SelectField, SubmitButton } from "~/components/forms";
import { useAccountTypeLabels } from "~/lib/account-types";
import { handleForm, readForm, signedIn, type FormResult } from "~/lib/forms.server";
import { useSignedIn } from "~/lib/use-signed-in";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Sign up"))]);

export async function loader({ context }: LoaderFunctionArgs) {
  if (context.session) throw redirect("/home");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const { token } = await signUp(context.domain, await readForm(request));
    return signedIn(token, "/email/verify");
  });
}

export default function SignUp() {
  const { t } = useTranslation();
  const labels = useAccountTypeLabels();
  const result = useActionData<typeof action>() as FormResult | undefined;
  useSignedIn(result);
  const errors = result && !result.ok ? result.errors : {};

  return (
    <AuthCard
      title={t("Create your account")}
      subtitle={t("Follow creators, subscribe and support the people you love.")}
      footer={
        <>
          {t("Already have an account?")}{" "}
          <Link to="/login" className="link">
            {t("Sign in")}
          </Link>
        </>
      }
    >
      <AppForm method="post" className="space-y-4" noValidate>
        {result && !result.ok && !Object.keys(errors).length ? <Notice tone="error">{result.message}</Notice> : null}
        <Field
          label={t("Username")}
          name="username"
          autoComplete="username"
          required
          minLength={3}
          maxLength={30}
          errors={errors.username}
          hint={t("3 to 30 characters: letters, digits, dots and underscores.")}
        />
        <Field label={t("Name")} name="name" autoComplete="name" required maxLength={60} errors={errors.name} />
        <Field
          label={t("Email address")}
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
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={128}
          errors={errors.password}
          hint={t("At least 8 characters.")}
        />
        <Field
          label={t("Date of birth")}
          name="dateOfBirth"
          type="date"
          autoComplete="bday"
          required
          errors={errors.dateOfBirth}
        />
        <SelectField
          label={t("Account type")}
          name="accountType"
          required
          placeholder={t("Choose one")}
          options={ACCOUNT_TYPES.map((type) => ({ value: type, label: labels[type] }))}
          errors={errors.accountType}
        />
        <SubmitButton pendingText={t("Creating your account…")}>{t("Sign up")}</SubmitButton>
        <p className="text-xs text-slate-500 dark:text-slate-400">{t("You must be 18 or older to use Fanclub.")}</p>
      </AppForm>
    </AuthCard>
  );
}
