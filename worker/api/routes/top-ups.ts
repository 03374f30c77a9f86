import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { TopUpPaymentSchema, TopUpStartSchema } from "@shared/contracts/money";
import { presentPayment } from "../../domain/money/payments";
import { confirmSandboxTopUp, findOwnTopUp, payWithSandboxCard } from "../../domain/money/sandbox-top-up";
import { startTopUp } from "../../domain/money/start-top-up";
import { CardSchema, TopUpDecisionSchema, TopUpSchema } from "@shared/contracts/money-bodies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 422: e422 } = errorResponses;

const PaymentResult = json(TopUpPaymentSchema, "The top-up as it stands");

export const topUpRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

topUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/wallet/top-ups",
    tags: ["Money"],
    summary: "Start a wallet top-up (amount in cents, $5–$1,000); go to redirectUrl to pay. Needs an idempotency key",
    middleware: [requireSession] as const,
    request: { body: jsonBody(TopUpSchema) },
    responses: {
      200: json(TopUpStartSchema, "The pending top-up and where to pay it"),
      401: e401,
      403: e403,
      409: e409,
      422: e422,
    },
  }),
  async (c) => c.json(await startTopUp(c.get("domain"), c.get("session").user, c.req.valid("json")), 200),
);

topUpRoutes.openapi(
  createRoute({
    method: "get",
    path: "/wallet/top-ups/{id}",
    tags: ["Money"],
    summary: "One of the caller's top-ups: its status and, when it failed, why",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: PaymentResult, 401: e401, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      {
        payment: presentPayment(
          await findOwnTopUp(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id),
        ),
      },
      200,
    ),
);

topUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/wallet/top-ups/{id}/card",
    tags: ["Money"],
    summary: "Sandbox only (never in production): pay a pending top-up with a test card",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(CardSchema) },
    responses: { 200: PaymentResult, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      {
        payment: presentPayment(
          await payWithSandboxCard(
            c.get("domain"),
            c.get("session").user.id,
            c.req.valid("param").id,
            c.req.valid("json"),
          ),
        ),
      },
      200,
    ),
);

topUpRoutes.openapi(
  createRoute({
    method: "post",
    path: "/wallet/top-ups/{id}/confirmation",
    tags: ["Money"],
    summary: "Sandbox only: confirm or cancel a top-up whose test card asked for confirmation",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(TopUpDecisionSchema) },
    responses: { 200: PaymentResult, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      {
        payment: presentPayment(
          await confirmSandboxTopUp(
            c.get("domain"),
            c.get("session").user.id,
            c.req.valid("param").id,
            c.req.valid("json").decision,
          ),
        ),
      },
      200,
    ),
);
