import { message } from "@shared/messages";
import { PERIODS, type Period } from "./periods";
import type { PlanView } from "@shared/contracts/subscriptions";
export { type PlanView };

import {
  MAX_MESSAGE_PRICE_CENTS,
  MAX_PRICE_CENTS,
  MIN_PAID_PRICE_CENTS,
} from "@shared/contracts/subscription-constants";
export { MAX_MESSAGE_PRICE_CENTS, MAX_PRICE_CENTS, MIN_PAID_PRICE_CENTS };

export const PRICE_OUT_OF_RANGE = message(
  "A paid plan costs between {{min, money}} and {{max, money}}; 0 makes it free.",
  { min: MIN_PAID_PRICE_CENTS, max: MAX_PRICE_CENTS },
);
export const MESSAGE_PRICE_OUT_OF_RANGE = message("A message costs at most {{max, money}}; 0 makes messages free.", {
  max: MAX_MESSAGE_PRICE_CENTS,
});

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
