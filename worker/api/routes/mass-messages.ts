import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { cancelMassMessage } from "../../domain/mass-messages/cancel-mass-message";
import { countMassAudience } from "../../domain/mass-messages/count-mass-audience";
import { editMassMessage } from "../../domain/mass-messages/edit-mass-message";
import { listMassMessages } from "../../domain/mass-messages/list-mass-messages";
import { startMassMessage } from "../../domain/mass-messages/start-mass-message";
import { unsendMassMessage } from "../../domain/mass-messages/unsend-mass-message";
import {
  EditMassMessageSchema,
  MassMessageAudienceSchema,
  SendMassMessageSchema,
} from "@shared/contracts/message-bodies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { enqueueMassMessage } from "../../queues/mass-messages";
import { e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";
import { MassMessageAudienceCountSchema, MassMessageListSchema, MassMessageSchema } from "@shared/contracts/messages";

const { 401: e401, 403: e403, 409: e409, 422: e422 } = errorResponses;

export const massMessageRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

massMessageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mass-messages",
    tags: ["Messages"],
    summary:
      "Creators: send one message (text, media, optional price) to the fans of some lists (include, exclude), now or at `sendAt`; delivered in the background",
    middleware: [requireSession] as const,
    request: { body: jsonBody(SendMassMessageSchema) },
    responses: {
      202: json(MassMessageSchema, "Accepted: scheduled, or sending (`delivered` counts up as it goes)"),
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
    summary: "The caller's 20 latest mass messages with their status and results (sent, read, unlocked, revenue)",
    middleware: [requireSession] as const,
    responses: { 200: json(MassMessageListSchema, "Mass messages"), 401: e401 },
  }),
  async (c) => c.json({ massMessages: await listMassMessages(c.get("domain").db, c.get("session").user.id) }, 200),
);

massMessageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mass-messages/count",
    tags: ["Messages"],
    summary: "Creators: how many fans a mass message to these lists (include, exclude) would reach now",
    middleware: [requireSession] as const,
    request: { body: jsonBody(MassMessageAudienceSchema) },
    responses: { 200: json(MassMessageAudienceCountSchema, "Recipients"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await countMassAudience(c.get("domain").db, c.get("session").user, c.req.valid("json")), 200),
);

massMessageRoutes.openapi(
  createRoute({
    method: "put",
    path: "/mass-messages/{id}",
    tags: ["Messages"],
    summary: "Creators: change a scheduled mass message (every field; without `sendAt` it goes now)",
    middleware: [requireSession] as const,
    request: { params: IdParams, body: jsonBody(EditMassMessageSchema) },
    responses: {
      200: json(MassMessageSchema, "Changed"),
      401: e401,
      403: e403,
      404: e404,
      409: e409,
      422: e422,
    },
  }),
  async (c) =>
    c.json(
      await editMassMessage(
        c.get("domain"),
        enqueueMassMessage(c.env),
        c.get("session").user,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
);

massMessageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mass-messages/{id}/cancel",
    tags: ["Messages"],
    summary: "Creators: cancel a scheduled mass message before it goes",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(MassMessageSchema, "Cancelled"), 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 },
  }),
  async (c) => c.json(await cancelMassMessage(c.get("domain").db, c.get("session").user, c.req.valid("param").id), 200),
);

massMessageRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mass-messages/{id}/unsend",
    tags: ["Messages"],
    summary: "Creators: take a sent mass message back from every chat where it was not bought",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 200: json(MassMessageSchema, "Unsent"), 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 },
  }),
  async (c) => c.json(await unsendMassMessage(c.get("domain"), c.get("session").user, c.req.valid("param").id), 200),
);
