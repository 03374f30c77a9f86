import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { searchPosts } from "../../domain/search/search-posts";
import { SEARCH_TERM_MAX } from "@shared/contracts/search-limits";
import { message } from "@shared/messages";
import { singleLineText } from "@shared/contracts/text";
import type { AppEnv } from "../../http/types";
import { PostListSchema } from "@shared/contracts/posts";
import { errorResponses, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 422: e422, 429: e429 } = errorResponses;

export const searchRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

searchRoutes.openapi(
  createRoute({
    method: "get",
    path: "/search/posts",
    tags: ["Search"],
    summary:
      "Posts whose text has words starting with the term's words, best match first, at most 20, as the caller may see them",
    request: {
      query: z.object({
        q: singleLineText()
          .trim()
          .min(1, message("Type something to search for."))
          .max(SEARCH_TERM_MAX, message("The search term is too long.")),
      }),
    },
    responses: { 200: json(PostListSchema, "Matching posts"), 422: e422, 429: e429 },
  }),
  async (c) =>
    c.json(
      { posts: await searchPosts(c.get("domain"), c.get("session")?.user.id ?? null, c.req.valid("query").q) },
      200,
    ),
);
