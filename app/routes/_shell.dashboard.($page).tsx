import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { NavLink, useLoaderData, useParams, useRevalidator, type Params } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { earningsOverview } from "../../worker/domain/money/earnings-overview";
import { availableOf, balanceOf } from "../../worker/domain/money/ledger";
import { findOpenPayout, listPayouts } from "../../worker/domain/money/list-payouts";
import { getPayoutMethod, PayoutMethodSchema, setPayoutMethod } from "../../worker/domain/money/payout-methods";
import { MIN_WITHDRAWAL_CENTS } from "../../worker/domain/money/rules";
import { withdrawalCentsFromForm } from "../../worker/domain/money/withdrawal-amount";
import { requestWithdrawal, WithdrawalSchema } from "../../worker/domain/money/withdrawals";
import { parseOrThrow } from "../../worker/domain/shared/validation";
import { listFans } from "../../worker/domain/subscriptions/list-fans";
import { listPlans } from "../../worker/domain/subscriptions/plans";
import { plansFromForm } from "../../worker/domain/subscriptions/plans-form";
import { setPlans } from "../../worker/domain/subscriptions/set-plans";
import type { EarningsOverview } from "@shared/contracts/money";
import { FAN_KINDS, type FanKind } from "@shared/contracts/subscriptions";
import { array, nullable, number, object, oneOf, string, type Shape } from "@shared/shape";
import { formatCents } from "@shared/money";
import { EarningsOverviewPanel } from "~/components/dashboard/earnings-overview";
import { FanList } from "~/components/dashboard/fan-list";
import { PayoutHistory, payoutPageShape } from "~/components/dashboard/payout-history";
import { PayoutMethodForm } from "~/components/dashboard/payout-method-form";
import { WithdrawForm } from "~/components/dashboard/withdraw-form";
import { useUpdates } from "~/lib/updates";
import { OfflineNotice } from "~/components/offline-notice";
import { PageHeader } from "~/components/page";
import { PlansForm } from "~/components/profile/plans-form";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";
import { offlineLoader, useOfflineCopy } from "~/lib/offline-copies";
import { offlineAwareAction } from "~/lib/offline-aware-action";
import { useActiveTabInView } from "~/lib/use-active-tab-in-view";
import { pageMeta, titleTag } from "~/i18n/meta";

export const meta = pageMeta((t) => [titleTag(t("Dashboard"))]);

export const handle: ShellHandle = { rightColumn: "none" };

const PAGES = ["earnings", "payouts", "withdraw", "payout-methods", "plans", "fans"] as const;
type DashboardPage = (typeof PAGES)[number];

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const page = (params.page ?? "earnings") as DashboardPage;
  if (!PAGES.includes(page)) throw new Response("Not found", { status: 404 });
  const { db, config } = context.domain;
  const empty = { overview: null, payouts: null, withdraw: null, payoutMethod: null, plans: [], messagePriceCents: 0, fans: null, savedAt: Date.now() };
  switch (page) {
    case "earnings":
      return { ...empty, page, overview: await earningsOverview(db, user.id, config.PLATFORM_FEE_PERCENT), savedAt: Date.now() };
    case "payouts":
      return { ...empty, page, payouts: await listPayouts(db, user.id, null), savedAt: Date.now() };
    case "withdraw": {
      const [availableCents, openPayout, method] = await Promise.all([balanceOf(db, availableOf(user.id)), findOpenPayout(db, user.id), getPayoutMethod(db, user.id)]);
      const withdraw = { availableCents, minimumCents: MIN_WITHDRAWAL_CENTS, openPayout, hasPayoutMethod: method !== null, idempotencyKey: crypto.randomUUID() };
      return { ...empty, page, withdraw };
    }
    case "payout-methods":
      return { ...empty, page, payoutMethod: await getPayoutMethod(db, user.id) };
    case "plans":
      return { ...empty, page, plans: await listPlans(db, user.id), messagePriceCents: user.message_price_cents };
    case "fans": {
      // An unknown tab name shows the default tab, like a missing one.
      const requested = new URL(request.url).searchParams.get("kind");
      const kind: FanKind = FAN_KINDS.find((name) => name === requested) ?? "subscribers";
      return { ...empty, page, fans: { kind, first: await listFans(db, user, kind, null) } };
    }
  }
}

/** The withdrawal form, the payout method form, and the plans page's form (subscription periods and prices). */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { domain } = context;
  return handleForm(context, async () => {
    const fields = await readForm(request);
    if (fields.intent === "withdraw") {
      const amountCents = withdrawalCentsFromForm(fields.amount ?? "");
      const input = parseOrThrow(WithdrawalSchema, { amountCents, password: fields.password, idempotencyKey: fields.idempotencyKey });
      const { payout } = await requestWithdrawal(domain, user, input);
      const amount = formatCents(payout.amountCents, domain.language);
      return { ok: true, message: domain.t("Your withdrawal request of {{amount}} has been sent.", { amount }) } satisfies FormResult;
    }
    if (fields.intent === "payout-method") {
      await setPayoutMethod(domain, user, parseOrThrow(PayoutMethodSchema, fields));
      return { ok: true } satisfies FormResult;
    }
    await setPlans(domain.db, user, plansFromForm(fields));
    return { ok: true } satisfies FormResult;
  });
}

/** /dashboard/{page?}: a creator's earnings overview, payout history, withdrawal request, payout methods, plans and fans. */
/**
 * Earnings and payout history are kept for offline reading (app/lib/offline-copies.ts): a creator checks them on
 * the go. The other tabs are forms, which need the network anyway.
 */
const bySource = { subscription: number, tip: number, post: number, message: number, live: number };
const overviewShape: Shape<EarningsOverview> = object({
  totals: object({ today: object({ ...bySource, total: number }), last7Days: object({ ...bySource, total: number }), last30Days: object({ ...bySource, total: number }) }),
  days: array(object({ date: string, ...bySource })),
  pendingCents: number,
  availableCents: number,
  releases: array(object({ date: string, cents: number })),
  feePercent: number,
});
const keptTabShape = object({ page: oneOf("earnings", "payouts"), overview: nullable(overviewShape), payouts: nullable(payoutPageShape), savedAt: number });
const keptTabKey = ({ params }: { params: Params }) => (params.page === undefined || params.page === "earnings" ? "dashboard:earnings" : params.page === "payouts" ? "dashboard:payouts" : null);

type DashboardData = Awaited<ReturnType<typeof loader>>;
export const clientLoader = offlineLoader<DashboardData>(
  keptTabKey,
  (value, path) => ({ withdraw: null, payoutMethod: null, plans: [], messagePriceCents: 0, fans: null, ...keptTabShape(value, path) }) as DashboardData,
);

// Offline, a form says so and keeps what was typed; a withdrawal says nothing was requested or charged.
export const clientAction = offlineAwareAction((form) => form.get("intent") === "withdraw");

/**
 * The earnings while they are read: a payment to the creator comes with a notification, which changes the updates
 * summary (app/lib/updates.tsx), and then the figures are read again.
 */
function useFreshEarnings(on: boolean) {
  const { updates } = useUpdates();
  const { revalidate } = useRevalidator();
  const seen = useRef(updates);
  useEffect(() => {
    if (seen.current === updates) return;
    seen.current = updates;
    if (on) revalidate();
  }, [updates, on, revalidate]);
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof clientLoader>();
  const { page, overview, payouts, savedAt } = data;
  const params = useParams();
  const tabs = useActiveTabInView<HTMLUListElement>();
  useFreshEarnings(page === "earnings" || page === "payouts");
  useOfflineCopy(keptTabKey({ params }), data, useMemo(() => ({ page, overview, payouts, savedAt }), [page, overview, payouts, savedAt]));
  const titles: Record<DashboardPage, string> = { earnings: t("Earnings"), payouts: t("Payout history"), withdraw: t("Request a withdrawal"), "payout-methods": t("Payout methods"), plans: t("Subscription plans"), fans: t("Fans") };
  return (
    <>
      <PageHeader title={t("Dashboard")} />
      <OfflineNotice offline={data.offline} />
      <nav aria-label={t("Dashboard")} className="border-b border-slate-200 px-2 dark:border-slate-800">
        <ul ref={tabs} className="flex gap-1 overflow-x-auto py-2">
          {PAGES.map((name) => (
            <li key={name}>
              <NavLink to={`/dashboard/${name}`} className={({ isActive }) => `block whitespace-nowrap rounded-full px-3 py-1.5 text-sm ${isActive || (name === "earnings" && page === "earnings") ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}>
                {titles[name]}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <h2 className="sr-only">{titles[page]}</h2>
      {data.overview ? <EarningsOverviewPanel overview={data.overview} /> : null}
      {data.payouts ? <PayoutHistory first={data.payouts} /> : null}
      {data.withdraw ? <WithdrawForm data={data.withdraw} /> : null}
      {page === "payout-methods" ? <PayoutMethodForm current={data.payoutMethod} /> : null}
      {page === "plans" ? <PlansForm plans={data.plans} messagePriceCents={data.messagePriceCents} /> : null}
      {data.fans ? <FanList key={data.fans.kind} kind={data.fans.kind} first={data.fans.first} /> : null}
    </>
  );
}
