import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { MessageSchema } from "@shared/contracts/common";
import { PostPageSchema } from "@shared/contracts/posts";
import { ProfileBodySchema, ProfileSchema } from "@shared/contracts/profiles";
import { AppError } from "../../domain/shared/errors";
import { decodeCursor } from "../../domain/shared/cursor";
import { message } from "@shared/messages";
import { findVisibleUser, PROFILE_NOT_FOUND } from "../../domain/profiles/find-member";
import { getProfile } from "../../domain/profiles/get-profile";
import { listProfilePosts } from "../../domain/profiles/list-profile-posts";
import { updateProfile } from "../../domain/profiles/update-profile";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

const CURSOR_INVALID = message("This page link is no longer valid.");

export const profileRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

profileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/{username}",
    tags: ["Profiles"],
    summary: "A profile as the caller may see it, with its first page of posts",
    request: { params: UsernameParams },
    responses: { 200: json(ProfileSchema, "The profile"), 404: e404, 422: e422 },
  }),
  async (c) => {
    const profile = await getProfile(
      c.get("domain").db,
      c.req.valid("param").username,
      c.get("session")?.user.id ?? null,
    );
    if (!profile) throw new AppError("not_found", PROFILE_NOT_FOUND);
    return c.json(profile, 200);
  },
);

profileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/{username}/posts",
    tags: ["Profiles"],
    summary: "More of a profile's posts (tab posts) or of its posts with media (tab media), newest first",
    request: {
      params: UsernameParams,
      query: z.object({ tab: z.enum(["posts", "media"]).default("posts"), cursor: z.string().max(200).optional() }),
    },
    responses: { 200: json(PostPageSchema, "A page of posts"), 404: e404, 422: e422 },
  }),
  async (c) => {
    const { db } = c.get("domain");
    const viewerId = c.get("session")?.user.id ?? null;
    const { tab, cursor: rawCursor } = c.req.valid("query");
    const cursor = rawCursor ? decodeCursor(rawCursor) : null;
    if (rawCursor && !cursor) throw new AppError("validation", CURSOR_INVALID, { cursor: [CURSOR_INVALID] });
    const author = await findVisibleUser(db, c.req.valid("param").username, viewerId);
    if (!author) throw new AppError("not_found", PROFILE_NOT_FOUND);
    return c.json(await listProfilePosts(db, author.id, viewerId, tab, cursor), 200);
  },
);

profileRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/profile",
    tags: ["Profiles"],
    summary: "Edit the caller's name, bio, location and website",
    middleware: [requireSession] as const,
    request: { body: jsonBody(ProfileBodySchema) },
    responses: { 200: json(MessageSchema, "Saved"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => {
    await updateProfile(c.get("domain").db, c.get("session").user.id, c.req.valid("json"));
    return c.json({ message: c.get("domain").t("Your profile has been saved.") }, 200);
  },
);
