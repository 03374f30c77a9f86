import { z } from "zod";
import type { DomainContext } from "../context";
import { createNotification } from "../notifications/notifications";
import { findCounterpart } from "../profiles/find-member";
import { AppError, fieldError, WALLET_NEEDS_FUNDS } from "../shared/errors";
import { message } from "../shared/messages";
import { isoNow } from "../shared/time";
import { addPeriod, PERIODS } from "./periods";
import { findLiveSubscription, presentSubscription, type SubscriptionRow, type SubscriptionView } from "./present-subscription";

export const SubscribeSchema = z.object({ period: z.enum(PERIODS, { message: message("Choose a subscription plan.") }) });

export const PLAN_NOT_OFFERED = message("This creator does not offer this plan.");

/**
 * Subscribes the fan to the creator named `username` on the plan of `period`:
 * - already active: nothing changes (idempotent);
 * - cancelled but still running: reactivated, on the plan it had;
 * - otherwise a new subscription for one period, plus a follow so the creator's posts reach the timeline.
 * A paid plan needs a wallet, which does not exist yet: it is refused with spec §8's message. The money work
 * charges the first period at that point, and the row already stores the price.
 */
export async function subscribe(ctx: Pick<DomainContext, "db" | "env">, fanId: number, username: string, input: z.output<typeof SubscribeSchema>): Promise<SubscriptionView> {
  const { db } = ctx;
  const creator = await findCounterpart(db, username, fanId, message("You cannot subscribe to yourself."));
  const now = isoNow();
  const live = await findLiveSubscription(db, fanId, creator.id);
  if (live && live.current_period_end > now) {
    if (live.status === "active") return presentSubscription(live);
    const reactivated = await db
      .prepare("UPDATE subscriptions SET status = 'active', cancelled_at = NULL WHERE id = ? AND status = 'cancelled' RETURNING *")
      .bind(live.id)
      .first<SubscriptionRow>();
    return presentSubscription(reactivated ?? live);
  }
  if (live) await db.prepare("UPDATE subscriptions SET status = 'expired', ended_at = current_period_end WHERE id = ? AND status IN ('active', 'cancelled')").bind(live.id).run();

  const plan = await db
    .prepare("SELECT price_cents FROM subscription_plans WHERE creator_id = ? AND period = ?")
    .bind(creator.id, input.period)
    .first<{ price_cents: number }>();
  // A member who used to be a creator may still have plan rows: only creators take subscribers.
  if (!plan || creator.role !== "creator") throw fieldError("period", PLAN_NOT_OFFERED);
  if (plan.price_cents > 0) throw new AppError("validation", WALLET_NEEDS_FUNDS);

  const [created] = await db.batch<SubscriptionRow>([
    db
      .prepare(
        `INSERT OR IGNORE INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end)
         VALUES (?, ?, ?, ?, 'active', ?, ?) RETURNING *`,
      )
      .bind(fanId, creator.id, input.period, plan.price_cents, now, addPeriod(now, input.period)),
    db.prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)").bind(fanId, creator.id, now),
  ]);
  const row = created!.results[0];
  // A concurrent request won the unique live row: answer with that one, notify once.
  if (!row) return presentSubscription((await findLiveSubscription(db, fanId, creator.id))!);
  await createNotification(ctx, { userId: creator.id, kind: "subscription", actorId: fanId, params: { period: input.period } });
  return presentSubscription(row);
}
