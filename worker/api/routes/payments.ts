import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { PaymentResultSchema, WalletSchema } from "@shared/contracts/money";
import { purchasePost } from "../../domain/money/purchase-post";
import { readWallet } from "../../domain/money/screens";
import { sendTip } from "../../domain/money/send-tip";
import { PurchaseSchema, TipSchema } from "@shared/contracts/money-bodies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, idCursorQuery, IdParams, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 402: e402, 403: e403, 409: e409, 422: e422 } = errorResponses;

export const paymentRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

paymentRoutes.openapi(
  createRoute({
    method: "get",
    path: "/wallet",
    tags: ["Money"],
    summary: "The caller's wallet balance and the first page of their payments, newest first",
    middleware: [requireSession] as const,
    request: { query: idCursorQuery("cursor") },
    responses: {
      200: json(WalletSchema, "Balance and payments"),
      401: e401,
      422: e422,
    },
  }),
  async (c) => {
    const { balanceCents, payments, nextCursor } = await readWallet(c.get("domain").db, c.get("session").user.id, {
      before: c.req.valid("query").cursor ?? null,
    });
    return c.json({ balanceCents, payments, nextCursor }, 200);
  },
);

paymentRoutes.openapi(
  createRoute({
    method: "post",
    path: "/posts/{id}/tips",
    tags: ["Money"],
    summary: "Tip the author of a post from the wallet (amount in cents, optional message); needs an idempotency key",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(TipSchema) },
    responses: {
      200: json(PaymentResultSchema, "The tip's payment"),
      401: e401,
      402: e402,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await sendTip(c.get("domain"), c.get("session").user, { postId: c.req.valid("param").id }, c.req.valid("json")),
      200,
    ),
);

paymentRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/{username}/tips",
    tags: ["Money"],
    summary: "Tip a creator from their profile; needs an idempotency key",
    middleware: [requireSession] as const,
    request: { params: UsernameParams, body: jsonBody(TipSchema) },
    responses: {
      200: json(PaymentResultSchema, "The tip's payment"),
      401: e401,
      402: e402,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await sendTip(
        c.get("domain"),
        c.get("session").user,
        { username: c.req.valid("param").username },
        c.req.valid("json"),
      ),
      200,
    ),
);

paymentRoutes.openapi(
  createRoute({
    method: "post",
    path: "/posts/{id}/purchase",
    tags: ["Money"],
    summary: "Buy a paid post from the wallet at the price shown (priceCents); needs an idempotency key",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(PurchaseSchema) },
    responses: {
      200: json(PaymentResultSchema, "The purchase's payment"),
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
      await purchasePost(c.get("domain"), c.get("session").user, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);
