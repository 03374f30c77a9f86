import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { NavLink, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listPlans } from "../../worker/domain/subscriptions/plans";
import { plansFromForm } from "../../worker/domain/subscriptions/plans-form";
import { setPlans } from "../../worker/domain/subscriptions/set-plans";
import { EmptyState, PageHeader } from "~/components/page";
import { PlansForm } from "~/components/profile/plans-form";
import type { ShellHandle } from "~/components/shell/app-shell";
import { handleForm, readForm, requireCreator, type FormResult } from "~/lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Fanclub" }];

export const handle: ShellHandle = { rightColumn: "none" };

const PAGES = ["earnings", "payouts", "withdraw", "payout-methods", "plans"] as const;
type DashboardPage = (typeof PAGES)[number];

export async function loader({ context, request, params }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const page = (params.page ?? "earnings") as DashboardPage;
  if (!PAGES.includes(page)) throw new Response("Not found", { status: 404 });
  return { page, plans: page === "plans" ? await listPlans(context.domain.db, user.id) : [], messagePriceCents: user.message_price_cents };
}

/** The plans page's form: subscription periods offered and their prices. */
export async function action({ context, request }: ActionFunctionArgs) {
  const { user } = requireCreator(context, request);
  return handleForm(context, async () => {
    await setPlans(context.domain.db, user, plansFromForm(await readForm(request)));
    return { ok: true } satisfies FormResult;
  });
}

/** /dashboard/{page?}: a creator's earnings overview, payout history, withdrawal request and payout methods. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { page, plans, messagePriceCents } = useLoaderData<typeof loader>();
  const money = (cents: number) => new Intl.NumberFormat(i18n.language, { style: "currency", currency: "USD" }).format(cents / 100);
  const titles: Record<DashboardPage, string> = { earnings: t("Earnings"), payouts: t("Payout history"), withdraw: t("Request a withdrawal"), "payout-methods": t("Payout methods"), plans: t("Subscription plans") };
  return (
    <>
      <PageHeader title={t("Dashboard")} />
      <nav aria-label={t("Dashboard")} className="border-b border-slate-200 px-2 dark:border-slate-800">
        <ul className="flex gap-1 overflow-x-auto py-2">
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
      {page === "earnings" ? (
        <dl className="grid grid-cols-1 gap-3 p-4 narrow:grid-cols-3">
          {[
            { label: t("Available"), value: money(0) },
            { label: t("Pending"), value: money(0) },
            { label: t("Total earned"), value: money(0) },
          ].map((item) => (
            <div key={item.label} className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
              <dt className="text-sm text-slate-600 dark:text-slate-400">{item.label}</dt>
              <dd className="mt-1 text-2xl font-bold">{item.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {page === "payouts" ? <EmptyState icon="wallet" title={t("No payouts yet")} text={t("Earnings become available for payout 7 business days after they are made.")} /> : null}
      {page === "withdraw" ? <EmptyState icon="wallet" title={t("Nothing to withdraw yet")} text={t("You can request a withdrawal once at least $50 is available. One request can be open at a time.")} /> : null}
      {page === "plans" ? <PlansForm plans={plans} messagePriceCents={messagePriceCents} /> : null}
      {page === "payout-methods" ? <EmptyState icon="wallet" title={t("No payout method yet")} text={t("Add a PayPal address or bank details to receive your payouts.")} /> : null}
    </>
  );
}
