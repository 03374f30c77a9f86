import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { FollowStateSchema } from "@shared/contracts/profiles";
import { followUser } from "../../domain/follows/follow-user";
import { unfollowUser } from "../../domain/follows/unfollow-user";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, json, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

export const followRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

followRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/{username}/follow",
    tags: ["Follows"],
    summary: "Follow a user (idempotent; not yourself, not across a block)",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(FollowStateSchema, "Following"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await followUser(c.get("domain"), c.get("session").user.id, c.req.valid("param").username), 200),
);

followRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/users/{username}/follow",
    tags: ["Follows"],
    summary: "Stop following a user (idempotent)",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(FollowStateSchema, "Not following"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(await unfollowUser(c.get("domain"), c.get("session").user.id, c.req.valid("param").username), 200),
);
