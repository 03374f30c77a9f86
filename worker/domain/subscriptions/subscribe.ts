import type { SubscribeInput } from "@shared/contracts/subscription-bodies";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { payFromWallet } from "../money/payments";
import { clientKey, KEY_NEEDED } from "../money/rules";
import { notificationStatements, notificationStatementsIfChanged } from "../notifications/notifications";
import { findCounterpart } from "../profiles/find-member";
import { AppError, fieldError, PriceChangedError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { firstRow, readTogether } from "../shared/reads";
import { addPeriod, type Period } from "./periods";
import {
  findLiveSubscription,
  liveSubscriptionStatement,
  presentSubscription,
  type SubscriptionRow,
  type SubscriptionView,
} from "./present-subscription";

const PLAN_NOT_OFFERED = message("This creator does not offer this plan.");
/** The live-row unique index refused a second subscription: a concurrent request won. */
const ALREADY_SUBSCRIBED = message("You are already subscribed to this creator.");

/**
 * Subscribes the fan to the creator named `username` on the plan of `period`:
 * - already active: nothing changes (idempotent);
 * - cancelled but still running: reactivated, on the plan it had, without a charge;
 * - otherwise a new subscription for one period, plus a follow so the creator's posts reach the timeline. A paid
 *   plan charges the first period from the wallet in the same batch that writes the subscription. The plan's
 *   price must be the one the fan was shown (`priceCents`, absent: free), else nothing happens (PriceChangedError).
 */
export async function subscribe(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  fan: UserRow,
  username: string,
  input: SubscribeInput,
): Promise<SubscriptionView> {
  const { db } = ctx;
  const creator = await findCounterpart(db, username, fan.id, message("You cannot subscribe to yourself."));
  const now = isoNow();
  // The plan is read with the live subscription (one batch), though an active subscription answers without it.
  const [live, plan] = await readTogether(db, [
    firstRow<SubscriptionRow>(liveSubscriptionStatement(db, fan.id, creator.id)),
    firstRow<{ price_cents: number }>(
      db
        .prepare("SELECT price_cents FROM subscription_plans WHERE creator_id = ? AND period = ?")
        .bind(creator.id, input.period),
    ),
  ]);
  if (live && live.current_period_end > now) {
    if (live.status === "active") return presentSubscription(live);
    const reactivated = await db
      .prepare(
        "UPDATE subscriptions SET status = 'active', cancelled_at = NULL WHERE id = ? AND status = 'cancelled' RETURNING *",
      )
      .bind(live.id)
      .first<SubscriptionRow>();
    return presentSubscription(reactivated ?? live);
  }
  if (live) {
    // Past its end, not yet expired by the cron. Expire it only as it was read: if the cron renewed it meanwhile
    // (the fan paid for the next period), that renewed subscription is the answer, not a second charge.
    const ended = await db
      .prepare(
        "UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND status IN ('active', 'cancelled') AND current_period_end = ? RETURNING id",
      )
      .bind(live.id, live.current_period_end)
      .first();
    const current = ended ? null : await findLiveSubscription(db, fan.id, creator.id);
    if (current && current.current_period_end > now && current.status === "active") return presentSubscription(current);
  }

  // A member who used to be a creator may still have plan rows: only creators take subscribers.
  if (!plan || creator.role !== "creator") throw fieldError("period", PLAN_NOT_OFFERED);
  if (plan.price_cents !== (input.priceCents ?? 0)) throw new PriceChangedError(plan.price_cents);
  const start = { fanId: fan.id, creatorId: creator.id, period: input.period, priceCents: plan.price_cents, now };
  if (plan.price_cents > 0) return subscribePaid(ctx, fan, start, input.idempotencyKey);

  // One batch: the subscription, the creator's notification (with the devices to push it to) only when the
  // subscription was written, and the follow.
  const notification = notificationStatementsIfChanged(ctx, {
    userId: creator.id,
    kind: "subscription",
    actorId: fan.id,
    params: { period: input.period },
  });
  const [created, ...rest] = await db.batch([
    insertSubscription(db, start, "INSERT OR IGNORE"),
    ...notification.statements,
    followStatement(db, fan.id, creator.id, now),
  ]);
  const row = created!.results[0] as SubscriptionRow | undefined;
  // A concurrent request won the unique live row: answer with that one, notified once (by the winner).
  if (!row) return presentSubscription((await findLiveSubscription(db, fan.id, creator.id))!);
  const event = notification.created(rest.slice(0, notification.statements.length));
  if (event) ctx.publish(event);
  return presentSubscription(row);
}

interface NewSubscription {
  fanId: number;
  creatorId: number;
  period: Period;
  priceCents: number;
  now: string;
}

const insertSubscription = (db: D1Database, start: NewSubscription, verb: "INSERT" | "INSERT OR IGNORE") =>
  db
    .prepare(
      `${verb} INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end)
       VALUES (?, ?, ?, ?, 'active', ?, ?) RETURNING *`,
    )
    .bind(start.fanId, start.creatorId, start.period, start.priceCents, start.now, addPeriod(start.now, start.period));

const followStatement = (db: D1Database, fanId: number, creatorId: number, now: string) =>
  db
    .prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
    .bind(fanId, creatorId, now);

/**
 * The first period of a paid plan: the payment, the subscription (linked to it), the follow and the creator's
 * notification in one batch. A second subscription cannot slip in: the unique live row refuses it, and the
 * request that lost answers with the one that won (a replayed key does the same through its payment).
 */
async function subscribePaid(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  fan: UserRow,
  start: NewSubscription,
  key: string | undefined,
): Promise<SubscriptionView> {
  const { db } = ctx;
  if (!key) throw fieldError("idempotencyKey", KEY_NEEDED);
  const notification = notificationStatements(ctx, {
    userId: start.creatorId,
    kind: "subscription",
    actorId: start.fanId,
    params: { period: start.period },
  });
  try {
    const outcome = await payFromWallet(db, {
      payer: fan,
      creatorId: start.creatorId,
      kind: "subscription",
      amountCents: start.priceCents,
      idempotencyKey: clientKey(key),
      request: { period: start.period },
      feePercent: ctx.config.PLATFORM_FEE_PERCENT,
      effects: (payment) => [
        ...notification.statements,
        insertSubscription(db, start, "INSERT"),
        db
          .prepare(
            `UPDATE payments SET subscription_id = (SELECT id FROM subscriptions WHERE fan_id = ? AND creator_id = ? AND status = 'active') WHERE id = ${payment.sql}`,
          )
          .bind(start.fanId, start.creatorId, ...payment.binds),
        followStatement(db, start.fanId, start.creatorId, start.now),
      ],
      refusal: (error) =>
        String(error).includes("subscriptions.fan_id") ? new AppError("conflict", ALREADY_SUBSCRIBED) : null,
    });
    if (outcome.replayed) {
      const paid = await db
        .prepare("SELECT * FROM subscriptions WHERE id = ? AND fan_id = ?")
        .bind(outcome.payment.subscription_id, fan.id)
        .first<SubscriptionRow>();
      if (paid) return presentSubscription(paid);
    } else {
      ctx.publish(notification.created(outcome.effects));
      // The subscription the batch created comes back from its INSERT: nothing to read again.
      return presentSubscription(outcome.effects[notification.statements.length]!.results[0] as SubscriptionRow);
    }
  } catch (error) {
    if (!(error instanceof AppError && error.message === ALREADY_SUBSCRIBED)) throw error;
  }
  const winner = await findLiveSubscription(db, fan.id, start.creatorId);
  if (!winner) throw new AppError("conflict", ALREADY_SUBSCRIBED);
  return presentSubscription(winner);
}
