import type { ChangePlanInput } from "@shared/contracts/offer-bodies";
import { message } from "@shared/messages";
import { AppError, fieldError, PriceChangedError } from "../shared/errors";
import { firstRow, readTogether } from "../shared/reads";
import { planPriceOf, planPriceStatement, samePlan, type PlanChoice, type PlanPriceRow } from "./plan-prices";
import {
  GIFTED_BY_USERNAME,
  presentSubscription,
  type SubscriptionRow,
  type SubscriptionView,
} from "./present-subscription";

const NOT_FOUND = message("This subscription does not exist.");
const ONLY_ACTIVE = message("Only a subscription that renews can change plan: resubscribe first.");
const PLAN_NOT_OFFERED = message("This creator does not offer this plan.");

/**
 * The fan's next plan: it takes over at the next renewal, which charges it (at the lower of the price shown and
 * the price then), so nothing is charged now and no period is paid twice. Choosing the current plan again undoes a
 * pending change. `priceCents` is the new plan's price the fan was shown; another one is refused.
 */
export async function changePlan(
  db: D1Database,
  fanId: number,
  subscriptionId: number,
  input: ChangePlanInput,
): Promise<SubscriptionView> {
  const plan: PlanChoice = { period: input.period, bundleMonths: input.bundleMonths ?? null };
  const subscription = await db
    .prepare(`SELECT s.*, ${GIFTED_BY_USERNAME} FROM subscriptions s WHERE s.id = ? AND s.fan_id = ?`)
    .bind(subscriptionId, fanId)
    .first<SubscriptionRow>();
  if (!subscription) throw new AppError("not_found", NOT_FOUND);
  if (subscription.status !== "active") throw new AppError("conflict", ONLY_ACTIVE);
  const [priceRow, creator] = await readTogether(db, [
    firstRow<PlanPriceRow>(planPriceStatement(db, subscription.creator_id, plan)),
    firstRow<{ role: string }>(db.prepare("SELECT role FROM users WHERE id = ?").bind(subscription.creator_id)),
  ]);
  const price = creator?.role === "creator" ? planPriceOf(priceRow, plan) : null;
  if (price === null) throw fieldError("period", PLAN_NOT_OFFERED);
  if (price !== input.priceCents) throw new PriceChangedError(price);
  const current: PlanChoice = { period: subscription.period, bundleMonths: subscription.bundle_months };
  const undo = samePlan(plan, current);
  const row = await db
    .prepare(
      `UPDATE subscriptions SET next_period = ?, next_bundle_months = ?, next_price_cents = ?
       WHERE id = ? AND fan_id = ? AND status = 'active' RETURNING *`,
    )
    .bind(undo ? null : plan.period, undo ? null : plan.bundleMonths, undo ? null : price, subscriptionId, fanId)
    .first<SubscriptionRow>();
  if (!row) throw new AppError("conflict", ONLY_ACTIVE);
  return presentSubscription({ ...row, gifted_by_username: subscription.gifted_by_username });
}
