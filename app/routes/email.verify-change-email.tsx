import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EmailChangeLinkSchema } from "@shared/contracts/accounts";
import { confirmEmailChange } from "@worker/domain/accounts/change-email";
import { AuthCard } from "~/components/auth-card";
import { Notice } from "~/components/forms";
import { LinkConfirmation } from "~/components/link-confirmation";
import { handleForm, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Confirm new email"))]);

const linkParams = (request: Request) =>
  EmailChangeLinkSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));

export async function loader({ request }: LoaderFunctionArgs) {
  const link = linkParams(request);
  return { newEmail: link.success ? link.data.email : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleForm(context, async () => {
    const link = linkParams(request);
    if (!link.success)
      return {
        ok: false,
        message: context.domain.t("This link is invalid or has expired."),
        errors: {},
      } satisfies FormResult;
    const user = await confirmEmailChange(context.domain, link.data);
    return {
      ok: true,
      message: context.domain.t("Your email address is now {{email}}.", { email: user.email }),
    } satisfies FormResult;
  });
}

export default function VerifyChangedEmail() {
  const { t } = useTranslation();
  const { newEmail } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormResult | undefined;

  if (result) {
    return (
      <AuthCard title={t("Confirm your new email address")}>
        <div className="space-y-4">
          <Notice tone={result.ok ? "success" : "error"}>{result.message}</Notice>
          <Link to="/home" className="btn-primary">
            {t("Continue")}
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (!newEmail) {
    return (
      <AuthCard title={t("Confirm your new email address")}>
        <Notice tone="error">{t("This link is invalid or has expired.")}</Notice>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("Confirm your new email address")} subtitle={newEmail}>
      <LinkConfirmation autoSubmit button={t("Confirm new email")} pendingText={t("Confirming…")} />
    </AuthCard>
  );
}
