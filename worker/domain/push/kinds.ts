import type { NotificationKind } from "../notifications/notifications";

/**
 * The kinds of push a person turns on or off in Settings → Notifications (all on until they choose): the
 * columns of push_preferences (migration 0014).
 */
export { PUSH_KINDS, type PushKind, type PushPreferences } from "@shared/contracts/push";
import type { PushKind } from "@shared/contracts/push";

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
  message: "messages",
  live: "live",
};
