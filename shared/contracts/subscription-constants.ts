/**
 * The subscription API's plain constants, which the page loads as values (subscriptions.ts holds the answers'
 * schemas, which the page may import as types only: a value import would bring zod into its bundle).
 */

/** The billing periods of spec §9: weekly, monthly, yearly. */
export const PERIODS = ["week", "month", "year"] as const;

export type Period = (typeof PERIODS)[number];

/** Paid prices allowed for a plan: $4.99 to $1000 (free is 0). */
export const MIN_PAID_PRICE_CENTS = 499;
export const MAX_PRICE_CENTS = 100_000;
/** The price of one message to a creator: free (0) to $200, like a tip. */
export const MAX_MESSAGE_PRICE_CENTS = 20_000;

/** The two lists of Dashboard → Fans: live subscribers, and followers. */
export const FAN_KINDS = ["subscribers", "followers"] as const;

export type FanKind = (typeof FAN_KINDS)[number];
