import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { FAN_KINDS } from "@shared/contracts/subscription-constants";
import { FanPageSchema } from "@shared/contracts/subscriptions";
import { listFans } from "../../domain/subscriptions/list-fans";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { cursorQuery, errorResponses, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** GET /api/me/fans: Dashboard → Fans, the creator's subscribers or followers. */
export const fanRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

fanRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/fans",
    tags: ["Subscriptions"],
    summary:
      "The creator's live subscribers (default) or followers, newest first (keyset pages); suspended and blocked members are left out",
    middleware: [requireSession] as const,
    request: { query: z.object({ kind: z.enum(FAN_KINDS).default("subscribers"), cursor: cursorQuery("cursor") }) },
    responses: {
      200: json(FanPageSchema, "A page"),
      401: e401,
      403: e403,
      422: e422,
    },
  }),
  async (c) => {
    const { kind, cursor } = c.req.valid("query");
    return c.json(await listFans(c.get("domain").db, c.get("session").user, kind, cursor), 200);
  },
);
