import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { OpenReport } from "@shared/contracts/moderation";
import { AppForm, SubmitButton } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { EmptyState } from "~/components/page";
import { useReportReasonLabels } from "~/components/moderation/report-reasons";
import { Handle } from "~/components/handle";
import { withHandle } from "~/components/handle-sentence";

/** The admin's queue of open reports: the reason, the reported post or user, and the three outcomes. */
export function ReportQueue({ reports }: { reports: OpenReport[] }) {
  const { t } = useTranslation();
  const reasons = useReportReasonLabels();
  if (reports.length === 0)
    return (
      <EmptyState
        icon="notifications"
        title={t("No open reports")}
        text={t("Reports of posts and users will show up here.")}
      />
    );
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {reports.map((report) => (
        <li key={report.id} className="space-y-2 p-4">
          <p>
            <span className="font-semibold">{reasons[report.reason]}</span>
            <span className="text-sm text-slate-600 dark:text-slate-400">
              {" "}
              ·{" "}
              {withHandle(
                t("reported by @{{username}}", { username: report.reporter.username }),
                report.reporter.username,
              )}{" "}
              · <LocalTime iso={report.createdAt} />
            </span>
          </p>
          {report.description ? <p className="whitespace-pre-line">{report.description}</p> : null}
          <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            {report.target.kind === "post" ? (
              <>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {t("Post")}{" "}
                  {report.target.text !== null ? (
                    <Link to={`/post/${report.target.id}`} className="link">
                      #{report.target.id}
                    </Link>
                  ) : (
                    t("(removed)")
                  )}{" "}
                  {report.target.user
                    ? withHandle(
                        t("by @{{username}}", { username: report.target.user.username }),
                        report.target.user.username,
                      )
                    : null}
                </p>
                {report.target.text ? (
                  <p dir="auto" className="whitespace-pre-line">
                    {report.target.text}
                  </p>
                ) : null}
              </>
            ) : (
              <p>
                {t("User")}{" "}
                {report.target.user ? (
                  <Link to={`/${report.target.user.username}`} className="link">
                    {report.target.user.name} <Handle username={report.target.user.username} />
                  </Link>
                ) : null}
              </p>
            )}
            {report.target.user?.suspended ? (
              <p className="text-sm text-red-700 dark:text-red-400">{t("Suspended")}</p>
            ) : null}
          </div>
          <AppForm method="post" className="flex flex-wrap gap-2">
            <input type="hidden" name="reportId" value={report.id} />
            <SubmitButton name="intent" value="dismiss" className="btn-secondary w-auto" pendingText={t("Saving…")}>
              {t("Dismiss")}
            </SubmitButton>
            <SubmitButton
              name="intent"
              value="removeContent"
              className="btn-secondary w-auto"
              pendingText={t("Saving…")}
            >
              {report.target.kind === "post" ? t("Remove post") : t("Mark content removed")}
            </SubmitButton>
            <SubmitButton name="intent" value="suspendUser" className="btn-primary w-auto" pendingText={t("Saving…")}>
              {t("Suspend user")}
            </SubmitButton>
          </AppForm>
        </li>
      ))}
    </ul>
  );
}
