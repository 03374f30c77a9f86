import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ReportReason } from "@shared/contracts/moderation";
import { Notice } from "~/components/forms";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { Modal } from "~/components/moderation/modal";
import { useReportReasonLabels } from "~/components/moderation/report-reasons";
import { messageAnswerShape } from "~/lib/api-shapes";

export type ReportTarget = { kind: "post"; postId: number } | { kind: "user"; username: string };

/**
 * Report a post or a user (spec §8's reasons): a radio list, a description that "Other" requires, then a
 * thank-you. Errors from the server appear next to the field they concern.
 */
function ReportDialog({ target, open, onClose }: { target: ReportTarget; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const labels = useReportReasonLabels();
  const descriptionId = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState("");
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState("");

  function close() {
    setReason(null);
    setDescription("");
    setDone("");
    setErrors({});
    setFailure("");
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure("");
    const targetFields =
      target.kind === "post"
        ? { targetKind: "post", targetId: target.postId }
        : { targetKind: "user", username: target.username };
    try {
      const body = await api.post("/reports", { ...targetFields, reason, description }, messageAnswerShape);
      setDone(body.message);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setErrors(error.body.errors);
      setFailure(error.body.message);
    } finally {
      setBusy(false);
    }
  }

  const title = target.kind === "post" ? t("Report post") : t("Report user");
  return (
    <Modal open={open} title={title} onClose={close}>
      {done ? (
        <div className="space-y-4">
          <Notice tone="success">{done}</Notice>
          <button type="button" className="btn-primary" onClick={close}>
            {t("Close")}
          </button>
        </div>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
          <fieldset className="space-y-1">
            <legend className="mb-2 font-medium">{t("Why are you reporting this?")}</legend>
            {(Object.keys(labels) as ReportReason[]).map((code) => (
              <label
                key={code}
                className="flex items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                <input
                  type="radio"
                  name="reason"
                  value={code}
                  checked={reason === code}
                  onChange={() => setReason(code)}
                />
                {labels[code]}
              </label>
            ))}
            {errors.reason ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {errors.reason.join(" ")}
              </p>
            ) : null}
          </fieldset>
          {reason === "other" ? (
            <div className="space-y-1">
              <label htmlFor={descriptionId} className="block text-sm font-medium">
                {t("Description")}
              </label>
              <textarea
                id={descriptionId}
                className="input min-h-24"
                maxLength={1000}
                value={description}
                onChange={(event) => setDescription(event.target.value)}
                aria-invalid={errors.description ? true : undefined}
                required
              />
              {errors.description ? (
                <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                  {errors.description.join(" ")}
                </p>
              ) : null}
            </div>
          ) : null}
          {failure && !errors.reason && !errors.description ? <Notice tone="error">{failure}</Notice> : null}
          <button type="submit" className="btn-primary" disabled={busy || reason === null}>
            {busy ? t("Sending…") : t("Send report")}
          </button>
        </form>
      )}
    </Modal>
  );
}

/** A "Report" button that opens the dialog, for a post's menu or a profile. */
export function ReportButton({ target, className = "btn-secondary" }: { target: ReportTarget; className?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {t("Report")}
      </button>
      <ReportDialog target={target} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
