import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { MessageSchema } from "@shared/contracts/common";
import { createMiddleware } from "hono/factory";
import type { MiddlewareHandler } from "hono";
import { decideCreatorRequest } from "../../domain/creators/decide-creator-request";
import { listPendingCreatorRequests } from "../../domain/creators/list-creator-requests";
import { listPayoutQueue } from "../../domain/money/list-payouts";
import { decidePayout } from "../../domain/money/withdrawals";
import { RejectPayoutSchema } from "@shared/contracts/money-bodies";
import { listOpenReports } from "../../domain/moderation/list-open-reports";
import { DecidedPayoutSchema, PayoutQueueSchema } from "@shared/contracts/money";
import {
  CreatorRejectionBodySchema,
  OpenReportsSchema,
  PendingCreatorRequestsSchema,
} from "@shared/contracts/moderation";
import { REPORT_ACTIONS, resolveReport } from "../../domain/moderation/resolve-report";
import { AppError } from "../../domain/shared/errors";
import { message } from "@shared/messages";
import { errorResponse } from "../../http/errors";
import type { AppEnv, SignedInEnv } from "../../http/types";
import { errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 403: e403, 409: e409, 422: e422 } = errorResponses;
const e404 = { description: "Not an admin, or no such pending item", content: errorResponses[422].content };

/**
 * The admin area does not exist for anyone else: visitors and members get the same 404 as an unknown path. It
 * guards every /admin path; a route that reads the admin's session names it too, for the session's type.
 */
const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("session")?.user.role !== "admin")
    return errorResponse(c, new AppError("not_found", message("Not found.")));
  return next();
}) as unknown as MiddlewareHandler<SignedInEnv>;

/** /api/admin: the creator requests queue and the reports queue, the payouts queue. */
export const adminRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
adminRoutes.use("/admin/*", requireAdmin);

adminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/creatorRequests",
    tags: ["Admin"],
    summary: "Pending creator requests, oldest first, with their ID images",
    responses: { 200: json(PendingCreatorRequestsSchema, "The queue"), 404: e404 },
  }),
  async (c) => c.json({ requests: await listPendingCreatorRequests(c.get("domain").db) }, 200),
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/creatorRequests/{id}/approve",
    tags: ["Admin"],
    summary: "Approve: the member becomes a creator (monetization on, a free monthly plan); ID images deleted",
    request: { params: IdParams },
    responses: { 200: json(MessageSchema, "Approved and notified"), 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    await decideCreatorRequest(domain, session!.user.id, c.req.valid("param").id, { status: "approved" });
    return c.json({ message: domain.t("The request was approved.") }, 200);
  },
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/creatorRequests/{id}/reject",
    tags: ["Admin"],
    summary: "Reject with a reason the member is told; ID images deleted",
    request: {
      params: IdParams,
      body: jsonBody(CreatorRejectionBodySchema),
    },
    responses: { 200: json(MessageSchema, "Rejected and notified"), 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    await decideCreatorRequest(domain, session!.user.id, c.req.valid("param").id, {
      status: "rejected",
      reason: c.req.valid("json").reason,
    });
    return c.json({ message: domain.t("The request was rejected.") }, 200);
  },
);

adminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/reports",
    tags: ["Admin"],
    summary: "Open reports, oldest first, with their target",
    responses: { 200: json(OpenReportsSchema, "The queue"), 404: e404 },
  }),
  async (c) => c.json({ reports: await listOpenReports(c.get("domain").db) }, 200),
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/reports/{id}/{action}",
    tags: ["Admin"],
    summary: "Resolve a report: dismiss, removeContent (deletes a reported post) or suspendUser",
    request: { params: IdParams.extend({ action: z.enum(REPORT_ACTIONS) }) },
    responses: { 200: json(MessageSchema, "Resolved"), 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    const { id, action } = c.req.valid("param");
    await resolveReport(domain, session!.user.id, id, action);
    return c.json({ message: domain.t("The report was handled.") }, 200);
  },
);

adminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/payouts",
    tags: ["Admin"],
    summary: "Requested payouts, oldest first, with the creator and the full payout method",
    responses: { 200: json(PayoutQueueSchema, "The queue"), 404: e404 },
  }),
  async (c) => c.json({ payouts: await listPayoutQueue(c.get("domain").db) }, 200),
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/payouts/{id}/paid",
    tags: ["Admin"],
    middleware: [requireAdmin] as const,
    summary: "Mark a requested payout paid: the money leaves through the provider; the creator is notified",
    request: { params: IdParams },
    responses: { 200: json(DecidedPayoutSchema, "Paid"), 404: e404, 409: e409, 422: e422 },
  }),
  async (c) =>
    c.json(
      {
        payout: await decidePayout(c.get("domain"), c.get("session").user, c.req.valid("param").id, {
          decision: "paid",
        }),
      },
      200,
    ),
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/payouts/{id}/reject",
    tags: ["Admin"],
    middleware: [requireAdmin] as const,
    summary: "Reject a requested payout with a reason: the money returns to the creator's available earnings",
    request: { params: IdParams, body: jsonBody(RejectPayoutSchema) },
    responses: { 200: json(DecidedPayoutSchema, "Rejected"), 404: e404, 409: e409, 422: e422 },
  }),
  async (c) => {
    const input = { decision: "rejected" as const, ...c.req.valid("json") };
    return c.json(
      { payout: await decidePayout(c.get("domain"), c.get("session").user, c.req.valid("param").id, input) },
      200,
    );
  },
);
