/**
 * Web push as the page receives it (GET /api/push): written by worker/domain/push, read by Settings →
 * Notifications. Plain types and constants only.
 */

/** The kinds of push a person turns on or off (all on until they choose): the columns of push_preferences. */
export const PUSH_KINDS = ["messages", "posts", "earnings", "subscriptions", "interactions", "live"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];
export type PushPreferences = Record<PushKind, boolean>;

/** A device that receives pushes. */
export interface PushDevice {
  id: number;
  /** From the device's user agent when it subscribed: "Chrome on Android". */
  label: string;
  /** Its PushSubscription's endpoint: the page finds "this device" by it. */
  endpoint: string;
  /** The app language its pushes are written in. */
  language: string;
  createdAt: string;
  lastSentAt: string | null;
}
