import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppForm, Field, SubmitButton } from "~/components/forms";

/**
 * An admin's two answers to a queued item: accept (one button), or reject with a required reason. Both post the
 * item's id in the hidden field `idField`, and the action tells them apart by `intent`.
 */
export function DecisionForms(props: {
  idField: string;
  id: number;
  accept: { intent: string; label: ReactNode; pendingText: string };
  rejectIntent: string;
  reasonErrors: string[] | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <AppForm method="post">
        <input type="hidden" name={props.idField} value={props.id} />
        <SubmitButton name="intent" value={props.accept.intent} pendingText={props.accept.pendingText}>
          {props.accept.label}
        </SubmitButton>
      </AppForm>
      <AppForm method="post" className="flex-1 space-y-2">
        <input type="hidden" name={props.idField} value={props.id} />
        <Field label={t("Reason for rejection")} name="reason" maxLength={500} errors={props.reasonErrors} />
        <SubmitButton name="intent" value={props.rejectIntent} className="btn-secondary" pendingText={t("Rejecting…")}>
          {t("Reject")}
        </SubmitButton>
      </AppForm>
    </div>
  );
}
