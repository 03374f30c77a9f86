/**
 * The answers about a creator's offers: what a fan may claim on a profile (bundles, the running promotion, a trial
 * link) and what the creator sees on Dashboard → Promotions, each offer with its figures. Written by
 * worker/domain/offers, documented by worker/api. The page imports types only from here.
 */
import { z } from "zod";
import { orNull } from "./common";
import { BUNDLE_MONTHS, PROMOTION_AUDIENCES } from "./offer-constants";

// A union of literals, not z.literal(BUNDLE_MONTHS): the OpenAPI document would name only its first value.
const months = z.union([z.literal(BUNDLE_MONTHS[0]), z.literal(BUNDLE_MONTHS[1]), z.literal(BUNDLE_MONTHS[2])]);

/** A bundle: `months` months of the monthly plan paid at once, `discountPercent` off; `priceCents` is the total. */
export const BundleSchema = z
  .object({ months, discountPercent: z.number().int(), priceCents: z.number().int() })
  .meta({ id: "Bundle" });
export type BundleView = z.infer<typeof BundleSchema>;

/** The promotion a viewer may claim on a profile (the one for new fans, for a visitor). */
export const PromotionOfferSchema = z
  .object({
    id: z.number().int(),
    percentOff: z.number().int(),
    trialDays: z.number().int().nullable().meta({ description: "At 100% off: the free days, then the plan's price" }),
    periods: z.number().int().meta({ description: "How many periods the promotion's price holds" }),
    endsAt: z.string(),
    claimsLeft: z.number().int().nullable().meta({ description: "Null: no claim limit" }),
  })
  .meta({ id: "PromotionOffer" });
export type PromotionOffer = z.infer<typeof PromotionOfferSchema>;

/** A trial link this viewer may use: `days` free, then the chosen plan (the profile page's loader data). */
export interface TrialOffer {
  code: string;
  days: number;
  endsAt: string;
}

/** The creator's retention offer, as the fan cancelling sees it. */
const RetentionOfferSchema = z
  .object({ id: z.number().int(), percentOff: z.number().int(), periods: z.number().int() })
  .meta({ id: "RetentionOffer" });
export type RetentionOffer = z.infer<typeof RetentionOfferSchema>;

export const RetentionOfferAnswerSchema = z
  .object({ offer: orNull(RetentionOfferSchema) })
  .meta({ id: "RetentionOfferAnswer" });

/** What an offer brought, read from the claims and the ledger's payments. */
const OfferFiguresSchema = z.object({
  claims: z.number().int(),
  stillSubscribed: z.number().int().meta({ description: "Fans who claimed it and are still subscribed (active)" }),
  revenueCents: z
    .number()
    .int()
    .meta({ description: "What the claimed subscriptions have paid since the claim, gross, in cents" }),
});

const PromotionSchema = OfferFiguresSchema.extend({
  id: z.number().int(),
  percentOff: z.number().int(),
  trialDays: z.number().int().nullable(),
  audience: z.enum(PROMOTION_AUDIENCES),
  periods: z.number().int(),
  claimLimit: z.number().int().nullable(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
  running: z.boolean(),
  createdAt: z.string(),
}).meta({ id: "Promotion" });
export type PromotionView = z.infer<typeof PromotionSchema>;

const TrialLinkSchema = OfferFiguresSchema.extend({
  id: z.number().int(),
  code: z.string(),
  days: z.number().int(),
  claimLimit: z.number().int().nullable(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
  running: z.boolean(),
  createdAt: z.string(),
}).meta({ id: "TrialLink" });
export type TrialLinkView = z.infer<typeof TrialLinkSchema>;

const RetentionSettingSchema = OfferFiguresSchema.extend({
  id: z.number().int(),
  percentOff: z.number().int(),
  periods: z.number().int(),
}).meta({ id: "RetentionSetting" });
export type RetentionSettingView = z.infer<typeof RetentionSettingSchema>;

/** Dashboard → Promotions: every promotion and trial link (running first), the retention offer when on. */
export const CreatorOffersSchema = z
  .object({
    promotions: z.array(PromotionSchema),
    trialLinks: z.array(TrialLinkSchema),
    retention: orNull(RetentionSettingSchema),
  })
  .meta({ id: "CreatorOffers" });
export type CreatorOffers = z.infer<typeof CreatorOffersSchema>;

/** A gift made: who it is for, how long, and until when their subscription now runs. */
export const GiftAnswerSchema = z
  .object({ recipient: z.string(), months: z.number().int(), endsAt: z.string() })
  .meta({ id: "GiftAnswer" });
export type GiftAnswer = z.infer<typeof GiftAnswerSchema>;

/** A creator's bundles (PUT /me/bundles). */
export const BundlesAnswerSchema = z.object({ bundles: z.array(BundleSchema) }).meta({ id: "Bundles" });
