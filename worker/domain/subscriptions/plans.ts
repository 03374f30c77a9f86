import { PERIODS, type Period } from "./periods";
import type { PlanView } from "@shared/contracts/subscriptions";
export { type PlanView };

export interface PlanRow {
  period: Period;
  price_cents: number;
}

export const plansStatement = (db: D1Database, creatorId: number) =>
  db.prepare("SELECT period, price_cents FROM subscription_plans WHERE creator_id = ?").bind(creatorId);

/** Weekly before monthly before yearly. */
export const presentPlans = (rows: PlanRow[]): PlanView[] =>
  rows
    .map((row) => ({ period: row.period, priceCents: row.price_cents }))
    .sort((a, b) => PERIODS.indexOf(a.period) - PERIODS.indexOf(b.period));

/** The plans a creator offers. */
export async function listPlans(db: D1Database, creatorId: number): Promise<PlanView[]> {
  const { results } = await plansStatement(db, creatorId).all<PlanRow>();
  return presentPlans(results);
}
