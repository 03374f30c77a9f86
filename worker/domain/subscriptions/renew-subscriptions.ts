import { config, type Env } from "../../env";
import type { EffectsContext } from "../context";
import { ledgerRefusal } from "../money/ledger";
import { payFromWallet } from "../money/payments";
import { systemKey } from "../money/rules";
import { createNotification } from "../notifications/notifications";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { translatorFor } from "../i18n";
import type { Mailer } from "../mail/mailer";
import { renewalFailedMail } from "../mail/templates";
import { addPeriod, type Period } from "./periods";
import { renewalOf, type DueSubscription, type Renewal } from "./renewal-price";

type RenewContext = Pick<EffectsContext, "env" | "db" | "publish"> & { mailer: Mailer };

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
 *   down — while the creator still offers that period for free and neither of the two is hidden (suspended or
 *   leaving); otherwise it ends at its renewal date;
 * - a cancelled subscription past its end becomes expired;
 * - an active PAID subscription (or one whose plan change makes it paid) past its renewal date is charged for its
 *   next period (renewPaidSubscriptions).
 */
export async function renewSubscriptions(ctx: RenewContext): Promise<{ renewed: number; expired: number }> {
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
              EXISTS (SELECT 1 FROM subscription_plans pl WHERE pl.creator_id = s.creator_id AND pl.period = s.period AND pl.price_cents = 0)
                AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id IN (s.fan_id, s.creator_id) AND u.suspended_at IS NOT NULL) AS still_free
       FROM subscriptions s
       WHERE s.status IN ('active', 'cancelled') AND s.current_period_end <= ?1 AND s.status = 'active' AND s.price_cents = 0
         AND s.next_period IS NULL
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

interface PaidDueRow extends DueSubscription {
  fan_email: string;
  fan_name: string;
  /** The language the fan's newest device subscribed to pushes in: the mail is written in it (else English). */
  fan_language: string | null;
  creator_name: string;
  creator_username: string;
}

/** Paid renewals per run: each is its own batch, so fewer than the free ones; the next runs finish a backlog. */
const PAID_BATCH_SIZE = 50;

/**
 * Charges each due paid subscription for its next period (renewalOf: the plan, a plan change taking over, an
 * offer's discount while it holds, a free trial turning paid). The plan withdrawn, or either of the two hidden
 * (suspended, or leaving: their account is to be deleted): the subscription ends. The plan now free: it renews free. The wallet short: it ends at its renewal date and the fan is
 * told ('renewal_failed': notification, push and mail). The key of a charge is derived from the subscription and
 * the period end, and the charge is guarded by the state it read, so a second run (or a concurrent one, or a plan
 * change in between) never charges twice or at a stale price.
 */
async function renewPaidSubscriptions(ctx: RenewContext): Promise<{ renewed: number; expired: number }> {
  const { db } = ctx;
  const now = isoNow();
  const { results: due } = await db
    .prepare(
      `SELECT s.*,
              (c.role = 'creator' AND c.suspended_at IS NULL AND f.suspended_at IS NULL) AS creator_ok,
              (SELECT price_cents FROM subscription_plans WHERE creator_id = s.creator_id AND period = COALESCE(s.next_period, s.period)) AS plan_cents,
              (SELECT discount_percent FROM subscription_bundles WHERE creator_id = s.creator_id
                 AND months = CASE WHEN s.next_period IS NULL THEN s.bundle_months ELSE s.next_bundle_months END) AS discount_percent,
              (SELECT price_cents FROM subscription_plans WHERE creator_id = s.creator_id AND period = 'month') AS monthly_cents,
              f.email AS fan_email, f.name AS fan_name,
              (SELECT language FROM push_subscriptions WHERE user_id = s.fan_id ORDER BY id DESC LIMIT 1) AS fan_language,
              c.name AS creator_name, c.username AS creator_username
       FROM subscriptions s JOIN users f ON f.id = s.fan_id JOIN users c ON c.id = s.creator_id
       WHERE s.status IN ('active', 'cancelled') AND s.current_period_end <= ?1 AND s.status = 'active'
         AND (s.price_cents > 0 OR s.next_period IS NOT NULL)
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

/** The subscription is still as it was read: due at the same date, with the same plan change pending. */
const stillDue = (row: PaidDueRow) => ({
  sql: "id = ? AND status = 'active' AND current_period_end = ? AND next_period IS ? AND next_bundle_months IS ?",
  binds: [row.id, row.current_period_end, row.next_period, row.next_bundle_months],
});

async function renewPaid(ctx: RenewContext, row: PaidDueRow): Promise<"renewed" | "expired" | "unchanged"> {
  const { db } = ctx;
  const renewal = renewalOf(row);
  if (renewal === null) return (await expire(db, row)) ? "expired" : "unchanged";
  const due = stillDue(row);
  const moveOn = db
    .prepare(
      `UPDATE subscriptions SET current_period_end = ?, period = ?, bundle_months = ?, price_cents = ?,
         next_period = NULL, next_bundle_months = NULL, next_price_cents = NULL,
         offer_renewals_left = ?, offer_percent = CASE WHEN ? > 0 THEN offer_percent ELSE 0 END
       WHERE ${due.sql}`,
    )
    .bind(
      renewal.nextEnd,
      renewal.plan.period,
      renewal.plan.bundleMonths,
      renewal.regularCents,
      renewal.renewalsLeft,
      renewal.renewalsLeft,
      ...due.binds,
    );
  if (renewal.chargeCents === 0) {
    const { meta } = await moveOn.run();
    return meta.changes > 0 ? "renewed" : "unchanged";
  }
  try {
    const outcome = await payFromWallet(db, {
      payer: { id: row.fan_id, email_verified_at: null },
      system: true,
      creatorId: row.creator_id,
      kind: "renewal",
      amountCents: renewal.chargeCents,
      idempotencyKey: systemKey(`renewal:${row.id}:${row.current_period_end}`),
      request: { subscriptionId: row.id, periodEnd: row.current_period_end },
      subscriptionId: row.id,
      offerId: renewal.pricedBy,
      feePercent: config(ctx.env).PLATFORM_FEE_PERCENT,
      guard: { sql: `EXISTS (SELECT 1 FROM subscriptions WHERE ${due.sql})`, binds: due.binds },
      effects: () => [moveOn],
    });
    if (outcome.replayed) return "unchanged";
    // The wallet went down: the fan's balance flag (the next renewal) may now be set.
    ctx.publish({ type: "UpdatesChanged", userIds: [row.fan_id] });
    return "renewed";
  } catch (error) {
    if (error instanceof AppError && error.code === "payment_required") {
      if (!(await expire(db, row))) return "unchanged";
      await tellRenewalFailed(ctx, row, renewal);
      return "expired";
    }
    // Cancelled or renewed by someone else since it was read: nothing to do.
    if (ledgerRefusal(error) === "state_changed") return "unchanged";
    throw error;
  }
}

/** The fan learns their subscription (or free trial) ended for want of funds: a notification, its push, a mail. */
async function tellRenewalFailed(ctx: RenewContext, row: PaidDueRow, renewal: Renewal) {
  await createNotification(ctx, {
    userId: row.fan_id,
    kind: "renewal_failed",
    actorId: row.creator_id,
    params: { amountCents: renewal.chargeCents, ...(renewal.trialEnding ? { trial: 1 } : {}) },
  });
  const t = translatorFor(row.fan_language ?? "en");
  const origin = config(ctx.env).APP_URL ?? "";
  await ctx.mailer.send(
    renewalFailedMail(
      t,
      row.fan_email,
      row.fan_name,
      row.creator_name,
      renewal.trialEnding,
      `${origin}/${row.creator_username}`,
    ),
  );
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
