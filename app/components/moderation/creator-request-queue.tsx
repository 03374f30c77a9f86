import { useTranslation } from "react-i18next";
import type { PendingCreatorRequest } from "@shared/contracts/moderation";
import { DecisionForms } from "~/components/moderation/decision-forms";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { Handle } from "~/components/handle";
import { CalendarDay } from "~/components/dashboard/calendar-day";

/** The admin's queue of creator applications: who, the two ID images beside the name and birth date given at sign-up, approve or reject with a reason. */
export function CreatorRequestQueue({
  requests,
  errors,
}: {
  requests: PendingCreatorRequest[];
  errors: { requestId?: number; reason?: string[] };
}) {
  const { t } = useTranslation();
  if (requests.length === 0)
    return (
      <EmptyState
        icon="becomeCreator"
        title={t("No pending requests")}
        text={t("New creator applications will show up here.")}
      />
    );
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {requests.map((request) => (
        <li
          key={request.id}
          className="space-y-3 p-4"
          aria-label={t("Application of @{{username}}", { username: request.user.username })}
        >
          <div>
            <p className="font-semibold">
              {request.user.name}{" "}
              <span className="font-normal text-slate-600 dark:text-slate-400">
                <Handle username={request.user.username} />
              </span>
            </p>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {request.user.email} · <LocalTime iso={request.createdAt} />
            </p>
          </div>
          <div className="grid grid-cols-2 gap-3">
            <figure className="space-y-1">
              <img
                src={request.documentUrl}
                alt={t("ID document of @{{username}}", { username: request.user.username })}
                className="max-h-64 w-full rounded-lg bg-slate-100 object-contain dark:bg-slate-800"
              />
              <figcaption className="text-sm">
                {t("ID document")}
                {/* What the applicant signed up with, to compare with the document. */}
                <dl
                  className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-slate-700 dark:text-slate-300"
                  data-applicant-facts
                >
                  <dt className="font-medium">{t("Name")}</dt>
                  <dd dir="auto">{request.user.name}</dd>
                  <dt className="font-medium">{t("Date of birth")}</dt>
                  <dd>
                    <CalendarDay day={request.user.dateOfBirth} />
                  </dd>
                </dl>
              </figcaption>
            </figure>
            <figure className="space-y-1">
              <img
                src={request.selfieUrl}
                alt={t("Selfie of @{{username}} holding the document", { username: request.user.username })}
                className="max-h-64 w-full rounded-lg bg-slate-100 object-contain dark:bg-slate-800"
              />
              <figcaption className="text-sm">{t("Selfie with the document")}</figcaption>
            </figure>
          </div>
          <DecisionForms
            idField="requestId"
            id={request.id}
            accept={{ intent: "approve", label: t("Approve"), pendingText: t("Approving…") }}
            rejectIntent="reject"
            reasonErrors={errors.requestId === request.id ? errors.reason : undefined}
          />
        </li>
      ))}
    </ul>
  );
}
