import type { BundleView, PromotionOffer, TrialOffer } from "@shared/contracts/offers";
import type { BundleMonths } from "@shared/contracts/offer-constants";
import type { Period } from "@shared/contracts/subscription-constants";
import type { PlanView } from "@shared/contracts/subscriptions";
import { bundleSavingsCents, discountedCents } from "@shared/offer-prices";

/**
 * What a fan may choose on a creator's profile, and what each choice costs now and later, from the plans, the
 * bundles, the running promotion and a trial link as the profile gives them. The same arithmetic as the server
 * (shared/offer-prices.ts), which computes every price again and refuses one that differs from what was shown.
 */

/** A plan the fan may choose: plain (week, month, year) or a bundle of months of the monthly plan. */
export interface PlanChoice {
  /** Tells the choices apart: the period, and a bundle's months ("month", "month-3"). */
  key: string;
  period: Period;
  bundleMonths: BundleMonths | null;
  /** The plan's regular price: what each renewal costs once any offer is over (a bundle's total). */
  regularCents: number;
  /** What confirming charges now (0 for a free plan or a free trial). */
  nowCents: number;
  /** The free days before the first charge (a trial link, or a promotion at 100% off); null when none. */
  freeDays: number | null;
  /** How many charges (the first and the renewals after it) the promotion's price holds: 0 without one. */
  discountedCharges: number;
  /** What a bundle saves against paying its months one at a time (0 for a plain plan). */
  savingsCents: number;
  /** The promotion this choice claims, if any. */
  promotionId: number | null;
}

export const choiceKey = (period: Period, bundleMonths: number | null) =>
  bundleMonths ? `${period}-${bundleMonths}` : period;

/**
 * Every plain plan, then every bundle. With a trial link, only paid plans (a free plan needs no trial), each free
 * for the trial's days; otherwise the promotion applies to the paid plain plans, never to bundles.
 */
export function planChoices(
  plans: readonly PlanView[],
  bundles: readonly BundleView[],
  promotion: PromotionOffer | null,
  trial: TrialOffer | null = null,
): PlanChoice[] {
  const plain = plans
    .filter((plan) => !trial || plan.priceCents > 0)
    .map((plan): PlanChoice => {
      const base = {
        key: choiceKey(plan.period, null),
        period: plan.period,
        bundleMonths: null,
        regularCents: plan.priceCents,
        savingsCents: 0,
      };
      if (trial) return { ...base, nowCents: 0, freeDays: trial.days, discountedCharges: 0, promotionId: null };
      if (!promotion || plan.priceCents === 0)
        return { ...base, nowCents: plan.priceCents, freeDays: null, discountedCharges: 0, promotionId: null };
      if (promotion.percentOff >= 100)
        return { ...base, nowCents: 0, freeDays: promotion.trialDays, discountedCharges: 0, promotionId: promotion.id };
      return {
        ...base,
        nowCents: discountedCents(plan.priceCents, promotion.percentOff),
        freeDays: null,
        discountedCharges: promotion.periods,
        promotionId: promotion.id,
      };
    });
  const monthly = plans.find((plan) => plan.period === "month");
  const bundled =
    monthly && monthly.priceCents > 0
      ? bundles.map((bundle): PlanChoice => ({
          key: choiceKey("month", bundle.months),
          period: "month",
          bundleMonths: bundle.months,
          regularCents: bundle.priceCents,
          nowCents: trial ? 0 : bundle.priceCents,
          freeDays: trial ? trial.days : null,
          discountedCharges: 0,
          savingsCents: bundleSavingsCents(monthly.priceCents, bundle.discountPercent, bundle.months),
          promotionId: null,
        }))
      : [];
  return [...plain, ...bundled];
}

/** What the Subscribe button says: free, the cheapest paid plan's price, or the promotion on it. */
export type ButtonOffer =
  | { kind: "free" }
  | { kind: "paid"; period: Period; priceCents: number }
  | {
      kind: "promotion";
      period: Period;
      priceCents: number;
      regularCents: number;
      endsAt: string;
      claimsLeft: number | null;
    }
  | { kind: "trial"; days: number; period: Period; regularCents: number; endsAt: string; claimsLeft: number | null };

/** The Subscribe button's offer: null without plans; "free" when the cheapest plan is free. */
export function buttonOffer(plans: readonly PlanView[], promotion: PromotionOffer | null): ButtonOffer | null {
  const cheapest = plans.reduce<PlanView | null>(
    (best, plan) => (best === null || plan.priceCents < best.priceCents ? plan : best),
    null,
  );
  if (!cheapest) return null;
  if (cheapest.priceCents === 0) return { kind: "free" };
  if (!promotion) return { kind: "paid", period: cheapest.period, priceCents: cheapest.priceCents };
  const ending = { endsAt: promotion.endsAt, claimsLeft: promotion.claimsLeft };
  if (promotion.percentOff >= 100 && promotion.trialDays)
    return {
      kind: "trial",
      days: promotion.trialDays,
      period: cheapest.period,
      regularCents: cheapest.priceCents,
      ...ending,
    };
  return {
    kind: "promotion",
    period: cheapest.period,
    priceCents: discountedCents(cheapest.priceCents, promotion.percentOff),
    regularCents: cheapest.priceCents,
    ...ending,
  };
}

/**
 * How long until `endsAt`, to the nearest whole unit (days from a day on, hours from an hour, else minutes, at
 * least 1): "ends in 2 days" rather than a date, as promotions say it.
 */
export function timeLeft(endsAt: string, now: number): { value: number; unit: "day" | "hour" | "minute" } {
  const minutes = Math.max(1, Math.ceil((Date.parse(endsAt) - now) / 60_000));
  if (minutes >= 24 * 60) return { value: Math.round(minutes / (24 * 60)), unit: "day" };
  if (minutes >= 60) return { value: Math.round(minutes / 60), unit: "hour" };
  return { value: minutes, unit: "minute" };
}
