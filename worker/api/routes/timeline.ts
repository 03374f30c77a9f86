import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getPost } from "../../domain/posts/get-post";
import { AppError } from "../../domain/shared/errors";
import { POST_NOT_FOUND } from "../../domain/policies/posts";
import { getNewerPosts, getTimeline } from "../../domain/timeline/get-timeline";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { PostListSchema, PostPageSchema, PostSchema } from "@shared/contracts/posts";
import { cursorQuery, errorResponses, IdParams, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 422: e422 } = errorResponses;
const e404 = { ...errorResponses[403], description: "Not found, or not visible to the caller" };

export const timelineRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

timelineRoutes.openapi(
  createRoute({
    method: "get",
    path: "/timeline",
    tags: ["Timeline"],
    summary: "The caller's home timeline, newest first, 20 posts a page (own posts and followed creators')",
    middleware: [requireSession] as const,
    request: { query: z.object({ cursor: cursorQuery("cursor") }) },
    responses: { 200: json(PostPageSchema, "A page; nextCursor is null on the last one"), 401: e401, 422: e422 },
  }),
  async (c) => c.json(await getTimeline(c.get("domain").db, c.get("session").user, c.req.valid("query").cursor), 200),
);

timelineRoutes.openapi(
  createRoute({
    method: "get",
    path: "/timeline/new",
    tags: ["Timeline"],
    summary: "Posts of the timeline published after the cursor `after` (the newest post the client has), newest first",
    middleware: [requireSession] as const,
    request: { query: z.object({ after: cursorQuery("after") }) },
    responses: { 200: json(PostListSchema, "The pending new posts"), 401: e401, 422: e422 },
  }),
  async (c) => {
    const { db } = c.get("domain");
    const viewer = c.get("session").user;
    const after = c.req.valid("query").after;
    return c.json(
      { posts: after ? await getNewerPosts(db, viewer.id, after) : (await getTimeline(db, viewer, null)).posts },
      200,
    );
  },
);

timelineRoutes.openapi(
  createRoute({
    method: "get",
    path: "/posts/{id}",
    tags: ["Posts"],
    summary: "One post as the caller may see it (locked: text and blurred previews only)",
    description:
      "Answers the bare Post object, as every call that answers one post does (POST /posts, PATCH /posts/{id}, POST /posts/{id}/publish).",
    request: { params: IdParams },
    responses: { 200: json(PostSchema, "The post"), 404: e404, 422: e422 },
  }),
  async (c) => {
    const post = await getPost(c.get("domain").db, c.req.valid("param").id, c.get("session")?.user.id ?? null);
    if (!post) throw new AppError("not_found", POST_NOT_FOUND);
    return c.json(post, 200);
  },
);
