import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { MessageSchema } from "@shared/contracts/common";
import { NotificationPageSchema, NotificationsReadSchema } from "@shared/contracts/notifications";
import {
  listNotifications,
  markNotificationsRead,
  sendTestNotification,
} from "../../domain/notifications/notifications";
import { getUpdates } from "../../domain/updates/get-updates";
import { requireSession } from "../../http/middleware";
import type { AppEnv } from "../../http/types";
import { errorResponses, idCursorQuery, json } from "../schemas";
import { validationHook } from "../validation-hook";

const { 401: e401, 403: e403, 422: e422, 429: e429 } = errorResponses;

export const notificationRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

notificationRoutes.openapi(
  createRoute({
    method: "get",
    path: "/notifications",
    tags: ["Notifications"],
    summary: "The user's notifications, newest first, 20 at a time",
    middleware: [requireSession] as const,
    request: { query: idCursorQuery("before") },
    responses: {
      200: json(NotificationPageSchema, "A page of notifications"),
      401: e401,
      422: e422,
    },
  }),
  async (c) => {
    const notifications = await listNotifications(
      c.get("domain").db,
      c.get("session").user.id,
      c.req.valid("query").before ?? null,
    );
    return c.json({ notifications }, 200);
  },
);

notificationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/notifications/read",
    tags: ["Notifications"],
    summary: "Mark every notification read",
    middleware: [requireSession] as const,
    responses: {
      200: json(NotificationsReadSchema, "How many were unread, and the updates summary after"),
      401: e401,
      403: e403,
    },
  }),
  async (c) => {
    const [domain, session] = [c.get("domain"), c.get("session")];
    const marked = await markNotificationsRead(domain, session!.user.id);
    return c.json({ marked, updates: await getUpdates(domain.db, session!.user) }, 200);
  },
);

notificationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/notifications/test",
    tags: ["Notifications"],
    summary: "Send yourself a test notification (badge and real-time push)",
    middleware: [requireSession] as const,
    responses: { 201: json(MessageSchema, "Sent"), 401: e401, 403: e403, 429: e429 },
  }),
  async (c) => {
    await sendTestNotification(c.get("domain"), c.get("session").user.id);
    return c.json({ message: c.get("domain").t("Test notification sent.") }, 201);
  },
);
