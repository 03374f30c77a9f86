/**
 * The creator's earnings overview (/dashboard/earnings): what they earned by source over today, the last 7 and
 * the last 30 UTC days (net of the platform fee), the 30 days day by day for the chart, their pending and
 * available balances, and when each pending amount frees up. Three indexed statements in one batch.
 */
import { DAY } from "../shared/time";
import type { AccountKind } from "./ledger";
import type { BySource, EarningsOverview } from "@shared/contracts/money";
import { EARNING_SOURCES, type EarningSource } from "@shared/contracts/money-constants";
export { type EarningsOverview };

/** The chart's span, in UTC days ending today. */
const CHART_DAYS = 30;

const noEarnings = (): BySource => ({ subscription: 0, tip: 0, post: 0, message: 0, live: 0 });
const sumOf = (bySource: BySource) => EARNING_SOURCES.reduce((sum, source) => sum + bySource[source], 0);

/** The UTC calendar day ("2026-11-23") of `ms`. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function earningsOverview(
  db: D1Database,
  creatorId: number,
  feePercent: number,
  now = Date.now(),
): Promise<EarningsOverview> {
  const dates = Array.from({ length: CHART_DAYS }, (_, index) => dayOf(now - (CHART_DAYS - 1 - index) * DAY));
  const [earned, held, accounts] = await db.batch<Record<string, unknown>>([
    // earnings_of_creator (creator_id, created_at): a range scan of this creator's last 30 days.
    db
      .prepare(
        `SELECT substr(created_at, 1, 10) AS day, source, SUM(net_cents) AS cents FROM earnings
         WHERE creator_id = ? AND created_at >= ? GROUP BY day, source`,
      )
      .bind(creatorId, `${dates[0]}T00:00:00.000Z`),
    // earnings_held (creator_id, release_at) WHERE release_transfer_id IS NULL.
    db
      .prepare(
        `SELECT substr(release_at, 1, 10) AS day, SUM(net_cents) AS cents FROM earnings
         WHERE creator_id = ? AND release_transfer_id IS NULL GROUP BY day ORDER BY day`,
      )
      .bind(creatorId),
    db.prepare("SELECT kind, balance_cents FROM ledger_accounts WHERE user_id = ?").bind(creatorId),
  ]);
  const byDay = new Map(dates.map((date) => [date, noEarnings()]));
  for (const row of (earned?.results ?? []) as { day: string; source: EarningSource; cents: number }[]) {
    const day = byDay.get(row.day);
    if (day) day[row.source] += row.cents;
  }
  const totalsOver = (length: number) => {
    const totals = noEarnings();
    for (const date of dates.slice(-length))
      for (const source of EARNING_SOURCES) totals[source] += byDay.get(date)![source];
    return { ...totals, total: sumOf(totals) };
  };
  const balance = (kind: AccountKind) =>
    ((accounts?.results ?? []) as { kind: AccountKind; balance_cents: number }[]).find((row) => row.kind === kind)
      ?.balance_cents ?? 0;
  return {
    totals: { today: totalsOver(1), last7Days: totalsOver(7), last30Days: totalsOver(CHART_DAYS) },
    days: dates.map((date) => ({ date, ...byDay.get(date)! })),
    pendingCents: balance("earnings_pending"),
    availableCents: balance("earnings_available"),
    releases: ((held?.results ?? []) as { day: string; cents: number }[]).map((row) => ({
      date: row.day,
      cents: row.cents,
    })),
    feePercent,
  };
}
