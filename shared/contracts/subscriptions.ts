/** The subscription API's shapes (plans, subscriptions) as the page receives them. Plain types and constants only. */

/** The billing periods of spec §9: weekly, monthly, yearly. */
export const PERIODS = ["week", "month", "year"] as const;

export type Period = (typeof PERIODS)[number];

/** Paid prices allowed for a plan: $4.99 to $1000 (free is 0). */
export const MIN_PAID_PRICE_CENTS = 499;
export const MAX_PRICE_CENTS = 100_000;
/** The price of one message to a creator: free (0) to $200, like a tip. */
export const MAX_MESSAGE_PRICE_CENTS = 20_000;

/** One period a creator offers. A price of 0 is a free subscription. */
export interface PlanView {
  period: Period;
  priceCents: number;
}

export type SubscriptionStatus = "active" | "cancelled" | "expired";

/** A subscription as its fan sees it (spec §6: plan, start date, renewal date, status). */
export interface SubscriptionView {
  id: number;
  period: Period;
  priceCents: number;
  status: SubscriptionStatus;
  startedAt: string;
  /** The renewal date while active; the end of the entitlement once cancelled. */
  currentPeriodEnd: string;
  cancelledAt: string | null;
  endedAt: string | null;
}

export interface SubscriptionListItem extends SubscriptionView {
  creator: { username: string; name: string; avatarUrl: string };
}

/** The two lists of Dashboard → Fans: live subscribers, and followers. */
export const FAN_KINDS = ["subscribers", "followers"] as const;

export type FanKind = (typeof FAN_KINDS)[number];

/** One of a creator's fans. `since`: when the subscription started or the follow was made; the plan only for subscribers. */
export interface FanView {
  userId: number;
  username: string;
  name: string;
  avatarUrl: string;
  since: string;
  period: Period | null;
  priceCents: number | null;
}

export interface FanPage {
  fans: FanView[];
  nextCursor: string | null;
}
