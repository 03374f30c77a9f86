import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { PlansSchema, SubscriptionListSchema, SubscriptionSchema } from "@shared/contracts/subscriptions";
import { AppError } from "../../domain/shared/errors";
import { findVisibleUser, PROFILE_NOT_FOUND } from "../../domain/profiles/find-member";
import { cancelSubscription } from "../../domain/subscriptions/cancel-subscription";
import { listPlans } from "../../domain/subscriptions/plans";
import { listSubscriptions } from "../../domain/subscriptions/list-subscriptions";
import { setPlans } from "../../domain/subscriptions/set-plans";
import { subscribe } from "../../domain/subscriptions/subscribe";
import { SetPlansSchema, SubscribeSchema } from "@shared/contracts/subscription-bodies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 402: e402, 403: e403, 409: e409, 422: e422 } = errorResponses;

export const subscriptionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

subscriptionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/{username}/plans",
    tags: ["Subscriptions"],
    summary: "The subscription plans a creator offers (price 0: free)",
    request: { params: UsernameParams },
    responses: { 200: json(PlansSchema, "Plans, weekly to yearly"), 404: e404, 422: e422 },
  }),
  async (c) => {
    const creator = await findVisibleUser(
      c.get("domain").db,
      c.req.valid("param").username,
      c.get("session")?.user.id ?? null,
    );
    if (!creator) throw new AppError("not_found", PROFILE_NOT_FOUND);
    return c.json({ plans: creator.role === "creator" ? await listPlans(c.get("domain").db, creator.id) : [] }, 200);
  },
);

subscriptionRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/plans",
    tags: ["Subscriptions"],
    summary: "Set the caller's plans (creators): every period offered, with its price in cents; others are withdrawn",
    middleware: [requireSession] as const,
    request: { body: jsonBody(SetPlansSchema) },
    responses: { 200: json(PlansSchema, "The plans now offered"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json({ plans: await setPlans(c.get("domain").db, c.get("session").user, c.req.valid("json")) }, 200),
);

subscriptionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/{username}/subscribe",
    tags: ["Subscriptions"],
    summary:
      "Subscribe on a plan (a paid plan charges the wallet and needs an idempotency key); reactivates a cancelled subscription still running",
    middleware: [requireSession] as const,
    request: { params: UsernameParams, body: jsonBody(SubscribeSchema) },
    responses: {
      200: json(SubscriptionSchema, "The subscription"),
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
      await subscribe(c.get("domain"), c.get("session").user, c.req.valid("param").username, c.req.valid("json")),
      200,
    ),
);

subscriptionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/subscriptions/{id}/cancel",
    tags: ["Subscriptions"],
    summary: "Cancel: no renewal, still entitled until the end of the period",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(SubscriptionSchema, "The subscription"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(await cancelSubscription(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id), 200),
);

subscriptionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/subscriptions",
    tags: ["Subscriptions"],
    summary: "The caller's subscriptions, live ones first",
    middleware: [requireSession] as const,
    responses: { 200: json(SubscriptionListSchema, "Subscriptions"), 401: e401 },
  }),
  async (c) => c.json({ subscriptions: await listSubscriptions(c.get("domain").db, c.get("session").user.id) }, 200),
);
