import { message } from "../shared/messages";
import { PERIODS, type Period } from "./periods";
import type { PlanView } from "@shared/contracts/subscriptions";
export { type PlanView };

/** Paid prices allowed for a plan: $4.99 to $1000 (free is 0). */
export const MIN_PAID_PRICE_CENTS = 499;
export const MAX_PRICE_CENTS = 100_000;
export const PRICE_OUT_OF_RANGE = message("A paid plan costs between $4.99 and $1000; 0 makes it free.");

/** The price of one message to a creator: free (0) to $200, like a tip. */
export const MAX_MESSAGE_PRICE_CENTS = 20_000;
export const MESSAGE_PRICE_OUT_OF_RANGE = message("A message costs at most $200; 0 makes messages free.");

export interface PlanRow {
  period: Period;
  price_cents: number;
}

export const plansStatement = (db: D1Database, creatorId: number) =>
  db.prepare("SELECT period, price_cents FROM subscription_plans WHERE creator_id = ?").bind(creatorId);

/** Weekly before monthly before yearly. */
export const presentPlans = (rows: PlanRow[]): PlanView[] =>
  rows.map((row) => ({ period: row.period, priceCents: row.price_cents })).sort((a, b) => PERIODS.indexOf(a.period) - PERIODS.indexOf(b.period));

/** The plans a creator offers. */
export async function listPlans(db: D1Database, creatorId: number): Promise<PlanView[]> {
  const { results } = await plansStatement(db, creatorId).all<PlanRow>();
  return presentPlans(results);
}
