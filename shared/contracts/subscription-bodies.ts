/**
 * The subscription API's request bodies (subscribing, a creator's plans), parsed by worker/api's routes and by the
 * page's form actions alike. Whether a plan is offered at the price the fan saw is the domain's to check.
 */
import { z } from "zod";
import { message } from "../messages";
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
  /** The plan's price the fan was shown; absent: shown free. Any other price than the plan's is refused. */
  priceCents: SeenPriceSchema.optional(),
  /** Required for a paid plan (checked by subscribe, which knows the price): one key per attempt. */
  idempotencyKey: IdempotencyKeySchema.optional(),
});
export type SubscribeInput = z.output<typeof SubscribeSchema>;

/** The same, from a page's form (its fields are text). */
export const SubscribeFormSchema = SubscribeSchema.extend({ priceCents: SeenPriceText.optional() });

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
