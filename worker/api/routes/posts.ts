import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import {
  CreatePostBodySchema,
  DeletedPostSchema,
  PostPageSchema,
  PostSchema,
  ProcessingPostPageSchema,
  UpdatePostBodySchema,
} from "@shared/contracts/posts";
import { createPost } from "../../domain/posts/create-post";
import { deletePost } from "../../domain/posts/delete-post";
import { listProcessingPosts, listScheduledPosts } from "../../domain/posts/list-own-posts";
import { publishPostNow } from "../../domain/posts/publish-post-now";
import { updatePost } from "../../domain/posts/update-post";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, idCursorQuery, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;
const e404 = { description: "No such post of yours", content: errorResponses[422].content };

const CursorQuery = z.object({ cursor: z.string().min(1).max(200).optional() });

/** The composer and the author's own post screens (/scheduled, /processing). */
export const postRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

postRoutes.openapi(
  createRoute({
    method: "get",
    path: "/posts/scheduled",
    tags: ["Posts"],
    summary: "The author's scheduled posts, soonest first, 20 at a time",
    middleware: [requireSession] as const,
    request: { query: CursorQuery },
    responses: { 200: json(PostPageSchema, "A page of scheduled posts"), 401: e401, 422: e422 },
  }),
  async (c) =>
    c.json(
      await listScheduledPosts(c.get("domain").db, c.get("session").user.id, c.req.valid("query").cursor ?? null),
      200,
    ),
);

postRoutes.openapi(
  createRoute({
    method: "get",
    path: "/posts/processing",
    tags: ["Posts"],
    summary: "The author's posts whose media are still uploading or being processed, newest first",
    middleware: [requireSession] as const,
    request: { query: idCursorQuery("cursor") },
    responses: { 200: json(ProcessingPostPageSchema, "A page of processing posts"), 401: e401, 422: e422 },
  }),
  async (c) =>
    c.json(
      await listProcessingPosts(c.get("domain").db, c.get("session").user.id, c.req.valid("query").cursor ?? null),
      200,
    ),
);

postRoutes.openapi(
  createRoute({
    method: "post",
    path: "/posts",
    tags: ["Posts"],
    summary: "Publish now, schedule, or (media still uploading) hold a post until its uploads complete. Creators only.",
    description:
      "Answers the bare Post object, as every call that answers one post does (GET and PATCH /posts/{id}, POST /posts/{id}/publish).",
    middleware: [requireSession] as const,
    request: { body: jsonBody(CreatePostBodySchema) },
    responses: { 201: json(PostSchema, "The new post"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await createPost(c.get("domain"), c.get("session").user, c.req.valid("json")), 201),
);

postRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/posts/{id}",
    tags: ["Posts"],
    summary: "Edit an own post (text, audience, price; the time until it is published)",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(UpdatePostBodySchema) },
    responses: { 200: json(PostSchema, "The post after the edit"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      await updatePost(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
);

postRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/posts/{id}",
    tags: ["Posts"],
    summary: "Delete an own post and its media",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: {
      200: json(DeletedPostSchema, "Deleted"),
      401: e401,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    await deletePost(c.get("domain"), c.get("session").user.id, id);
    return c.json({ deleted: id }, 200);
  },
);

postRoutes.openapi(
  createRoute({
    method: "post",
    path: "/posts/{id}/publish",
    tags: ["Posts"],
    summary: "Publish a scheduled post now",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(PostSchema, "The published post"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => c.json(await publishPostNow(c.get("domain"), c.get("session").user.id, c.req.valid("param").id), 200),
);
