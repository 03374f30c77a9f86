import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { getCreatorApplication } from "../../worker/domain/creators/creator-application";
import { submitCreatorRequest } from "../../worker/domain/creators/submit-creator-request";
import { AppForm, Notice } from "~/components/forms";
import { IdImageUpload } from "~/components/moderation/id-image-upload";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, parseForm, requireViewer, type FormResult } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Become a creator · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "empty" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  if (user.role === "creator") throw redirect("/dashboard");
  return {
    hasAvatar: user.avatar_key !== null,
    hasCover: user.cover_key !== null,
    verifiedEmail: user.email_verified_at !== null,
    application: await getCreatorApplication(context.domain.db, user.id),
  };
}

const mediaId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  return handleForm(context, async () => {
    const input = await parseForm(request, z.object({ documentMediaId: mediaId, selfieMediaId: mediaId }));
    await submitCreatorRequest(context.domain.db, user, input);
    return { ok: true, message: context.domain.t("Your application was sent. It is pending validation.") } satisfies FormResult;
  });
}

function Step({ label, done, action }: { label: string; done: boolean; action?: { to: string; label: string } }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <span aria-hidden="true" className={`flex h-6 w-6 items-center justify-center rounded-full text-sm font-bold ${done ? "bg-green-600 text-white" : "bg-slate-200 text-slate-600 dark:bg-slate-800 dark:text-slate-300"}`}>
        {done ? "✓" : ""}
      </span>
      <span className="flex-1">{label}</span>
      {!done && action ? (
        <Link to={action.to} className="link text-sm">
          {action.label}
        </Link>
      ) : (
        <span className="text-sm text-slate-600 dark:text-slate-400">{done ? t("Done") : t("To do")}</span>
      )}
    </li>
  );
}

/** The ID verification step: both images uploaded privately, then the application is sent. */
function IdVerification({ ready }: { ready: boolean }) {
  const { t } = useTranslation();
  const result = useActionData<typeof action>() as FormResult | undefined;
  const [documentId, setDocumentId] = useState<number | null>(null);
  const [selfieId, setSelfieId] = useState<number | null>(null);
  const navigation = useNavigation();
  return (
    <section aria-labelledby="id-verification" className="space-y-3">
      <h2 id="id-verification" className="font-semibold">
        {t("Verify your identity with an ID document")}
      </h2>
      <IdImageUpload label={t("Photo of your ID document")} hint={t("A passport, identity card or driving licence, fully visible and readable.")} purpose="id_document" onUploaded={(media) => setDocumentId(media?.id ?? null)} />
      <IdImageUpload label={t("Selfie holding your ID document")} hint={t("Your face and the document in the same photo.")} purpose="id_selfie" onUploaded={(media) => setSelfieId(media?.id ?? null)} />
      <p className="text-sm text-slate-600 dark:text-slate-400">{t("Only our team sees these images, and they are deleted once your application is decided.")}</p>
      {result && !result.ok ? <Notice tone="error">{result.message}</Notice> : null}
      <AppForm method="post">
        <input type="hidden" name="documentMediaId" value={documentId ?? ""} />
        <input type="hidden" name="selfieMediaId" value={selfieId ?? ""} />
        <button type="submit" className="btn-primary" disabled={!ready || documentId === null || selfieId === null || navigation.state === "submitting"}>
          {navigation.state === "submitting" ? t("Sending…") : t("Submit application")}
        </button>
      </AppForm>
      {!ready ? <p className="text-sm text-slate-600 dark:text-slate-400">{t("Finish the steps above before you submit.")}</p> : null}
    </section>
  );
}

/** /becomeCreator: spec §4's steps (photo, cover, ID verification), then the application and its outcome. */
export default function BecomeCreatorPage() {
  const { t } = useTranslation();
  const { hasAvatar, hasCover, verifiedEmail, application } = useLoaderData<typeof loader>();
  const pending = application?.status === "pending";
  return (
    <>
      <PageHeader title={t("Become a creator")} />
      <div className="space-y-4 p-4">
        <p>{t("Earn from subscriptions, tips, paid messages and paid posts. Once your application is approved, monetization is enabled and you are notified.")}</p>
        {pending ? <Notice tone="info">{t("Your application is pending validation. We will notify you once it is reviewed.")}</Notice> : null}
        {application?.status === "rejected" ? (
          <Notice tone="error">
            {t("Your last application was not approved. Reason: {{reason}}", { reason: application.rejectionReason })} {t("You can apply again below.")}
          </Notice>
        ) : null}
        <h2 className="font-semibold">{t("What you need")}</h2>
        <ol className="space-y-2">
          <Step label={t("Verify your email address")} done={verifiedEmail} action={{ to: "/email/verify", label: t("Verify now") }} />
          <Step label={t("Add a profile photo")} done={hasAvatar} action={{ to: "/settings/profile", label: t("Add") }} />
          <Step label={t("Add a cover image")} done={hasCover} action={{ to: "/settings/profile", label: t("Add") }} />
          <Step label={t("Verify your identity with an ID document")} done={pending} />
        </ol>
        {pending ? null : <IdVerification ready={verifiedEmail && hasAvatar && hasCover} />}
      </div>
    </>
  );
}
