import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { EarningsOverview } from "@shared/contracts/money";
import { EARNING_SOURCES } from "@shared/contracts/money-constants";
import { EarningsChart } from "~/components/dashboard/earnings-chart";
import { useDayText } from "~/components/dashboard/calendar-day";
import { useMoney, useSourceLabels } from "~/components/dashboard/use-money";

/** Dashboard → Earnings: the three windows by source, the chart, the balances and when pending money frees up. */
export function EarningsOverviewPanel({ overview }: { overview: EarningsOverview }) {
  const { t } = useTranslation();
  const money = useMoney();
  const labels = useSourceLabels();
  const spans = [
    { key: "today", title: t("Today"), totals: overview.totals.today },
    { key: "last7Days", title: t("Last 7 days"), totals: overview.totals.last7Days },
    { key: "last30Days", title: t("Last 30 days"), totals: overview.totals.last30Days },
  ] as const;
  return (
    <div className="space-y-6 p-4">
      <section aria-labelledby="balances-heading" className="space-y-3">
        <h3 id="balances-heading" className="font-semibold">
          {t("Balance")}
        </h3>
        <dl className="grid grid-cols-1 gap-3 narrow:grid-cols-2">
          <div className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
            <dt className="text-sm text-slate-600 dark:text-slate-400">{t("Available")}</dt>
            <dd className="mt-1 text-2xl font-bold" data-testid="available-balance">
              {money(overview.availableCents)}
            </dd>
            <dd className="mt-2">
              <Link to="/dashboard/withdraw" className="link text-sm">
                {t("Request a withdrawal")}
              </Link>
            </dd>
          </div>
          <div className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
            <dt className="text-sm text-slate-600 dark:text-slate-400">{t("Pending")}</dt>
            <dd className="mt-1 text-2xl font-bold" data-testid="pending-balance">
              {money(overview.pendingCents)}
            </dd>
            <dd className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              {t("Earnings become available 7 business days after the payment.")}
            </dd>
          </div>
        </dl>
        {overview.releases.length > 0 ? (
          <ul className="space-y-1 text-sm" aria-label={t("When pending earnings become available")}>
            {overview.releases.map((release) => (
              <Release key={release.date} release={release} />
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="earned-heading" className="space-y-3">
        <h3 id="earned-heading" className="font-semibold">
          {t("Earned")}
        </h3>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("Amounts are what you keep, after the platform fee of {{percent}}%.", { percent: overview.feePercent })}
        </p>
        <div className="grid grid-cols-1 gap-3 narrow:grid-cols-3">
          {spans.map((span) => (
            <section
              key={span.key}
              aria-label={span.title}
              className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
            >
              <h4 className="text-sm text-slate-600 dark:text-slate-400">{span.title}</h4>
              <p className="mt-1 text-2xl font-bold">{money(span.totals.total)}</p>
              <dl className="mt-2 space-y-0.5 text-sm">
                {EARNING_SOURCES.map((source) => (
                  <div key={source} className="flex justify-between gap-2">
                    <dt className="text-slate-600 dark:text-slate-400">{labels[source]}</dt>
                    <dd>{money(span.totals[source])}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        <EarningsChart days={overview.days} />
      </section>
    </div>
  );
}

/** "Becomes available on Nov 30, 2026: $40.00", kept as the server wrote it while hydrating (useDayText). */
function Release({ release }: { release: EarningsOverview["releases"][number] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [id, text] = useDayText(release.date, String(release.cents), (date) =>
    t("Becomes available on {{date}}: {{amount}}", { date, amount: money(release.cents) }),
  );
  return <li id={id}>{text}</li>;
}
