import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { bookmarkPost, unbookmarkPost } from "../../domain/interactions/bookmark-post";
import { addComment } from "../../domain/interactions/add-comment";
import { deleteComment } from "../../domain/interactions/delete-comment";
import { listComments } from "../../domain/interactions/list-comments";
import { likePost, unlikePost } from "../../domain/interactions/like-post";
import { listBookmarks } from "../../domain/interactions/list-bookmarks";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { cursorQuery, errorResponses, idCursorQuery, IdParams, json, jsonBody } from "../schemas";
import {
  BookmarkStateSchema,
  CommentAnswerSchema,
  CommentBodySchema,
  CommentPageSchema,
  DeletedCommentSchema,
  LikeStateSchema,
  PostPageSchema,
} from "@shared/contracts/posts";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;
const e404 = { ...errorResponses[403], description: "Not found, or not visible to the caller" };

/** Likes, bookmarks and comments. A post the caller cannot see is 404; one they cannot open, 403 for a like or comment. */
export const interactionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

for (const [method, summary] of [
  ["post", "Like a post (the post must be open to the caller)"],
  ["delete", "Take a like back"],
] as const) {
  interactionRoutes.openapi(
    createRoute({
      method,
      path: "/posts/{id}/like",
      tags: ["Interactions"],
      summary,
      middleware: [requireSession] as const,
      request: { params: IdParams },
      responses: {
        200: json(LikeStateSchema, "The like and the post's like count"),
        401: e401,
        403: e403,
        404: e404,
        422: e422,
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const viewerId = c.get("session").user.id;
      return c.json(
        method === "post"
          ? await likePost(c.get("domain"), viewerId, id)
          : await unlikePost(c.get("domain").db, viewerId, id),
        200,
      );
    },
  );
}

for (const [method, summary] of [
  ["post", "Bookmark a visible post"],
  ["delete", "Remove a bookmark"],
] as const) {
  interactionRoutes.openapi(
    createRoute({
      method,
      path: "/posts/{id}/bookmark",
      tags: ["Interactions"],
      summary,
      middleware: [requireSession] as const,
      request: { params: IdParams },
      responses: {
        200: json(BookmarkStateSchema, "Whether the post is bookmarked now"),
        401: e401,
        403: e403,
        404: e404,
        422: e422,
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const viewerId = c.get("session").user.id;
      return c.json(
        method === "post"
          ? await bookmarkPost(c.get("domain").db, viewerId, id)
          : await unbookmarkPost(c.get("domain").db, viewerId, id),
        200,
      );
    },
  );
}

interactionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/bookmarks",
    tags: ["Interactions"],
    summary: "The caller's bookmarked posts, most recently saved first, 20 a page",
    middleware: [requireSession] as const,
    request: { query: z.object({ cursor: cursorQuery("cursor") }) },
    responses: { 200: json(PostPageSchema, "A page of bookmarks"), 401: e401, 422: e422 },
  }),
  async (c) =>
    c.json(await listBookmarks(c.get("domain").db, c.get("session").user.id, c.req.valid("query").cursor), 200),
);

interactionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/posts/{id}/comments",
    tags: ["Interactions"],
    summary: "Comments of a post open to the caller, oldest first, 20 a page (cursor: the last comment id shown)",
    request: { params: IdParams, query: idCursorQuery("cursor") },
    responses: {
      200: json(CommentPageSchema, "A page of comments"),
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await listComments(
        c.get("domain").db,
        c.req.valid("param").id,
        c.get("session")?.user.id ?? null,
        c.req.valid("query").cursor ?? null,
      ),
      200,
    ),
);

interactionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/posts/{id}/comments",
    tags: ["Interactions"],
    summary:
      "Comment on a post open to the caller; the post's author is notified. A clientId sent again answers 200 with the first comment",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(CommentBodySchema) },
    responses: {
      201: json(CommentAnswerSchema, "The new comment"),
      200: json(CommentAnswerSchema, "The comment stored earlier with this clientId"),
      401: e401,
      403: e403,
      404: e404,
      409: errorResponses[409],
      422: e422,
    },
  }),
  async (c) => {
    const { text, clientId } = c.req.valid("json");
    const { comment, replayed } = await addComment(
      c.get("domain"),
      c.get("session").user.id,
      c.req.valid("param").id,
      text,
      clientId ?? null,
    );
    return replayed ? c.json({ comment }, 200) : c.json({ comment }, 201);
  },
);

interactionRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/comments/{id}",
    tags: ["Interactions"],
    summary: "Delete a comment: its author, or the author of the post it is on",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: {
      200: json(DeletedCommentSchema, "Deleted"),
      401: e401,
      403: e403,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    await deleteComment(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id);
    return c.json({ deleted: true as const }, 200);
  },
);
