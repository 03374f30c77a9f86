/**
 * The subscription API's answers (plans, subscriptions, a creator's fans): written by worker/domain/subscriptions,
 * documented by worker/api, checked by the page (app/components/dashboard/dashboard-shapes.ts, generated from these
 * schemas). The page imports types only from here; its constants are in subscription-constants.ts.
 */
import { z } from "zod";
import { PERIODS } from "./subscription-constants";

/** One period a creator offers. A price of 0 is a free subscription. */
export const PlanSchema = z.object({ period: z.enum(PERIODS), priceCents: z.number().int() }).meta({ id: "Plan" });
export type PlanView = z.infer<typeof PlanSchema>;

/** A creator's plans, weekly to yearly. */
export const PlansSchema = z.object({ plans: z.array(PlanSchema) }).meta({ id: "Plans" });

const SUBSCRIPTION_STATUSES = ["active", "cancelled", "expired"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A subscription as its fan sees it (spec §6: plan, start date, renewal date, status). */
export const SubscriptionSchema = z
  .object({
    id: z.number().int(),
    period: z.enum(PERIODS),
    priceCents: z.number().int().meta({ description: "The plan's regular price; an offer's discount is offerPercent" }),
    status: z.enum(SUBSCRIPTION_STATUSES),
    startedAt: z.string(),
    currentPeriodEnd: z
      .string()
      .meta({ description: "Renewal date while active; end of the entitlement once cancelled" }),
    cancelledAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    bundleMonths: z
      .number()
      .int()
      .nullable()
      .meta({ description: "3, 6 or 12 when paid as a bundle of months (period is then month)" }),
    trialEndsAt: z.string().nullable().meta({ description: "The end of the free trial the subscription began with" }),
    giftedBy: z
      .string()
      .nullable()
      .meta({ description: "The username of the member who gave it: a gift ends at its date unless resumed" }),
    offerPercent: z.number().int().meta({ description: "The offer's discount on the renewals still discounted" }),
    offerRenewalsLeft: z.number().int().meta({ description: "How many more renewals the offer's discount holds" }),
    nextPlan: z
      .object({ period: z.enum(PERIODS), bundleMonths: z.number().int().nullable(), priceCents: z.number().int() })
      .nullable()
      .meta({ description: "The plan chosen to take over at the next renewal" }),
  })
  .meta({ id: "Subscription" });
export type SubscriptionView = z.infer<typeof SubscriptionSchema>;

const SubscriptionListItemSchema = SubscriptionSchema.extend({
  creator: z.object({ username: z.string(), name: z.string(), avatarUrl: z.string() }),
}).meta({ id: "SubscriptionListItem" });
export type SubscriptionListItem = z.infer<typeof SubscriptionListItemSchema>;

/** The caller's subscriptions, live ones first. */
export const SubscriptionListSchema = z
  .object({ subscriptions: z.array(SubscriptionListItemSchema) })
  .meta({ id: "SubscriptionList" });

/** One of a creator's fans: a subscriber with their plan, or a follower. */
const FanSchema = z
  .object({
    userId: z.number().int(),
    username: z.string(),
    name: z.string(),
    avatarUrl: z.string(),
    since: z.string().meta({ description: "When the subscription started, or when the follow was made" }),
    period: z.enum(PERIODS).nullable().meta({ description: "The subscription's period; null for followers" }),
    priceCents: z.number().int().nullable().meta({ description: "The subscription's price; null for followers" }),
    bundleMonths: z
      .number()
      .int()
      .nullable()
      .meta({ description: "3, 6 or 12 when the subscription is a bundle of months; null otherwise" }),
  })
  .meta({ id: "Fan" });
export type FanView = z.infer<typeof FanSchema>;

/** A keyset page of Dashboard → Fans. */
export const FanPageSchema = z
  .object({
    fans: z.array(FanSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass back as `cursor` for the next page; null at the end" }),
  })
  .meta({ id: "FanPage" });
export type FanPage = z.infer<typeof FanPageSchema>;
