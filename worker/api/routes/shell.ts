import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { HomeSeenBodySchema, UpdatesSchema } from "@shared/contracts/session";
import { SuggestedProfilesSchema, UserSearchResultsSchema } from "@shared/contracts/profiles";
import { getUpdates, markHomeSeen } from "../../domain/updates/get-updates";
import { searchUsers } from "../../domain/search/search-users";
import { SEARCH_TERM_MAX } from "@shared/contracts/search-limits";
import { suggestProfiles } from "../../domain/search/suggest-profiles";
import { message } from "@shared/messages";
import { singleLineText } from "@shared/contracts/text";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422, 429: e429 } = errorResponses;

/** The three calls of spec §7 that the app shell makes (besides /me). */
export const shellRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

shellRoutes.openapi(
  createRoute({
    method: "get",
    path: "/updates",
    tags: ["Shell"],
    summary: "The sidebar indicators: Home dot, unread notifications and conversations, low balance",
    middleware: [requireSession] as const,
    responses: { 200: json(UpdatesSchema, "The updates summary"), 401: e401 },
  }),
  async (c) => c.json({ updates: await getUpdates(c.get("domain").db, c.get("session").user) }, 200),
);

shellRoutes.openapi(
  createRoute({
    method: "get",
    path: "/searchUsers",
    tags: ["Shell"],
    summary: "Users whose username or name starts with the term (prefix per word, any case), at most 10",
    request: {
      query: z.object({
        searchTerm: singleLineText()
          .trim()
          .min(1, message("Type something to search for."))
          .max(SEARCH_TERM_MAX, message("The search term is too long.")),
      }),
    },
    responses: { 200: json(UserSearchResultsSchema, "Matching users"), 422: e422, 429: e429 },
  }),
  async (c) => {
    return c.json(
      {
        results: {
          users: await searchUsers(c.get("domain"), c.get("session")?.user.id ?? null, c.req.valid("query").searchTerm),
        },
      },
      200,
    );
  },
);

shellRoutes.openapi(
  createRoute({
    method: "get",
    path: "/suggestedProfiles",
    tags: ["Shell"],
    summary: "Creators to follow: the most followed ones the user does not follow yet",
    responses: { 200: json(SuggestedProfilesSchema, "Suggestions; isExist is false when there are none") },
  }),
  async (c) => {
    const suggestedProfiles = await suggestProfiles(c.get("domain").db, c.get("session")?.user.id ?? null);
    return c.json({ isExist: suggestedProfiles.length > 0, suggestedProfiles }, 200);
  },
);

shellRoutes.openapi(
  createRoute({
    method: "post",
    path: "/home/seen",
    tags: ["Shell"],
    summary: "The user has seen their home feed: clears the Home dot",
    middleware: [requireSession] as const,
    request: { body: jsonBody(HomeSeenBodySchema) },
    responses: { 200: json(UpdatesSchema, "The updates summary after clearing"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => {
    const { db } = c.get("domain");
    const user = c.get("session").user;
    const seenAt = await markHomeSeen(db, user, c.req.valid("json").upTo);
    return c.json({ updates: await getUpdates(db, { ...user, home_seen_at: seenAt }) }, 200);
  },
);
