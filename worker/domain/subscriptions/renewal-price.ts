import { discountedCents } from "@shared/offer-prices";
import { addPlanPeriod, type Period } from "./periods";
import { planPriceOf, type PlanChoice, type PlanPriceRow } from "./plan-prices";

/** A due subscription as the renewal job reads it: the row, and what prices its next plan today. */
export interface DueSubscription extends PlanPriceRow {
  id: number;
  fan_id: number;
  creator_id: number;
  period: Period;
  bundle_months: number | null;
  price_cents: number;
  current_period_end: string;
  trial_ends_at: string | null;
  offer_id: number | null;
  offer_percent: number;
  offer_renewals_left: number;
  next_period: Period | null;
  next_bundle_months: number | null;
  next_price_cents: number | null;
  /** 1 while the creator is still a creator and neither of the two is hidden (suspended or leaving). */
  creator_ok: number;
}

export interface Renewal {
  /** The plan of the next period: a plan change takes over here. */
  plan: PlanChoice;
  /** The plan's regular price from now on: the lower of the one agreed and today's. */
  regularCents: number;
  /** What this renewal charges: the regular price, less the offer's discount while it holds. */
  chargeCents: number;
  nextEnd: string;
  /** The offer's discounted renewals left after this one. */
  renewalsLeft: number;
  /** The offer that priced this charge (a discounted renewal, or a free trial turning paid), for the payment. */
  pricedBy: number | null;
  /** The end of a free trial: its failure is told as the trial's. */
  trialEnding: boolean;
}

/**
 * The next period of a due subscription, or null when the creator no longer offers its plan (or is no longer an
 * active creator). A price never rises on an existing subscriber: the lower of the agreed and today's is charged.
 */
export function renewalOf(row: DueSubscription): Renewal | null {
  const changing = row.next_period !== null;
  const plan: PlanChoice = changing
    ? { period: row.next_period!, bundleMonths: row.next_bundle_months }
    : { period: row.period, bundleMonths: row.bundle_months };
  const today = row.creator_ok ? planPriceOf(row, plan) : null;
  if (today === null) return null;
  const agreed = changing ? (row.next_price_cents ?? today) : row.price_cents;
  const regularCents = Math.min(agreed, today);
  const discounted = row.offer_renewals_left > 0;
  const trialEnding = row.trial_ends_at !== null && row.trial_ends_at === row.current_period_end;
  return {
    plan,
    regularCents,
    chargeCents: discounted ? discountedCents(regularCents, row.offer_percent) : regularCents,
    nextEnd: addPlanPeriod(row.current_period_end, plan),
    renewalsLeft: discounted ? row.offer_renewals_left - 1 : 0,
    pricedBy: discounted || trialEnding ? row.offer_id : null,
    trialEnding,
  };
}
