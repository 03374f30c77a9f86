import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { listMassMessages, MassMessageSchema, startMassMessage } from "../../domain/messages/mass-messages";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { enqueueMassMessage } from "../../queues/mass-messages";
import { errorResponses, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 422: e422 } = errorResponses;

const MassMessageViewSchema = z
  .object({
    id: z.number().int(),
    audience: z.enum(["subscribers", "followers", "both"]),
    text: z.string(),
    priceCents: z.number().int(),
    recipients: z.number().int().openapi({ description: "Fans in the audience when it was sent" }),
    delivered: z.number().int().openapi({ description: "Messages written so far" }),
    status: z.enum(["sending", "sent"]),
    createdAt: z.string(),
  })
  .openapi("MassMessage");

export const massMessageRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

massMessageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mass-messages",
    tags: ["Messages"],
    summary:
      "Creators: send one message (text, media, optional price) to all subscribers, followers or both; delivered in the background",
    middleware: [requireSession] as const,
    request: { body: jsonBody(MassMessageSchema) },
    responses: {
      202: json(MassMessageViewSchema, "Accepted; `delivered` counts up as it goes"),
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
    responses: { 200: json(z.object({ massMessages: z.array(MassMessageViewSchema) }), "Mass messages"), 401: e401 },
  }),
  async (c) => c.json({ massMessages: await listMassMessages(c.get("domain").db, c.get("session").user.id) }, 200),
);
