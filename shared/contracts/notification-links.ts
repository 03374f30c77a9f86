/**
 * Where a notification leads, and how many a page of the list holds: the page needs these too, so they are apart
 * from notifications.ts, whose schemas the browser must not load.
 */

/** Notifications a page of the list holds: a full page may have older ones after it. */
export const NOTIFICATION_PAGE_SIZE = 20;

/**
 * Where a notification takes its reader: the page its push opens and its line in /notifications links to, from its
 * kind, its params and who it is about; null when there is nowhere to go but the list (a test notification, a
 * creator application's outcome). Shared by the push payload (worker/domain/push/push-payload.ts) and the
 * notifications screen, so both open the same page.
 */
export function notificationPath(
  kind: string,
  params: Record<string, string | number | undefined>,
  actorUsername: string | null,
): string | null {
  const postPath = typeof params.postId === "number" ? `/post/${params.postId}` : null;
  switch (kind) {
    case "follow":
    case "gift":
      return actorUsername ? `/${encodeURIComponent(actorUsername)}` : null;
    case "subscription":
      return "/dashboard/fans";
    case "tip":
      // A tip in a conversation opens the thread, where the tip and its note are.
      return typeof params.conversationId === "number"
        ? `/messages/${params.conversationId}`
        : (postPath ?? "/dashboard");
    case "purchase":
      return postPath ?? "/dashboard";
    case "payout":
      return "/dashboard/payouts";
    case "renewal_failed":
    case "top_up":
      return "/wallet";
    case "like":
    case "comment":
      return postPath;
    case "message":
      return "/messages";
    case "live":
      return typeof params.streamId === "number" ? `/live/${params.streamId}` : "/live";
    default:
      return null;
  }
}
