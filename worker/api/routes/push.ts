import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { removeDevice, subscribeDevice } from "../../domain/push/devices";
import {
  PushDeviceSchema,
  PushPreferencesSchema,
  PushSubscriptionBodySchema,
  PushSettingsSchema,
  PushTestSentSchema,
} from "@shared/contracts/push";
import { getPushSettings, requestTestPush, setPreferences } from "../../domain/push/settings";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { enqueuePush } from "../../push/queue";
import { e404, errorResponses, IdParams, json, jsonBody } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 409: e409, 422: e422, 429: e429 } = errorResponses;

export const pushRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

pushRoutes.openapi(
  createRoute({
    method: "get",
    path: "/push",
    tags: ["Push"],
    summary: "Web push settings: whether push is available, the VAPID public key, the kinds chosen, the devices",
    middleware: [requireSession] as const,
    responses: { 200: json(PushSettingsSchema, "The settings"), 401: e401 },
  }),
  async (c) => c.json(await getPushSettings(c.get("domain"), c.get("session").user.id), 200),
);

pushRoutes.openapi(
  createRoute({
    method: "post",
    path: "/push/subscriptions",
    tags: ["Push"],
    summary:
      "Turn push on for this device: its PushSubscription (toJSON), stored with the request's language (idempotent by endpoint)",
    middleware: [requireSession] as const,
    request: { body: jsonBody(PushSubscriptionBodySchema) },
    responses: { 201: json(PushDeviceSchema, "The device"), 401: e401, 403: e403, 409: e409, 422: e422 },
  }),
  async (c) => c.json(await subscribeDevice(c.get("domain"), c.get("session").user.id, c.req.valid("json")), 201),
);

pushRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/push/subscriptions/{id}",
    tags: ["Push"],
    summary: "Stop pushes to one of your devices",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Removed" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    await removeDevice(c.get("domain").db, c.get("session").user.id, c.req.valid("param").id);
    return c.body(null, 204);
  },
);

pushRoutes.openapi(
  createRoute({
    method: "put",
    path: "/push/preferences",
    tags: ["Push"],
    summary: "Choose which kinds of push you receive, on all your devices",
    middleware: [requireSession] as const,
    request: { body: jsonBody(PushPreferencesSchema) },
    responses: { 200: json(PushPreferencesSchema, "The kinds now chosen"), 401: e401, 403: e403, 422: e422 },
  }),
  async (c) => c.json(await setPreferences(c.get("domain").db, c.get("session").user.id, c.req.valid("json")), 200),
);

pushRoutes.openapi(
  createRoute({
    method: "post",
    path: "/push/test",
    tags: ["Push"],
    summary: "Send a test push to each of your devices",
    middleware: [requireSession] as const,
    responses: {
      202: json(PushTestSentSchema, "Queued for each device"),
      401: e401,
      403: e403,
      409: e409,
      429: e429,
    },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    const devices = await requestTestPush(domain, session!.user.id);
    await enqueuePush(
      c.env,
      devices.map((subscriptionId) => ({ subscriptionId, topic: { type: "test" as const } })),
    );
    return c.json({ message: domain.t("Test notification sent."), devices: devices.length }, 202);
  },
);
