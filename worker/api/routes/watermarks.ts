import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { WatermarkBodySchema, WatermarkSettingSchema } from "@shared/contracts/watermarks";
import { getWatermarkSetting } from "../../domain/watermarks/get-watermark-setting";
import { setWatermarkSetting } from "../../domain/watermarks/set-watermark-setting";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

/** A creator's watermark: the mark of their profile address on the photos fans get (docs/decisions/watermarks.md). */
export const watermarkRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

watermarkRoutes.openapi(
  createRoute({
    method: "get",
    path: "/settings/watermark",
    tags: ["Creators"],
    summary: "Whether the creator's photos are marked for fans, and the mark's text",
    middleware: [requireSession] as const,
    responses: { 200: json(WatermarkSettingSchema, "The setting"), 401: e401, 403: e403 },
  }),
  async (c) => c.json(await getWatermarkSetting(c.get("domain"), c.get("session").user), 200),
);

watermarkRoutes.openapi(
  createRoute({
    method: "put",
    path: "/settings/watermark",
    tags: ["Creators"],
    summary: "Turns the mark on or off for photos uploaded from now on (earlier photos keep theirs)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(WatermarkBodySchema) },
    responses: { 200: json(WatermarkSettingSchema, "The setting now"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await setWatermarkSetting(c.get("domain"), c.get("session").user, c.req.valid("json")), 200),
);
