import { bundlePriceCents } from "@shared/offer-prices";
import type { Period } from "./periods";

/** A plan as a subscription holds it: a period, or a bundle of months of the monthly plan (period "month"). */
export interface PlanChoice {
  period: Period;
  bundleMonths: number | null;
}

export interface PlanPriceRow {
  plan_cents: number | null;
  discount_percent: number | null;
  monthly_cents: number | null;
}

/** What prices `plan` today at creator `creatorId`: its plan row, and for a bundle its discount and the monthly price. */
export const planPriceStatement = (db: D1Database, creatorId: number, plan: PlanChoice) =>
  db
    .prepare(
      `SELECT p.price_cents AS plan_cents, b.discount_percent, m.price_cents AS monthly_cents
       FROM (SELECT 1) AS one
       LEFT JOIN subscription_plans p ON p.creator_id = ?1 AND p.period = ?2
       LEFT JOIN subscription_bundles b ON b.creator_id = ?1 AND b.months = ?3
       LEFT JOIN subscription_plans m ON m.creator_id = ?1 AND m.period = 'month'`,
    )
    .bind(creatorId, plan.period, plan.bundleMonths ?? 0);

/** The plan's price today, or null when the creator does not offer it (a bundle needs a paid monthly plan). */
export function planPriceOf(row: PlanPriceRow | null, plan: PlanChoice): number | null {
  if (!row) return null;
  if (plan.bundleMonths === null) return row.plan_cents;
  if (plan.period !== "month" || row.discount_percent === null || !row.monthly_cents) return null;
  return bundlePriceCents(row.monthly_cents, row.discount_percent, plan.bundleMonths);
}

export const samePlan = (a: PlanChoice, b: PlanChoice) =>
  a.period === b.period && (a.bundleMonths ?? null) === (b.bundleMonths ?? null);
