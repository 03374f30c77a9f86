import type { Env } from "../../env";
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
 * - a cancelled subscription past its end becomes expired.
 * Paid renewals come with the money issue (charge the wallet, or expire when it cannot pay); they are left as
 * they are here.
 */
export async function renewSubscriptions(env: Pick<Env, "DB">): Promise<{ renewed: number; expired: number }> {
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
        .prepare("UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND status = 'active' AND current_period_end = ? RETURNING id")
        .bind(row.id, row.current_period_end);
    }
    let end = row.current_period_end;
    while (end <= now) end = addPeriod(end, row.period);
    return db
      .prepare("UPDATE subscriptions SET current_period_end = ? WHERE id = ? AND status = 'active' AND current_period_end = ? RETURNING id")
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
