/**
 * The request bodies of offers: a creator's bundles, promotions, trial links and retention offer; a fan's gift,
 * plan change and acceptance of the retention offer. Parsed by worker/api's routes and the pages' form actions.
 */
import { z } from "zod";
import { INVALID_VALUE, message } from "../messages";
import { IdempotencyKeySchema, SeenPriceSchema } from "./money-bodies";
import {
  BUNDLE_MONTHS,
  GIFT_MONTHS,
  MAX_BUNDLE_DISCOUNT,
  MAX_CLAIM_LIMIT,
  MAX_OFFER_PERIODS,
  MAX_PROMOTION_PERCENT,
  MAX_RETENTION_PERCENT,
  MAX_TRIAL_DAYS,
  MIN_BUNDLE_DISCOUNT,
  MIN_PROMOTION_PERCENT,
  MIN_RETENTION_PERCENT,
  MIN_TRIAL_DAYS,
  PROMOTION_AUDIENCES,
  TRIAL_CODE_PATTERN,
} from "./offer-constants";
import { PERIODS } from "./subscription-constants";

const whole = (min: number, max: number, text: string) =>
  z.number({ message: INVALID_VALUE }).int({ message: INVALID_VALUE }).min(min, text).max(max, text);

export const BUNDLE_DISCOUNT_RANGE = message("A bundle's discount is between {{min}}% and {{max}}%.", {
  min: MIN_BUNDLE_DISCOUNT,
  max: MAX_BUNDLE_DISCOUNT,
});
const PROMOTION_PERCENT_RANGE = message("A promotion takes {{min}}% to {{max}}% off.", {
  min: MIN_PROMOTION_PERCENT,
  max: MAX_PROMOTION_PERCENT,
});
const TRIAL_DAYS_RANGE = message("A free trial lasts {{min}} to {{max}} days.", {
  min: MIN_TRIAL_DAYS,
  max: MAX_TRIAL_DAYS,
});
const PERIODS_RANGE = message("The price can hold for 1 to {{max}} periods.", { max: MAX_OFFER_PERIODS });
const CLAIM_LIMIT_RANGE = message("A claim limit is between 1 and {{max}}.", { max: MAX_CLAIM_LIMIT });
const RETENTION_PERCENT_RANGE = message("A retention offer takes {{min}}% to {{max}}% off.", {
  min: MIN_RETENTION_PERCENT,
  max: MAX_RETENTION_PERCENT,
});
export const TRIAL_DAYS_NEEDED = message("At 100% off, choose how many days the free trial lasts.");
const TRIAL_CODE_FORMAT = message("A link's code is 4 to 32 lowercase letters, digits or dashes.");
const END_DATE_FORMAT = message("Choose an end date.");

const bundleMonths = z.literal(BUNDLE_MONTHS, { message: message("A bundle is 3, 6 or 12 months.") });
const endsAt = z.iso.datetime({ offset: true, message: END_DATE_FORMAT });
const claimLimit = whole(1, MAX_CLAIM_LIMIT, CLAIM_LIMIT_RANGE).nullable().optional();

/** Dashboard → Plans: the bundles offered (a length left out is withdrawn). Needs a paid monthly plan. */
export const BundlesSchema = z.object({
  bundles: z
    .array(
      z.object({
        months: bundleMonths,
        discountPercent: whole(MIN_BUNDLE_DISCOUNT, MAX_BUNDLE_DISCOUNT, BUNDLE_DISCOUNT_RANGE),
      }),
    )
    .max(BUNDLE_MONTHS.length)
    .refine(
      (bundles) => new Set(bundles.map((bundle) => bundle.months)).size === bundles.length,
      message("Each bundle length can be offered once."),
    ),
});
export type BundlesInput = z.output<typeof BundlesSchema>;

/** A new promotion. The end date must be in the future (checked by the command, which knows the time). */
export const PromotionSchema = z
  .object({
    percentOff: whole(MIN_PROMOTION_PERCENT, MAX_PROMOTION_PERCENT, PROMOTION_PERCENT_RANGE),
    trialDays: whole(MIN_TRIAL_DAYS, MAX_TRIAL_DAYS, TRIAL_DAYS_RANGE).nullable().optional(),
    audience: z.enum(PROMOTION_AUDIENCES, { message: message("Choose who the promotion is for.") }),
    periods: whole(1, MAX_OFFER_PERIODS, PERIODS_RANGE).default(1),
    claimLimit,
    endsAt,
  })
  .superRefine((input, context) => {
    if (input.percentOff === 100 && !input.trialDays)
      context.addIssue({ code: "custom", path: ["trialDays"], message: TRIAL_DAYS_NEEDED });
  });
export type PromotionInput = z.output<typeof PromotionSchema>;

/** A new free-trial link; without a code, one is made up. */
export const TrialLinkSchema = z.object({
  days: whole(MIN_TRIAL_DAYS, MAX_TRIAL_DAYS, TRIAL_DAYS_RANGE),
  claimLimit,
  endsAt,
  code: z.string({ message: TRIAL_CODE_FORMAT }).regex(TRIAL_CODE_PATTERN, TRIAL_CODE_FORMAT).optional(),
});
export type TrialLinkInput = z.output<typeof TrialLinkSchema>;

/** The retention offer: on with its terms, or off. */
export const RetentionSchema = z.discriminatedUnion("active", [
  z.object({
    active: z.literal(true),
    percentOff: whole(MIN_RETENTION_PERCENT, MAX_RETENTION_PERCENT, RETENTION_PERCENT_RANGE),
    periods: whole(1, MAX_OFFER_PERIODS, PERIODS_RANGE),
  }),
  z.object({ active: z.literal(false) }),
]);
export type RetentionInput = z.output<typeof RetentionSchema>;

/** A plan, plain or a bundle (period "month" with `bundleMonths`). */
const planChoice = {
  period: z.enum(PERIODS, { message: message("Choose a subscription plan.") }),
  bundleMonths: bundleMonths.optional(),
};

/** A fan's plan change: from the next renewal; `priceCents` is the price shown for the new plan. */
export const ChangePlanSchema = z.object({ ...planChoice, priceCents: SeenPriceSchema });
export type ChangePlanInput = z.output<typeof ChangePlanSchema>;

/** Taking the retention offer shown on cancelling. */
export const RetainSchema = z.object({ offerId: z.number({ message: INVALID_VALUE }).int().positive() });

/** A gift of the creator's monthly plan to another member; `priceCents` is the total shown. */
export const GiftSchema = z.object({
  to: z
    .string({ message: message("Enter the username of the member you give it to.") })
    .min(1)
    .max(64),
  months: z.literal(GIFT_MONTHS, { message: message("A gift is 1, 3, 6 or 12 months.") }),
  priceCents: SeenPriceSchema,
  idempotencyKey: IdempotencyKeySchema,
});
export type GiftInput = z.output<typeof GiftSchema>;
