/**
 * The bounds of a creator's offers (bundles, promotions, trial links, the retention offer, gifts), as plain values
 * the page loads too. docs/decisions/subscription-offers.md says why these.
 */

/** Bundles: 3, 6 or 12 months paid at once, each at its own discount on the monthly price. */
export const BUNDLE_MONTHS = [3, 6, 12] as const;
export type BundleMonths = (typeof BUNDLE_MONTHS)[number];
export const MIN_BUNDLE_DISCOUNT = 5;
export const MAX_BUNDLE_DISCOUNT = 50;

/** Promotions: 5–100% off (100%: a free trial of 1–30 days), holding for 1–12 periods. */
export const MIN_PROMOTION_PERCENT = 5;
export const MAX_PROMOTION_PERCENT = 100;
export const MIN_TRIAL_DAYS = 1;
export const MAX_TRIAL_DAYS = 30;
export const MAX_OFFER_PERIODS = 12;
/** Who a promotion is for: fans who never subscribed, fans whose subscription ended, or both. */
export const PROMOTION_AUDIENCES = ["new", "expired", "both"] as const;
export type PromotionAudience = (typeof PROMOTION_AUDIENCES)[number];
/** A claim limit, when there is one: 1 to 100,000 fans. */
export const MAX_CLAIM_LIMIT = 100_000;
/** A promotion or trial link ends at most a year after it is made. */
export const MAX_OFFER_DAYS = 366;

/** The retention offer shown on cancelling: 5–90% off the next 1–12 renewals. */
export const MIN_RETENTION_PERCENT = 5;
export const MAX_RETENTION_PERCENT = 90;

/** Gifts: 1, 3, 6 or 12 months of the monthly plan. */
export const GIFT_MONTHS = [1, 3, 6, 12] as const;
export type GiftMonths = (typeof GIFT_MONTHS)[number];

/** A trial link's code: what follows `?trial=` in `/{username}?trial=CODE`. */
export const TRIAL_CODE_PATTERN = /^[a-z0-9-]{4,32}$/;
