import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import {
  CreateStoryBodySchema,
  HighlightReelSchema,
  HighlightsSchema,
  HighlightTitlesSchema,
  KeepStoryBodySchema,
  StoriesBarSchema,
  StoryKeptSchema,
  StoryLikeBodySchema,
  StoryLikedSchema,
  StoryReelSchema,
  StorySchema,
  StoryViewersPageSchema,
} from "@shared/contracts/stories";
import {
  deleteHighlight,
  getHighlightReel,
  keepStoryInHighlight,
  listHighlights,
  listOwnHighlightTitles,
  removeStoryFromHighlight,
} from "../../domain/stories/highlights";
import {
  createStory,
  deleteStory,
  getStoryReel,
  listStoriesBar,
  listStoryViewers,
  markStorySeen,
  setStoryLike,
} from "../../domain/stories/stories";
import { findVisibleUser, PROFILE_NOT_FOUND } from "../../domain/profiles/find-member";
import { AppError } from "../../domain/shared/errors";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { cursorQuery, e404, errorResponses, IdParams, json, jsonBody, UsernameParams } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

export const storyRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

storyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/stories",
    tags: ["Stories"],
    summary: "The stories bar: one's own stories, then followed creators with stories one may see, unseen first",
    middleware: [requireSession] as const,
    responses: {
      200: json(StoriesBarSchema, "The bar"),
      401: e401,
    },
  }),
  async (c) => c.json({ creators: await listStoriesBar(c.get("domain").db, c.get("session").user) }, 200),
);

storyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/stories",
    tags: ["Stories"],
    summary:
      "Post a story (creators): an uploaded photo or video of up to 60 s (purpose story), text and audience; it lives 24 hours",
    middleware: [requireSession] as const,
    request: { body: jsonBody(CreateStoryBodySchema) },
    responses: { 201: json(StorySchema, "The story"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await createStory(c.get("domain"), c.get("session").user, c.req.valid("json")), 201),
);

storyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/stories/users/{username}",
    tags: ["Stories"],
    summary: "A creator's stories the caller may see, oldest first (404 when there are none)",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: { 200: json(StoryReelSchema, "The stories"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(await getStoryReel(c.get("domain").db, c.get("session").user, c.req.valid("param").username), 200),
);

storyRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/stories/{id}",
    tags: ["Stories"],
    summary: "Delete one's own story and its file",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => {
    await deleteStory(c.get("domain"), c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

storyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/stories/{id}/view",
    tags: ["Stories"],
    summary: "Mark a story seen (once per person, however often)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Seen" }, 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => {
    await markStorySeen(c.get("domain").db, c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

storyRoutes.openapi(
  createRoute({
    method: "put",
    path: "/stories/{id}/like",
    tags: ["Stories"],
    summary: "Like or unlike a story",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(StoryLikeBodySchema) },
    responses: { 200: json(StoryLikedSchema, "The like"), 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      await setStoryLike(c.get("domain").db, c.get("session").user, c.req.valid("param").id, c.req.valid("json").liked),
      200,
    ),
);

storyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/stories/{id}/viewers",
    tags: ["Stories"],
    summary: "Who saw one's own story, newest first, and who liked it (the creator only)",
    middleware: [requireSession] as const,
    request: { params: IdParams, query: z.object({ cursor: cursorQuery("cursor") }) },
    responses: {
      200: json(StoryViewersPageSchema, "The viewers"),
      401: e401,
      404: e404,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await listStoryViewers(
        c.get("domain").db,
        c.get("session").user,
        c.req.valid("param").id,
        c.req.valid("query").cursor,
      ),
      200,
    ),
);

storyRoutes.openapi(
  createRoute({
    method: "put",
    path: "/stories/{id}/highlight",
    tags: ["Stories"],
    summary: "Keep one's story in a highlight (an existing one, or a new one with a title): it stays on the profile",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(KeepStoryBodySchema) },
    responses: { 200: json(StoryKeptSchema, "Kept"), 401: e401, 404: e404, 422: e422 },
  }),
  async (c) =>
    c.json(
      await keepStoryInHighlight(
        c.get("domain").db,
        c.get("session").user,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
);

storyRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/stories/{id}/highlight",
    tags: ["Stories"],
    summary: "Take one's story out of its highlight (past 24 hours it is then deleted)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Removed" }, 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => {
    await removeStoryFromHighlight(c.get("domain").db, c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

storyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/{username}/highlights",
    tags: ["Stories"],
    summary: "A creator's highlights, each with the stories in it the caller may see",
    middleware: [requireSession] as const,
    request: { params: UsernameParams },
    responses: {
      200: json(HighlightsSchema, "The highlights"),
      401: e401,
      404: e404,
      422: e422,
    },
  }),
  async (c) => {
    const user = await findVisibleUser(c.get("domain").db, c.req.valid("param").username, c.get("session").user.id);
    if (!user) throw new AppError("not_found", PROFILE_NOT_FOUND);
    return c.json({ highlights: await listHighlights(c.get("domain").db, c.get("session").user, user.id) }, 200);
  },
);

storyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/highlights",
    tags: ["Stories"],
    summary: "One's own highlights by title (to add a story to one)",
    middleware: [requireSession] as const,
    responses: {
      200: json(HighlightTitlesSchema, "The titles"),
      401: e401,
    },
  }),
  async (c) => c.json({ highlights: await listOwnHighlightTitles(c.get("domain").db, c.get("session").user) }, 200),
);

storyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/highlights/{id}",
    tags: ["Stories"],
    summary: "A highlight's stories the caller may see, oldest first (404 when none)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: {
      200: json(HighlightReelSchema, "The stories"),
      401: e401,
      404: e404,
      422: e422,
    },
  }),
  async (c) => c.json(await getHighlightReel(c.get("domain").db, c.get("session").user, c.req.valid("param").id), 200),
);

storyRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/highlights/{id}",
    tags: ["Stories"],
    summary: "Delete one's highlight; its stories stay until their 24 hours are over",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 401: e401, 404: e404, 422: e422 },
  }),
  async (c) => {
    await deleteHighlight(c.get("domain").db, c.get("session").user, c.req.valid("param").id);
    return c.body(null, 204);
  },
);
