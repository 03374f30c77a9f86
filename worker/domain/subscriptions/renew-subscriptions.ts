import { config, type Env } from "../../env";
import type { EffectsContext } from "../context";
import { ledgerRefusal } from "../money/ledger";
import { payFromWallet } from "../money/payments";
import { systemKey } from "../money/rules";
import { createNotification } from "../notifications/notifications";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { addPeriod, type Period } from "./periods";

/** Rows handled per statement; a backlog larger than this is finished by the next runs. */
const BATCH_SIZE = 200;

interface DueRow {
  id: number;
  period: Period;
  current_period_end: string;
  still_free: number;
}

/**
 * The cron job of subscriptions, safe to run twice (each write is guarded by the state it read):
 * - an active FREE subscription past its renewal date renews for one more period — several if the job was
 *   down — while the creator still offers that period for free; otherwise it ends at its renewal date;
 * - a cancelled subscription past its end becomes expired;
 * - an active PAID subscription past its renewal date is charged for one more period (renewPaidSubscriptions).
 */
export async function renewSubscriptions(
  ctx: Pick<EffectsContext, "env" | "db" | "publish">,
): Promise<{ renewed: number; expired: number }> {
  const free = await renewFreeSubscriptions(ctx.env);
  const paid = await renewPaidSubscriptions(ctx);
  return { renewed: free.renewed + paid.renewed, expired: free.expired + paid.expired };
}

async function renewFreeSubscriptions(env: Pick<Env, "DB">): Promise<{ renewed: number; expired: number }> {
  const db = env.DB;
  const now = isoNow();
  // Each query repeats the index's own condition (status IN …) so that SQLite reads subscriptions_due.
  const expiredCancelled = await db
    .prepare(
      `UPDATE subscriptions SET status = 'expired', ended_at = current_period_end
       WHERE id IN (SELECT id FROM subscriptions WHERE status IN ('active', 'cancelled') AND current_period_end <= ?1 AND status = 'cancelled' LIMIT ?2)
       RETURNING id`,
    )
    .bind(now, BATCH_SIZE)
    .all();

  const { results: due } = await db
    .prepare(
      `SELECT s.id, s.period, s.current_period_end,
              EXISTS (SELECT 1 FROM subscription_plans pl WHERE pl.creator_id = s.creator_id AND pl.period = s.period AND pl.price_cents = 0) AS still_free
       FROM subscriptions s
       WHERE s.status IN ('active', 'cancelled') AND s.current_period_end <= ?1 AND s.status = 'active' AND s.price_cents = 0
       LIMIT ?2`,
    )
    .bind(now, BATCH_SIZE)
    .all<DueRow>();
  if (due.length === 0) return { renewed: 0, expired: expiredCancelled.results.length };

  const writes = due.map((row) => {
    if (!row.still_free) {
      return db
        .prepare(
          "UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND status = 'active' AND current_period_end = ? RETURNING id",
        )
        .bind(row.id, row.current_period_end);
    }
    let end = row.current_period_end;
    while (end <= now) end = addPeriod(end, row.period);
    return db
      .prepare(
        "UPDATE subscriptions SET current_period_end = ? WHERE id = ? AND status = 'active' AND current_period_end = ? RETURNING id",
      )
      .bind(end, row.id, row.current_period_end);
  });
  const outcomes = await db.batch(writes);
  let renewed = 0;
  // Counted from RETURNING: D1's meta.changes also counts the rows the subscriber-count trigger touches.
  let expired = expiredCancelled.results.length;
  outcomes.forEach((outcome, index) => {
    const changed = outcome.results.length;
    if (due[index]!.still_free) renewed += changed;
    else expired += changed;
  });
  return { renewed, expired };
}

interface PaidDueRow {
  id: number;
  fan_id: number;
  creator_id: number;
  period: Period;
  price_cents: number;
  current_period_end: string;
  /** The plan's price today; null when the creator no longer offers the period, is no longer a creator or is suspended. */
  plan_price_cents: number | null;
}

/** Paid renewals per run: each is its own batch, so fewer than the free ones; the next runs finish a backlog. */
const PAID_BATCH_SIZE = 50;

/**
 * Charges each due paid subscription for one period, at the lower of the price the fan agreed to and the plan's
 * price today (a creator may lower a price, never raise it on existing subscribers). The plan withdrawn (or the
 * creator suspended): the subscription ends. The plan now free: it renews free. The wallet short: it ends at its renewal date and the
 * fan is told ('renewal_failed'). The key of a charge is derived from the subscription and the period end, and
 * the charge is guarded by that same state, so a second run (or a concurrent one) never charges twice.
 */
async function renewPaidSubscriptions(
  ctx: Pick<EffectsContext, "env" | "db" | "publish">,
): Promise<{ renewed: number; expired: number }> {
  const { db } = ctx;
  const now = isoNow();
  const { results: due } = await db
    .prepare(
      `SELECT s.id, s.fan_id, s.creator_id, s.period, s.price_cents, s.current_period_end,
              (SELECT pl.price_cents FROM subscription_plans pl JOIN users c ON c.id = pl.creator_id AND c.role = 'creator' AND c.suspended_at IS NULL
               WHERE pl.creator_id = s.creator_id AND pl.period = s.period) AS plan_price_cents
       FROM subscriptions s
       WHERE s.status IN ('active', 'cancelled') AND s.current_period_end <= ?1 AND s.status = 'active' AND s.price_cents > 0
       LIMIT ?2`,
    )
    .bind(now, PAID_BATCH_SIZE)
    .all<PaidDueRow>();
  let renewed = 0;
  let expired = 0;
  for (const row of due) {
    const outcome = await renewPaid(ctx, row);
    if (outcome === "renewed") renewed += 1;
    else if (outcome === "expired") expired += 1;
  }
  return { renewed, expired };
}

const stillDue = (row: PaidDueRow) => ({
  sql: "EXISTS (SELECT 1 FROM subscriptions WHERE id = ? AND status = 'active' AND current_period_end = ?)",
  binds: [row.id, row.current_period_end],
});

async function renewPaid(
  ctx: Pick<EffectsContext, "env" | "db" | "publish">,
  row: PaidDueRow,
): Promise<"renewed" | "expired" | "unchanged"> {
  const { db } = ctx;
  const nextEnd = addPeriod(row.current_period_end, row.period);
  const price = row.plan_price_cents === null ? null : Math.min(row.price_cents, row.plan_price_cents);
  if (price === null) return (await expire(db, row)) ? "expired" : "unchanged";
  const moveOn = db
    .prepare(
      "UPDATE subscriptions SET current_period_end = ?, price_cents = ? WHERE id = ? AND status = 'active' AND current_period_end = ?",
    )
    .bind(nextEnd, price, row.id, row.current_period_end);
  if (price === 0) {
    const { meta } = await moveOn.run();
    return meta.changes > 0 ? "renewed" : "unchanged";
  }
  try {
    const outcome = await payFromWallet(db, {
      payer: { id: row.fan_id, email_verified_at: null },
      system: true,
      creatorId: row.creator_id,
      kind: "renewal",
      amountCents: price,
      idempotencyKey: systemKey(`renewal:${row.id}:${row.current_period_end}`),
      request: { subscriptionId: row.id, periodEnd: row.current_period_end },
      subscriptionId: row.id,
      feePercent: config(ctx.env).PLATFORM_FEE_PERCENT,
      guard: stillDue(row),
      effects: () => [moveOn],
    });
    if (outcome.replayed) return "unchanged";
    // The wallet went down: the fan's balance flag (the next renewal) may now be set.
    ctx.publish({ type: "UpdatesChanged", userIds: [row.fan_id] });
    return "renewed";
  } catch (error) {
    if (error instanceof AppError && error.code === "payment_required") {
      if (!(await expire(db, row))) return "unchanged";
      await createNotification(ctx, {
        userId: row.fan_id,
        kind: "renewal_failed",
        actorId: row.creator_id,
        params: { amountCents: price },
      });
      return "expired";
    }
    // Cancelled or renewed by someone else since it was read: nothing to do.
    if (ledgerRefusal(error) === "state_changed") return "unchanged";
    throw error;
  }
}

/** Ends the subscription at its renewal date, if it is still the one that was read. */
async function expire(db: D1Database, row: PaidDueRow): Promise<boolean> {
  const ended = await db
    .prepare(
      "UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND status = 'active' AND current_period_end = ? RETURNING id",
    )
    .bind(row.id, row.current_period_end)
    .first();
  return ended !== null;
}
