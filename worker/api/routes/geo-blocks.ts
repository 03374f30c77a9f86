import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { GeoBlocksBodySchema, GeoBlocksSchema } from "@shared/contracts/geo-blocks";
import { getGeoBlocks } from "../../domain/geo-blocks/get-geo-blocks";
import { setGeoBlocks } from "../../domain/geo-blocks/set-geo-blocks";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** /api/me/geo-blocks: the countries and US states where a creator's content does not exist. */
export const geoBlockRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

geoBlockRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/geo-blocks",
    tags: ["Creators"],
    summary: "The places where your profile, posts, media, stories and streams do not exist (creators)",
    middleware: [requireSession] as const,
    responses: { 200: json(GeoBlocksSchema, "The places"), 401: e401, 403: e403 },
  }),
  async (c) => c.json(await getGeoBlocks(c.get("domain"), c.get("session").user), 200),
);

geoBlockRoutes.openapi(
  createRoute({
    method: "put",
    path: "/me/geo-blocks",
    tags: ["Creators"],
    summary: "Choose the places where your content does not exist: the whole set, replacing the last (creators)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(GeoBlocksBodySchema) },
    responses: { 200: json(GeoBlocksSchema, "The places now chosen"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await setGeoBlocks(c.get("domain"), c.get("session").user, c.req.valid("json")), 200),
);
