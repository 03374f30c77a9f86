import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import {
  CurrentPayoutMethodSchema,
  EarningsOverviewSchema,
  PayoutPageSchema,
  SavedPayoutMethodSchema,
  WithdrawalResultSchema,
} from "@shared/contracts/money";
import { earningsOverview } from "../../domain/money/earnings-overview";
import { listPayouts } from "../../domain/money/list-payouts";
import { getPayoutMethod, setPayoutMethod } from "../../domain/money/payout-methods";
import { requestWithdrawal } from "../../domain/money/withdrawals";
import { PayoutMethodSchema, WithdrawalSchema } from "@shared/contracts/money-bodies";
import { AppError } from "../../domain/shared/errors";
import { message } from "@shared/messages";
import { errorResponse } from "../../http/errors";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, idCursorQuery, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 422: e422 } = errorResponses;

/** The dashboard is a creator's: members get a 403 (they can become one), visitors a 401. */
const requireCreator = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("session")?.user.role !== "creator")
    return errorResponse(c, new AppError("forbidden", message("Only creators have a dashboard.")));
  return next();
});

/** /api/dashboard/earnings, /api/payouts, /api/me/payout-method: a creator's side of the money. */
export const earningsRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

earningsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dashboard/earnings",
    tags: ["Money"],
    summary: "Earnings today, over 7 and 30 days by source, the 30 days for a chart, pending and available balances",
    middleware: [requireSession, requireCreator] as const,
    responses: { 200: json(EarningsOverviewSchema, "The overview"), 401: e401, 403: e403 },
  }),
  async (c) =>
    c.json(
      await earningsOverview(c.get("domain").db, c.get("session").user.id, c.get("domain").config.PLATFORM_FEE_PERCENT),
      200,
    ),
);

earningsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/payouts",
    tags: ["Money"],
    summary: "The creator's payouts, newest first (keyset pages)",
    middleware: [requireSession, requireCreator] as const,
    request: { query: idCursorQuery("cursor") },
    responses: {
      200: json(PayoutPageSchema, "A page"),
      401: e401,
      403: e403,
      422: e422,
    },
  }),
  async (c) =>
    c.json(await listPayouts(c.get("domain").db, c.get("session").user.id, c.req.valid("query").cursor ?? null), 200),
);

earningsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/payouts",
    tags: ["Money"],
    summary:
      "Request a withdrawal of available earnings (at least $50, one open at a time); needs the password and an idempotency key",
    middleware: [requireSession, requireCreator] as const,
    request: { body: jsonBody(WithdrawalSchema) },
    responses: {
      200: json(WithdrawalResultSchema, "The request"),
      401: e401,
      403: e403,
      409: e409,
      422: e422,
    },
  }),
  async (c) => c.json(await requestWithdrawal(c.get("domain"), c.get("session").user, c.req.valid("json")), 200),
);

earningsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/payout-method",
    tags: ["Money"],
    summary: "The creator's payout method, masked (null when none is set)",
    middleware: [requireSession, requireCreator] as const,
    responses: {
      200: json(CurrentPayoutMethodSchema, "The method"),
      401: e401,
      403: e403,
    },
  }),
  async (c) => c.json({ method: await getPayoutMethod(c.get("domain").db, c.get("session").user.id) }, 200),
);

earningsRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/payout-method",
    tags: ["Money"],
    summary: "Set the payout method: PayPal (address typed twice) or bank transfer; needs the password",
    middleware: [requireSession, requireCreator] as const,
    request: { body: jsonBody(PayoutMethodSchema) },
    responses: { 200: json(SavedPayoutMethodSchema, "Saved"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) =>
    c.json({ method: await setPayoutMethod(c.get("domain"), c.get("session").user, c.req.valid("json")) }, 200),
);
