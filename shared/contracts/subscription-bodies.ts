/**
 * The subscription API's request bodies (subscribing, a creator's plans), parsed by worker/api's routes and by the
 * page's form actions alike. Whether a plan is offered at the price the fan saw is the domain's to check.
 */
import { z } from "zod";
import { INVALID_VALUE, message } from "../messages";
import { bundleMonths } from "./offer-bodies";
import { IdempotencyKeySchema, SeenPriceSchema, SeenPriceText } from "./money-bodies";
import { MAX_MESSAGE_PRICE_CENTS, MAX_PRICE_CENTS, MIN_PAID_PRICE_CENTS, PERIODS } from "./subscription-constants";

export const PRICE_OUT_OF_RANGE = message(
  "A paid plan costs between {{min, money}} and {{max, money}}; 0 makes it free.",
  { min: MIN_PAID_PRICE_CENTS, max: MAX_PRICE_CENTS },
);
const MESSAGE_PRICE_OUT_OF_RANGE = message("A message costs at most {{max, money}}; 0 makes messages free.", {
  max: MAX_MESSAGE_PRICE_CENTS,
});

export const SubscribeSchema = z.object({
  period: z.enum(PERIODS, { message: message("Choose a subscription plan.") }),
  /** A bundle of the monthly plan: 3, 6 or 12 months paid at once (period "month"). */
  bundleMonths: bundleMonths.optional(),
  /**
   * What the fan was shown to pay now (the plan's, the bundle's or the promotion's price; 0 for a free trial);
   * absent: shown free. Any other price than the server's is refused.
   */
  priceCents: SeenPriceSchema.optional(),
  /** The promotion the fan claims, as shown on the profile: one that has ended is refused. */
  promotionId: z.number({ message: INVALID_VALUE }).int().positive().optional(),
  /** A free-trial link's code (`/{username}?trial=CODE`). */
  trialCode: z.string({ message: INVALID_VALUE }).max(64).optional(),
  /** Required for a paid plan (checked by subscribe, which knows the price): one key per attempt. */
  idempotencyKey: IdempotencyKeySchema.optional(),
});
export type SubscribeInput = z.output<typeof SubscribeSchema>;

/** The same, from a page's form (its fields are text). */
export const SubscribeFormSchema = SubscribeSchema.extend({
  priceCents: SeenPriceText.optional(),
  bundleMonths: z
    .enum(["3", "6", "12"], { message: message("A bundle is 3, 6 or 12 months.") })
    .transform((value) => Number(value) as 3 | 6 | 12)
    .optional(),
  promotionId: SeenPriceText.optional(),
});

const PlanInputSchema = z.object({
  period: z.enum(PERIODS),
  priceCents: z
    .number()
    .int()
    .refine((cents) => cents === 0 || (cents >= MIN_PAID_PRICE_CENTS && cents <= MAX_PRICE_CENTS), PRICE_OUT_OF_RANGE),
});

/** Every plan the creator offers; a period left out is no longer offered. The message price is optional. */
export const SetPlansSchema = z.object({
  messagePriceCents: z
    .number()
    .int()
    .min(0, MESSAGE_PRICE_OUT_OF_RANGE)
    .max(MAX_MESSAGE_PRICE_CENTS, MESSAGE_PRICE_OUT_OF_RANGE)
    .optional(),
  plans: z
    .array(PlanInputSchema)
    .max(PERIODS.length)
    .refine(
      (plans) => new Set(plans.map((plan) => plan.period)).size === plans.length,
      message("Each period can be offered once."),
    ),
});
export type SetPlansInput = z.output<typeof SetPlansSchema>;
