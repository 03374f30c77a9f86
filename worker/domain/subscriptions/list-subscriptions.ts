import {
  GIFTED_BY_USERNAME,
  presentSubscriptionListItem,
  type SubscriptionListItem,
  type SubscriptionRow,
} from "./present-subscription";

/** How many subscriptions the settings page lists: live ones first, then the most recent expired ones. */
const LIST_LIMIT = 100;

/** The fan's subscriptions for /settings/subscriptions. */
export async function listSubscriptions(db: D1Database, fanId: number): Promise<SubscriptionListItem[]> {
  const { results } = await db
    .prepare(
      `SELECT s.*, u.username, u.name, u.avatar_key, ${GIFTED_BY_USERNAME} FROM subscriptions s JOIN users u ON u.id = s.creator_id
       WHERE s.fan_id = ? AND u.suspended_at IS NULL
       ORDER BY s.status = 'expired', s.started_at DESC LIMIT ?`,
    )
    .bind(fanId, LIST_LIMIT)
    .all<SubscriptionRow & { username: string; name: string; avatar_key: string | null }>();
  return results.map(presentSubscriptionListItem);
}
