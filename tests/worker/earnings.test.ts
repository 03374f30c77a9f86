import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { earningsOverview } from "../../worker/domain/money/earnings-overview";
import { auditLedger } from "../../worker/domain/money/ledger";
import { releaseDueEarnings } from "../../worker/domain/money/release-earnings";
import { backdate, earn, FEE_PERCENT } from "./earnings-fixtures";
import { api, createUser } from "./factories";
import { createVerifiedCreator } from "./money-fixtures";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-23T12:00:00.000Z");
const daysAgo = (days: number, hour = 12) => new Date(NOW - days * DAY + (hour - 12) * 3_600_000).toISOString();

describe("the earnings overview", () => {
  it("sums the net of each source over today, 7 and 30 UTC days, and lists the 30 days for the chart", async () => {
    const creator = await createVerifiedCreator();
    const id = creator.user.userId;
    const seeds: [number, "subscription" | "tip" | "post" | "message", string][] = [
      [1000, "tip", daysAgo(0, 0)], // 800 net, today from midnight
      [500, "post", daysAgo(0, 11)], // 400
      [2000, "subscription", daysAgo(2)], // 1600
      [300, "message", daysAgo(6, 0)], // 240: the 7-day window starts at midnight six days ago
      [1000, "tip", daysAgo(7, 23)], // 800: outside 7 days, inside 30
      [5000, "tip", daysAgo(29, 0)], // 4000
      [700, "post", daysAgo(30, 23)], // 560: outside every window
    ];
    for (const [gross, kind, at] of seeds) await backdate(await earn(id, gross, kind), at, "2099-01-05T10:00:00.000Z");

    const overview = await earningsOverview(env.DB, id, FEE_PERCENT, NOW);
    expect(overview.totals.today).toEqual({ subscription: 0, tip: 800, post: 400, message: 0, live: 0, total: 1200 });
    expect(overview.totals.last7Days).toEqual({
      subscription: 1600,
      tip: 800,
      post: 400,
      message: 240,
      live: 0,
      total: 3040,
    });
    expect(overview.totals.last30Days).toEqual({
      subscription: 1600,
      tip: 5600,
      post: 400,
      message: 240,
      live: 0,
      total: 7840,
    });
    expect(overview.days).toHaveLength(30);
    expect(overview.days[29]).toEqual({
      date: "2026-11-23",
      subscription: 0,
      tip: 800,
      post: 400,
      message: 0,
      live: 0,
    });
    expect(overview.days[0]).toEqual({ date: "2026-10-25", subscription: 0, tip: 4000, post: 0, message: 0, live: 0 });
    expect(overview.pendingCents).toBe(8400);
    expect(overview.availableCents).toBe(0);
    expect(overview.feePercent).toBe(20);
  });

  it("groups held earnings by the day they free up and moves released ones to available", async () => {
    const creator = await createVerifiedCreator();
    const id = creator.user.userId;
    await backdate(await earn(id, 1000), daysAgo(1), "2099-03-02T09:00:00.000Z");
    await backdate(await earn(id, 2000), daysAgo(1), "2099-03-02T17:30:00.000Z");
    await backdate(await earn(id, 500), daysAgo(0), "2099-03-03T09:00:00.000Z");
    const released = await earn(id, 250);
    await backdate(released, daysAgo(9), "2000-01-01T00:00:00.000Z");
    await releaseDueEarnings(env);

    const overview = await earningsOverview(env.DB, id, FEE_PERCENT, NOW);
    expect(overview.releases).toEqual([
      { date: "2099-03-02", cents: 2400 },
      { date: "2099-03-03", cents: 400 },
    ]);
    expect(overview.pendingCents).toBe(2800);
    expect(overview.availableCents).toBe(200);
    expect(await auditLedger(env.DB)).toEqual({
      unbalancedTransfers: 0,
      openTransfers: 0,
      negativeAccounts: 0,
      driftedAccounts: 0,
      totalCents: 0,
    });
  });

  it("reads the creator's earnings through their indexes only", async () => {
    const plan = async (sql: string) =>
      (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(1, "2026-01-01").all<{ detail: string }>()).results
        .map((row) => row.detail)
        .join(" | ");
    expect(
      await plan(
        "SELECT substr(created_at, 1, 10) AS day, source, SUM(net_cents) FROM earnings WHERE creator_id = ? AND created_at >= ? GROUP BY day, source",
      ),
    ).toContain("USING INDEX earnings_of_creator");
    expect(
      await plan(
        "SELECT substr(release_at, 1, 10) AS day, SUM(net_cents) FROM earnings WHERE creator_id = ? AND release_transfer_id IS NULL AND ? IS NOT NULL GROUP BY day",
      ),
    ).toContain("earnings_held");
  });

  it("answers GET /api/dashboard/earnings to creators only", async () => {
    const creator = await createVerifiedCreator();
    await earn(creator.user.userId, 1000, "post");
    const response = await api("/dashboard/earnings", { token: creator.token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      totals: { today: { post: number } };
      pendingCents: number;
      days: unknown[];
    };
    expect(body.totals.today.post).toBe(800);
    expect(body.pendingCents).toBe(800);
    expect(body.days).toHaveLength(30);
    const member = await createUser();
    expect((await api("/dashboard/earnings", { token: member.token })).status).toBe(403);
    expect((await api("/dashboard/earnings")).status).toBe(401);
  });
});
