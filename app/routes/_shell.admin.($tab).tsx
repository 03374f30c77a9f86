import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { NavLink, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { rejectionReasonSchema } from "@shared/contracts/moderation";
import { decideCreatorRequest } from "@worker/domain/creators/decide-creator-request";
import { listPendingCreatorRequests } from "@worker/domain/creators/list-creator-requests";
import { listDisputes } from "@worker/domain/money/list-disputes";
import { listPayoutQueue } from "@worker/domain/money/list-payouts";
import { decidePayout } from "@worker/domain/money/withdrawals";
import { RejectPayoutSchema } from "@shared/contracts/money-bodies";
import { listOpenReports } from "@worker/domain/moderation/list-open-reports";
import { REPORT_ACTIONS, resolveReport } from "@worker/domain/moderation/resolve-report";
import { validationError } from "@worker/domain/shared/validation";
import { idText, multilineText } from "@shared/contracts/text";
import { translateError } from "@worker/http/errors";
import { Notice } from "~/components/forms";
import { PayoutQueue } from "~/components/dashboard/payout-queue";
import { DisputeList } from "~/components/moderation/dispute-list";
import { CreatorRequestQueue } from "~/components/moderation/creator-request-queue";
import { ReportQueue } from "~/components/moderation/report-queue";
import { PageHeader } from "~/components/page";
import type { ShellHandle } from "~/components/shell/app-shell";
import { formIntent, handleForm, parseForm, requireViewer, type FormResult } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Admin"))]);

export const handle: ShellHandle = { rightColumn: "none" };

const TABS = ["requests", "reports", "payouts", "disputes"] as const;
type AdminTab = (typeof TABS)[number];

/** Only admins: everyone else gets the same 404 as for a page that does not exist. */
function requireAdmin(context: LoaderFunctionArgs["context"], request: Request) {
  const session = requireViewer(context, request);
  if (session.user.role !== "admin") throw new Response("Not found", { status: 404 });
  return session;
}

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  const tab = (params.tab ?? "requests") as AdminTab;
  if (!TABS.includes(tab)) throw new Response("Not found", { status: 404 });
  const { db } = context.domain;
  const empty = { tab, requests: [], reports: [], payouts: [], disputes: [] };
  if (tab === "requests") return { ...empty, requests: await listPendingCreatorRequests(db) };
  if (tab === "reports") return { ...empty, reports: await listOpenReports(db) };
  if (tab === "disputes") return { ...empty, disputes: await listDisputes(db) };
  return { ...empty, payouts: await listPayoutQueue(db) };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireAdmin(context, request);
  const { domain } = context;
  return handleForm(context, async () => {
    const intent = await formIntent(request);
    if (intent === "approve") {
      const { requestId } = await parseForm(request, z.object({ requestId: idText }));
      await decideCreatorRequest(domain, user.id, requestId, { status: "approved" });
      return { ok: true, message: domain.t("The request was approved.") } satisfies FormResult;
    }
    if (intent === "reject") {
      const form = await parseForm(request, z.object({ requestId: idText, reason: multilineText().default("") }));
      const reason = rejectionReasonSchema.safeParse(form.reason);
      if (!reason.success) {
        const text = translateError(domain.t, validationError(reason.error)).message;
        return data(
          { ok: false as const, requestId: form.requestId, message: text, errors: { reason: [text] } },
          { status: 422 },
        );
      }
      await decideCreatorRequest(domain, user.id, form.requestId, { status: "rejected", reason: reason.data });
      return { ok: true, message: domain.t("The request was rejected.") } satisfies FormResult;
    }
    if (intent === "payout-paid") {
      const { payoutId } = await parseForm(request, z.object({ payoutId: idText }));
      await decidePayout(domain, user, payoutId, { decision: "paid" });
      return { ok: true, message: domain.t("The payout was marked paid.") } satisfies FormResult;
    }
    if (intent === "payout-reject") {
      const form = await parseForm(request, z.object({ payoutId: idText, reason: multilineText().default("") }));
      const decision = RejectPayoutSchema.safeParse({ reason: form.reason });
      if (!decision.success) {
        const text = translateError(domain.t, validationError(decision.error)).message;
        return data(
          { ok: false as const, payoutId: form.payoutId, message: text, errors: { reason: [text] } },
          { status: 422 },
        );
      }
      await decidePayout(domain, user, form.payoutId, { decision: "rejected", ...decision.data });
      return {
        ok: true,
        message: domain.t("The payout was rejected; the money is available to the creator again."),
      } satisfies FormResult;
    }
    const { reportId, intent: reportAction } = await parseForm(
      request,
      z.object({ reportId: idText, intent: z.enum(REPORT_ACTIONS) }),
    );
    await resolveReport(domain, user.id, reportId, reportAction);
    return { ok: true, message: domain.t("The report was handled.") } satisfies FormResult;
  });
}

/**
 * /admin (creator requests), /admin/reports and /admin/payouts: the queues an admin works through; /admin/disputes:
 * the top-ups refunded or disputed, which Stripe decides (nothing to do here but see them).
 */
export default function AdminPage() {
  const { t } = useTranslation();
  const { tab, requests, reports, payouts, disputes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as (FormResult & { requestId?: number; payoutId?: number }) | undefined;
  const titles: Record<AdminTab, string> = {
    requests: t("Creator requests"),
    reports: t("Reports"),
    payouts: t("Payouts"),
    disputes: t("Disputes"),
  };
  const rejectErrors =
    result && !result.ok && result.requestId ? { requestId: result.requestId, reason: result.errors.reason } : {};
  const payoutErrors =
    result && !result.ok && result.payoutId ? { payoutId: result.payoutId, reason: result.errors.reason } : {};
  return (
    <>
      <PageHeader title={t("Admin")} />
      <nav aria-label={t("Admin")} className="flex gap-1 border-b border-slate-200 p-2 dark:border-slate-800">
        {TABS.map((name) => (
          <NavLink
            key={name}
            to={name === "requests" ? "/admin" : `/admin/${name}`}
            end
            className={() =>
              `rounded-lg px-3 py-2 ${tab === name ? "bg-slate-100 font-semibold dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`
            }
            aria-current={tab === name ? "page" : undefined}
          >
            {titles[name]}
          </NavLink>
        ))}
      </nav>
      {result && !rejectErrors.requestId && !payoutErrors.payoutId ? (
        <div className="p-4 pb-0">
          <Notice tone={result.ok ? "success" : "error"}>{result.message}</Notice>
        </div>
      ) : null}
      {tab === "requests" ? <CreatorRequestQueue requests={requests} errors={rejectErrors} /> : null}
      {tab === "reports" ? <ReportQueue reports={reports} /> : null}
      {tab === "payouts" ? <PayoutQueue payouts={payouts} errors={payoutErrors} /> : null}
      {tab === "disputes" ? <DisputeList disputes={disputes} /> : null}
    </>
  );
}
