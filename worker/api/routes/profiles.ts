import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { ProfilePermissionsSchema } from "@shared/contracts/posts";
import { AppError } from "../../domain/shared/errors";
import { decodeCursor } from "../../domain/shared/cursor";
import { message } from "../../domain/shared/messages";
import { findVisibleUser, PROFILE_NOT_FOUND } from "../../domain/profiles/find-member";
import { getProfile } from "../../domain/profiles/get-profile";
import { listProfilePosts } from "../../domain/profiles/list-profile-posts";
import { ProfileInputSchema, updateProfile } from "../../domain/profiles/update-profile";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import {
  e404,
  errorResponses,
  json,
  jsonBody,
  MessageSchema,
  PlanSchema,
  PostPageSchema,
  SubscriptionSchema,
  UsernameParams,
} from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

const ProfileSchema = PostPageSchema.extend({
  userId: z.number().int(),
  username: z.string(),
  name: z.string(),
  bio: z.string(),
  location: z.string(),
  website: z.string(),
  avatarUrl: z.string(),
  coverUrl: z.string(),
  isCreator: z.boolean(),
  isOwn: z.boolean(),
  available: z.boolean().openapi({ description: "false across a block: only name and avatar" }),
  viewer: ProfilePermissionsSchema,
  postCount: z.number().int(),
  mediaCount: z.number().int(),
  likeCount: z.number().int(),
  followerCount: z.number().int().nullable().openapi({ description: "The owner only" }),
  following: z.boolean(),
  subscription: SubscriptionSchema.nullable(),
  plans: z.array(PlanSchema),
  messagePriceCents: z
    .number()
    .int()
    .openapi({ description: "What a fan pays to send this creator a message, in cents (0: free)" }),
}).openapi("Profile");

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
    const author = await findVisibleUser(db, c.req.valid("param").username);
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
    request: { body: jsonBody(ProfileInputSchema) },
    responses: { 200: json(MessageSchema, "Saved"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => {
    await updateProfile(c.get("domain").db, c.get("session").user.id, c.req.valid("json"));
    return c.json({ message: c.get("domain").t("Your profile has been saved.") }, 200);
  },
);
