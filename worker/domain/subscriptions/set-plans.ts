import type { SetPlansInput } from "@shared/contracts/subscription-bodies";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { listPlans, type PlanView } from "./plans";

/**
 * Replaces the creator's plans (and sets the message price when given). Existing subscriptions keep the price
 * they were taken at (stored on them) unless the plan's new price is lower: renewals charge the lower one.
 */
export async function setPlans(
  db: D1Database,
  user: { id: number; role: string },
  input: SetPlansInput,
): Promise<PlanView[]> {
  if (user.role !== "creator") throw new AppError("forbidden", message("Only creators can offer subscriptions."));
  const now = isoNow();
  await db.batch([
    db
      .prepare("DELETE FROM subscription_plans WHERE creator_id = ? AND period NOT IN (SELECT value FROM json_each(?))")
      .bind(user.id, JSON.stringify(input.plans.map((plan) => plan.period))),
    ...input.plans.map((plan) =>
      db
        .prepare(
          `INSERT INTO subscription_plans (creator_id, period, price_cents, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (creator_id, period) DO UPDATE SET price_cents = excluded.price_cents, updated_at = excluded.updated_at`,
        )
        .bind(user.id, plan.period, plan.priceCents, now),
    ),
    ...(input.messagePriceCents === undefined
      ? []
      : [db.prepare("UPDATE users SET message_price_cents = ? WHERE id = ?").bind(input.messagePriceCents, user.id)]),
  ]);
  return listPlans(db, user.id);
}
