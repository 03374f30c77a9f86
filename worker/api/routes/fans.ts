import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { FAN_KINDS } from "@shared/contracts/subscriptions";
import { listFans } from "../../domain/subscriptions/list-fans";
import { PERIODS } from "../../domain/subscriptions/periods";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { cursorQuery, errorResponses, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

const FanSchema = z
  .object({
    userId: z.number().int(),
    username: z.string(),
    name: z.string(),
    avatarUrl: z.string(),
    since: z.string().openapi({ description: "When the subscription started, or when the follow was made" }),
    period: z.enum(PERIODS).nullable().openapi({ description: "The subscription's period; null for followers" }),
    priceCents: z.number().int().nullable().openapi({ description: "The subscription's price; null for followers" }),
  })
  .openapi("Fan");

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
      200: json(z.object({ fans: z.array(FanSchema), nextCursor: z.string().nullable() }), "A page"),
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
