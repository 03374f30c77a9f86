import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { MessageSchema } from "@shared/contracts/common";
import { blockUser, listBlockedUsers, unblockUser } from "../../domain/moderation/block-user";
import { createReport } from "../../domain/moderation/create-report";
import { BlockedUsersSchema, ReportBodySchema } from "@shared/contracts/moderation";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;
const e404 = { description: "No such post or user", content: errorResponses[422].content };

/** Reports and blocks: what any member can do about another member. */
export const moderationRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

moderationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/reports",
    tags: ["Moderation"],
    summary: "Report a post or a user; a repeat while the first is open answers 200 and adds nothing",
    middleware: [requireSession] as const,
    request: { body: jsonBody(ReportBodySchema) },
    responses: {
      201: json(MessageSchema, "Reported"),
      200: json(MessageSchema, "Already reported"),
      401: e401,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    const body = c.req.valid("json");
    const target =
      body.targetKind === "post"
        ? { kind: "post" as const, postId: body.targetId }
        : { kind: "user" as const, username: body.username };
    const { created } = await createReport(domain.db, session!.user.id, {
      target,
      reason: body.reason,
      description: body.description,
    });
    return created
      ? c.json({ message: domain.t("Thank you. Our team will review your report.") }, 201)
      : c.json({ message: domain.t("You have already reported this. Our team will review it.") }, 200);
  },
);

moderationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/{username}/block",
    tags: ["Moderation"],
    summary: "Block a user: follows both ways removed, live subscriptions between the two expired",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(MessageSchema, "Blocked"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    await blockUser(domain, session!.user.id, c.req.valid("param").username);
    return c.json({ message: domain.t("User blocked.") }, 200);
  },
);

moderationRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/users/{username}/block",
    tags: ["Moderation"],
    summary: "Unblock a user (nothing that the block ended comes back)",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(MessageSchema, "Unblocked"), 401: e401, 403: e403, 404: e404 },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    await unblockUser(domain.db, session!.user.id, c.req.valid("param").username);
    return c.json({ message: domain.t("User unblocked.") }, 200);
  },
);

moderationRoutes.openapi(
  createRoute({
    method: "get",
    path: "/blocks",
    tags: ["Moderation"],
    summary: "The users the caller blocks, newest first",
    middleware: [requireSession] as const,
    responses: {
      200: json(BlockedUsersSchema, "Blocked users"),
      401: e401,
    },
  }),
  async (c) => c.json({ users: await listBlockedUsers(c.get("domain").db, c.get("session").user.id) }, 200),
);
