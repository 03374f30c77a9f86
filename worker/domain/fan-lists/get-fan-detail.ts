import type { FanDetail } from "@shared/contracts/fan-lists";
import { message } from "@shared/messages";
import { publicMediaUrl } from "../accounts/users";
import { followsSql, visibleMemberSql } from "../policies/members";
import { isFanOfSql, requireListKeeper } from "../policies/fan-lists";
import type { Viewer } from "../policies/policy";
import { GIFTED_BY_USERNAME, presentSubscription, type SubscriptionRow } from "../subscriptions/present-subscription";
import { AppError } from "../shared/errors";
import { allRows, firstRow, readTogether } from "../shared/reads";

const NOT_YOUR_FAN = message("This member is not one of your fans.");

interface FanRow {
  id: number;
  username: string;
  name: string;
  avatar_key: string | null;
  following: number;
  last_active_at: string | null;
  conversation_id: number | null;
}

/**
 * GET /api/me/fans/{username} and a fan's page under /lists: one of the creator's fans (a follower, present or
 * former subscriber) with their subscription (the live one, else the latest), what they spent with the creator by
 * kind, and their conversation. Anyone else, or a member hidden from the creator, is not found.
 */
export async function getFanDetail(db: D1Database, viewer: Viewer, username: string): Promise<FanDetail> {
  const creator = requireListKeeper(viewer);
  const [fan, subscription, spending] = await readTogether(db, [
    firstRow<FanRow>(
      db
        .prepare(
          `SELECT u.id, u.username, u.name, u.avatar_key, ${followsSql("u.id", "?1")} AS following,
             (SELECT MAX(se.last_active_at) FROM sessions se WHERE se.user_id = u.id AND se.last_active_at <> '') AS last_active_at,
             (SELECT c.id FROM conversations c WHERE c.user_low = min(u.id, ?1) AND c.user_high = max(u.id, ?1)) AS conversation_id
           FROM users u WHERE u.username = ?2 AND ${visibleMemberSql("u")} AND ${isFanOfSql("u")}`,
        )
        .bind(creator.id, username),
    ),
    firstRow<SubscriptionRow>(
      db
        .prepare(
          `SELECT s.*, ${GIFTED_BY_USERNAME} FROM subscriptions s
           WHERE s.creator_id = ?1 AND s.fan_id = (SELECT id FROM users WHERE username = ?2)
           ORDER BY s.status IN ('active', 'cancelled') DESC, s.started_at DESC, s.id DESC LIMIT 1`,
        )
        .bind(creator.id, username),
    ),
    allRows<{ kind: string; cents: number }>(
      db
        .prepare(
          `SELECT p.kind, SUM(p.amount_cents) AS cents FROM payments p
           WHERE p.creator_id = ?1 AND p.status = 'succeeded' AND p.user_id = (SELECT id FROM users WHERE username = ?2)
           GROUP BY p.kind`,
        )
        .bind(creator.id, username),
    ),
  ]);
  if (!fan) throw new AppError("not_found", NOT_YOUR_FAN);
  const of = (...kinds: string[]) =>
    spending.filter((row) => kinds.includes(row.kind)).reduce((sum, row) => sum + row.cents, 0);
  return {
    userId: fan.id,
    username: fan.username,
    name: fan.name,
    avatarUrl: publicMediaUrl(fan.avatar_key),
    subscription: subscription ? presentSubscription(subscription) : null,
    following: fan.following === 1,
    spending: {
      subscriptionsCents: of("subscription", "renewal"),
      tipsCents: of("tip", "live_tip"),
      postsCents: of("post"),
      messagesCents: of("message"),
      liveCents: of("live"),
      totalCents: of("subscription", "renewal", "tip", "live_tip", "post", "message", "live"),
    },
    lastActiveAt: fan.last_active_at,
    conversationId: fan.conversation_id,
  };
}
