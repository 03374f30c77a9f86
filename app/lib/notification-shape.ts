// Written by scripts/api-shapes.ts from the answers' schemas in shared/contracts: `npm run generate:api-shapes`.
import type { NotificationPage, NotificationView } from "@shared/contracts/notifications";
import { anyOf, array, boolean, nullable, number, object, oneOf, record, string, type Shape } from "@shared/shape";

export const notificationShape: Shape<NotificationView> = object({
  id: number,
  kind: oneOf(
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
  ),
  params: record(anyOf(string, number)),
  actor: nullable(object({ username: string, name: string, avatarUrl: string })),
  read: boolean,
  createdAt: string,
});

export const notificationPageShape: Shape<NotificationPage> = object({ notifications: array(notificationShape) });
