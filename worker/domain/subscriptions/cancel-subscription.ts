import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { presentSubscription, type SubscriptionRow, type SubscriptionView } from "./present-subscription";

/**
 * Cancels the fan's subscription: it stops renewing but still entitles until `current_period_end`, when the
 * cron job marks it expired. Cancelling again changes nothing. Someone else's subscription is not found.
 */
export async function cancelSubscription(
  db: D1Database,
  fanId: number,
  subscriptionId: number,
): Promise<SubscriptionView> {
  const [, row] = await db.batch<SubscriptionRow>([
    db
      .prepare(
        "UPDATE subscriptions SET status = 'cancelled', cancelled_at = ? WHERE id = ? AND fan_id = ? AND status = 'active'",
      )
      .bind(isoNow(), subscriptionId, fanId),
    db.prepare("SELECT * FROM subscriptions WHERE id = ? AND fan_id = ?").bind(subscriptionId, fanId),
  ]);
  const subscription = row!.results[0];
  if (!subscription) throw new AppError("not_found", message("This subscription does not exist."));
  return presentSubscription(subscription);
}
