import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { listMassMessages, startMassMessage } from "../../domain/messages/mass-messages";
import { SendMassMessageSchema } from "@shared/contracts/message-bodies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { enqueueMassMessage } from "../../queues/mass-messages";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";
import { MassMessageListSchema, MassMessageSchema } from "@shared/contracts/messages";

const { 401: e401, 403: e403, 409: e409, 422: e422 } = errorResponses;

export const massMessageRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

massMessageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mass-messages",
    tags: ["Messages"],
    summary:
      "Creators: send one message (text, media, optional price) to all subscribers, followers or both; delivered in the background",
    middleware: [requireSession] as const,
    request: { body: jsonBody(SendMassMessageSchema) },
    responses: {
      202: json(MassMessageSchema, "Accepted; `delivered` counts up as it goes"),
      401: e401,
      403: e403,
      409: e409,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await startMassMessage(c.get("domain"), enqueueMassMessage(c.env), c.get("session").user, c.req.valid("json")),
      202,
    ),
);

massMessageRoutes.openapi(
  createRoute({
    method: "get",
    path: "/mass-messages",
    tags: ["Messages"],
    summary: "The caller's 20 latest mass messages with their progress",
    middleware: [requireSession] as const,
    responses: { 200: json(MassMessageListSchema, "Mass messages"), 401: e401 },
  }),
  async (c) => c.json({ massMessages: await listMassMessages(c.get("domain").db, c.get("session").user.id) }, 200),
);
