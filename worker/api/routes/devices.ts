import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { OtherSessionsEndedSchema, SignedInDevicesSchema } from "@shared/contracts/devices";
import { endOtherSessions } from "../../domain/devices/end-other-sessions";
import { endSession } from "../../domain/devices/end-session";
import { listSignedInDevices } from "../../domain/devices/list-signed-in-devices";
import { clearedSessionCookie } from "../../http/cookies";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { e404, errorResponses, IdParams, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422 } = errorResponses;

export const deviceRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

deviceRoutes.openapi(
  createRoute({
    method: "get",
    path: "/me/sessions",
    tags: ["Accounts"],
    summary: "Your signed-in devices: browser, system, country, when signed in and last used",
    middleware: [requireSession] as const,
    responses: { 200: json(SignedInDevicesSchema, "This device first, then the most recently used"), 401: e401 },
  }),
  async (c) => c.json({ sessions: await listSignedInDevices(c.get("domain"), c.get("session")) }, 200),
);

deviceRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/me/sessions/{id}",
    tags: ["Accounts"],
    summary: "Sign one of your devices out: its session ends and its sockets close (this device's too: a sign-out)",
    middleware: [requireSession] as const,
    request: { params: IdParams },
    responses: { 204: { description: "Signed out" }, 401: e401, 403: e403, 404: e404, 422: e422 },
  }),
  async (c) => {
    const session = c.get("session");
    const { id } = c.req.valid("param");
    await endSession(c.get("domain"), session, id);
    if (id === session.sessionId) c.header("Set-Cookie", clearedSessionCookie());
    return c.body(null, 204);
  },
);

deviceRoutes.openapi(
  createRoute({
    method: "post",
    path: "/me/sessions/end-others",
    tags: ["Accounts"],
    summary: "Sign every other device out; this one stays signed in",
    middleware: [requireSession] as const,
    responses: { 200: json(OtherSessionsEndedSchema, "Signed out"), 401: e401, 403: e403 },
  }),
  async (c) => {
    const domain = c.get("domain");
    const ended = await endOtherSessions(domain, c.get("session"));
    return c.json({ message: domain.t("Every other device has been signed out."), ended }, 200);
  },
);
