import type { NotificationKind } from "@shared/contracts/notifications";
import type { PushKind } from "@shared/contracts/push-kinds";

/**
 * The kind each notification pushes as. `earnings` is a creator's business (tips, purchases, subscribers
 * gained, payouts, the creator request's decision); `subscriptions` a fan's side of paying (a renewal that
 * failed, a top-up credited); `interactions` what people do with one's profile and posts. A test is null: it
 * is sent whatever the preferences say, since checking that pushes arrive is its whole point.
 */
export const PUSH_KIND_OF_NOTIFICATION: Record<NotificationKind, PushKind | null> = {
  test: null,
  follow: "interactions",
  like: "interactions",
  comment: "interactions",
  subscription: "earnings",
  tip: "earnings",
  purchase: "earnings",
  payout: "earnings",
  creator_request: "earnings",
  renewal_failed: "subscriptions",
  top_up: "subscriptions",
  gift: "subscriptions",
  message: "messages",
  live: "live",
};
