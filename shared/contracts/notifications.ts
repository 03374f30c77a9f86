/**
 * Notifications' answers (GET /api/notifications, /notifications): written by worker/domain/notifications,
 * documented by worker/api, checked by the notifications screen with app/lib/notification-shape.ts, generated from
 * these schemas. The page imports types only from here: what it needs besides is in notification-links.ts.
 */

import { z } from "zod";
import { UpdatesSchema } from "./session";

/** What a notification is about; the same list as the CHECK on notifications.kind (migration 0008). */
const NOTIFICATION_KINDS = [
  "test",
  "follow",
  "subscription",
  "tip",
  "like",
  "comment",
  "message",
  "creator_request",
  "renewal_failed",
  "purchase",
  "payout",
  "top_up",
  "live",
  "gift",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(NOTIFICATION_KINDS),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .meta({ description: "Values for the kind's sentence (amounts, post ids); never private content" }),
    actor: z.object({ username: z.string(), name: z.string(), avatarUrl: z.string() }).nullable(),
    read: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: "Notification" });
export type NotificationView = z.infer<typeof NotificationSchema>;

/** A page of notifications, newest first: a full page may have older ones after it. */
export const NotificationPageSchema = z
  .object({ notifications: z.array(NotificationSchema) })
  .meta({ id: "NotificationPage" });
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

/** POST /notifications/read: how many were unread, and the updates summary after. */
export const NotificationsReadSchema = UpdatesSchema.extend({ marked: z.number().int() }).meta({
  id: "NotificationsRead",
});
