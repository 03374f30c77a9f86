import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { publicMediaUrl } from "@worker/domain/accounts/users";
import { getCreatorApplication } from "@worker/domain/creators/creator-application";
import { submitCreatorRequest } from "@worker/domain/creators/submit-creator-request";
import { AppForm, Notice } from "~/components/forms";
import { ImagePicker } from "~/components/media/image-picker";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { ApiError } from "~/lib/api";
import { handleForm, parseForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { useEmailVerifiedElsewhere } from "~/lib/email-verified";
import { pageMeta, titleTag } from "~/i18n/meta";
import { idText } from "@shared/contracts/text";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Become a creator"))]);

export const handle: ShellHandle = { rightColumn: "empty" };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  if (user.role === "creator") throw redirect("/dashboard");
  return {
    avatarUrl: publicMediaUrl(user.avatar_key),
    coverUrl: publicMediaUrl(user.cover_key),
    verifiedEmail: user.email_verified_at !== null,
    application: await getCreatorApplication(context.domain.db, user.id),
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireViewer(context, request);
  return handleForm(context, async () => {
    const input = await parseForm(request, z.object({ documentMediaId: idText, selfieMediaId: idText }));
    await submitCreatorRequest(context.domain.db, user, input, context.domain.language);
    return {
      ok: true,
      message: context.domain.t("Your application was sent. It is pending validation."),
    } satisfies FormResult;
  });
}

function Step({ label, done, action }: { label: string; done: boolean; action?: { to: string; label: string } }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <span
        aria-hidden="true"
        className={`flex h-6 w-6 items-center justify-center rounded-full text-sm font-bold ${done ? "bg-green-600 text-white" : "bg-slate-200 text-slate-600 dark:bg-slate-800 dark:text-slate-300"}`}
      >
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

/** Photo and cover: picked and uploaded here, then made the profile's (POST /api/me/avatar|cover). */
function ProfileImages({ avatarUrl, coverUrl }: { avatarUrl: string; coverUrl: string }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const { revalidate } = useRevalidator();
  const [failure, setFailure] = useState("");
  async function save(which: "avatar" | "cover", mediaId: number) {
    setFailure("");
    try {
      await api.post(`/me/${which}`, { mediaId });
      revalidate();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error.body.message);
    }
  }
  return (
    <section aria-labelledby="profile-images" className="space-y-3">
      <h2 id="profile-images" className="font-semibold">
        {t("Profile photo and cover image")}
      </h2>
      <div className="flex flex-wrap items-start gap-6">
        <ImagePicker
          purpose="avatar"
          shape="round"
          label={t("Profile photo")}
          currentUrl={avatarUrl || null}
          onUploaded={(media) => void save("avatar", media.id)}
        />
        <div className="min-w-64 flex-1">
          <ImagePicker
            purpose="cover"
            shape="wide"
            label={t("Cover image")}
            currentUrl={coverUrl || null}
            onUploaded={(media) => void save("cover", media.id)}
          />
        </div>
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </section>
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
      <div className="flex flex-wrap gap-6">
        <div className="space-y-1">
          <ImagePicker
            purpose="id_document"
            shape="document"
            label={t("Photo of your ID document")}
            onUploaded={(media) => setDocumentId(media.id)}
          />
          <p className="max-w-64 text-sm text-slate-600 dark:text-slate-400">
            {t("A passport, identity card or driving licence, fully visible and readable.")}
          </p>
        </div>
        <div className="space-y-1">
          <ImagePicker
            purpose="id_selfie"
            shape="document"
            label={t("Selfie holding your ID document")}
            onUploaded={(media) => setSelfieId(media.id)}
          />
          <p className="max-w-64 text-sm text-slate-600 dark:text-slate-400">
            {t("Your face and the document in the same photo.")}
          </p>
        </div>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t("Only our team sees these images, and they are deleted once your application is decided.")}
      </p>
      {result && !result.ok ? <Notice tone="error">{result.message}</Notice> : null}
      <AppForm method="post">
        <input type="hidden" name="documentMediaId" value={documentId ?? ""} />
        <input type="hidden" name="selfieMediaId" value={selfieId ?? ""} />
        <button
          type="submit"
          className="btn-primary"
          disabled={!ready || documentId === null || selfieId === null || navigation.state === "submitting"}
        >
          {navigation.state === "submitting" ? t("Sending…") : t("Submit application")}
        </button>
      </AppForm>
      {!ready ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("Finish the steps above before you submit.")}</p>
      ) : null}
    </section>
  );
}

/** /becomeCreator: spec §4's steps (photo, cover, ID verification), then the application and its outcome. */
export default function BecomeCreatorPage() {
  const { t } = useTranslation();
  const { avatarUrl, coverUrl, verifiedEmail, application } = useLoaderData<typeof loader>();
  useEmailVerifiedElsewhere(verifiedEmail);
  const hasAvatar = avatarUrl !== "";
  const hasCover = coverUrl !== "";
  const pending = application?.status === "pending";
  return (
    <>
      <PageHeader title={t("Become a creator")} />
      <div className="space-y-4 p-4">
        <p>
          {t(
            "Earn from subscriptions, tips, paid messages and paid posts. Once your application is approved, monetization is enabled and you are notified.",
          )}
        </p>
        {pending ? (
          <Notice tone="info">
            {t("Your application is pending validation. We will notify you once it is reviewed.")}
          </Notice>
        ) : null}
        {application?.status === "rejected" ? (
          <Notice tone="error">
            {t("Your last application was not approved. Reason: {{reason}}", { reason: application.rejectionReason })}{" "}
            {t("You can apply again below.")}
          </Notice>
        ) : null}
        <h2 className="font-semibold">{t("What you need")}</h2>
        <ol className="space-y-2">
          <Step
            label={t("Verify your email address")}
            done={verifiedEmail}
            action={{ to: "/email/verify", label: t("Verify now") }}
          />
          <Step label={t("Add a profile photo")} done={hasAvatar} />
          <Step label={t("Add a cover image")} done={hasCover} />
          <Step label={t("Verify your identity with an ID document")} done={pending} />
        </ol>
        {pending ? null : (
          <>
            <ProfileImages avatarUrl={avatarUrl} coverUrl={coverUrl} />
            <IdVerification ready={verifiedEmail && hasAvatar && hasCover} />
          </>
        )}
      </div>
    </>
  );
}
