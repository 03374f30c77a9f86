import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import {
  BundlesSchema,
  ChangePlanSchema,
  GiftSchema,
  PromotionSchema,
  RetainSchema,
  RetentionSchema,
  TrialLinkSchema,
} from "@shared/contracts/offer-bodies";
import {
  BundlesAnswerSchema,
  CreatorOffersSchema,
  GiftAnswerSchema,
  RetentionOfferAnswerSchema,
} from "@shared/contracts/offers";
import { SubscriptionSchema } from "@shared/contracts/subscriptions";
import { setBundles } from "../../domain/offers/bundles";
import {
  createPromotion,
  createTrialLink,
  endOffer,
  getCreatorOffers,
  setRetentionOffer,
} from "../../domain/offers/creator-offers";
import { retentionOfferFor } from "../../domain/offers/fan-offers";
import { changePlan } from "../../domain/subscriptions/change-plan";
import { giftSubscription } from "../../domain/subscriptions/gift-subscription";
import { acceptRetentionOffer } from "../../domain/subscriptions/retain-subscription";
import { AppError } from "../../domain/shared/errors";
import { message } from "@shared/messages";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 402: e402, 403: e403, 409: e409, 422: e422 } = errorResponses;

/** Bundles, promotions, trial links and the retention offer (creators); gifts, plan changes and retention (fans). */
export const offerRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

const creatorOnly = (role: string) => {
  if (role !== "creator") throw new AppError("forbidden", message("Only creators can make offers."));
};

offerRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/bundles",
    tags: ["Offers"],
    summary: "Set the caller's bundles of the monthly plan (creators): each length offered, with its discount",
    middleware: [requireSession] as const,
    request: { body: jsonBody(BundlesSchema) },
    responses: { 200: json(BundlesAnswerSchema, "The bundles now offered"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) =>
    c.json({ bundles: await setBundles(c.get("domain").db, c.get("session").user, c.req.valid("json")) }, 200),
);

offerRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/offers",
    tags: ["Offers"],
    summary: "The caller's promotions, trial links and retention offer, with claims, fans still subscribed and revenue",
    middleware: [requireSession] as const,
    responses: { 200: json(CreatorOffersSchema, "Offers"), 401: e401, 403: e403 },
  }),
  async (c) => {
    const { user } = c.get("session");
    creatorOnly(user.role);
    return c.json(await getCreatorOffers(c.get("domain").db, user.id), 200);
  },
);

offerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/promotions",
    tags: ["Offers"],
    summary: "Start a promotion: percent off (100%: a free trial) for new fans, expired fans or both",
    middleware: [requireSession] as const,
    request: { body: jsonBody(PromotionSchema) },
    responses: { 200: json(CreatorOffersSchema, "Offers"), 401: e401, 403: e403, 409: e409, 422: e422 },
  }),
  async (c) => c.json(await createPromotion(c.get("domain").db, c.get("session").user, c.req.valid("json")), 200),
);

offerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/trial-links",
    tags: ["Offers"],
    summary: "Make a free-trial link: /{username}?trial=CODE gives new fans some days free",
    middleware: [requireSession] as const,
    request: { body: jsonBody(TrialLinkSchema) },
    responses: { 200: json(CreatorOffersSchema, "Offers"), 401: e401, 403: e403, 409: e409, 422: e422 },
  }),
  async (c) => c.json(await createTrialLink(c.get("domain").db, c.get("session").user, c.req.valid("json")), 200),
);

offerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/offers/{id}/end",
    tags: ["Offers"],
    summary: "End a promotion or trial link now",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(CreatorOffersSchema, "Offers"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await endOffer(c.get("domain").db, c.get("session").user, c.req.valid("param").id), 200),
);

offerRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/retention-offer",
    tags: ["Offers"],
    summary: "Turn the retention offer (shown to a fan cancelling) on with its terms, or off",
    middleware: [requireSession] as const,
    request: { body: jsonBody(RetentionSchema) },
    responses: { 200: json(CreatorOffersSchema, "Offers"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await setRetentionOffer(c.get("domain").db, c.get("session").user, c.req.valid("json")), 200),
);

offerRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscriptions/{id}/retention-offer",
    tags: ["Offers"],
    summary: "The creator's retention offer, when the caller's subscription may take it (asked before cancelling)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(RetentionOfferAnswerSchema, "The offer, or null"), 401: e401, 422: e422 },
  }),
  async (c) =>
    c.json(
      { offer: await retentionOfferFor(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id) },
      200,
    ),
);

offerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/subscriptions/{id}/retain",
    tags: ["Offers"],
    summary: "Take the retention offer instead of cancelling: the next renewals are discounted",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(RetainSchema) },
    responses: { 200: json(SubscriptionSchema, "The subscription"), 401: e401, 404: e404, 409: e409, 422: e422 },
  }),
  async (c) =>
    c.json(
      await acceptRetentionOffer(
        c.get("domain").db,
        c.get("session").user.id,
        c.req.valid("param").id,
        c.req.valid("json").offerId,
      ),
      200,
    ),
);

offerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/subscriptions/{id}/plan",
    tags: ["Offers"],
    summary: "Change plan from the next renewal (no charge now); the current plan again undoes a change",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(ChangePlanSchema) },
    responses: { 200: json(SubscriptionSchema, "The subscription"), 401: e401, 404: e404, 409: e409, 422: e422 },
  }),
  async (c) =>
    c.json(
      await changePlan(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);

offerRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/{username}/gift",
    tags: ["Offers"],
    summary: "Give another member 1, 3, 6 or 12 months of this creator, paid from the caller's wallet; never renews",
    middleware: [requireSession] as const,
    request: { params: UsernameParams, body: jsonBody(GiftSchema) },
    responses: {
      200: json(GiftAnswerSchema, "The gift"),
      401: e401,
      402: e402,
      403: e403,
      404: e404,
      409: e409,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await giftSubscription(
        c.get("domain"),
        c.get("session").user,
        c.req.valid("param").username,
        c.req.valid("json"),
      ),
      200,
    ),
);
