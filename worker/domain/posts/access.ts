import { AUDIENCES, type Audience, type LockReason } from "@shared/contracts/posts";
export { AUDIENCES, type Audience, type LockReason };


export interface PostFacts {
  authorId: number;
  audience: Audience;
  priceCents: number;
}

export interface ViewerFacts {
  viewerId: number | null;
  follows: boolean;
  subscribed: boolean;
  purchased: boolean;
  /** Either of the two blocked the other. */
  blocked: boolean;
}

/** "hidden": the post does not exist for this viewer (a block). null: everything is visible. */
export function lockOf(post: PostFacts, viewer: ViewerFacts): LockReason | "hidden" | null {
  if (viewer.viewerId === post.authorId) return null;
  if (viewer.blocked) return "hidden";
  if (viewer.purchased) return null;
  if (post.audience === "followers" && !viewer.follows && !viewer.subscribed) return "follow";
  if (post.audience === "subscribers" && !viewer.subscribed) return "subscribe";
  if (post.priceCents > 0) return "purchase";
  return null;
}

/** A subscription entitles while active, and while cancelled until the end of the paid period. */
export const LIVE_SUBSCRIPTION_SQL = "s.status IN ('active', 'cancelled') AND s.current_period_end > ?2";

/**
 * The live subscriptions of fan ?1, aliased `s`. INDEXED BY because without statistics SQLite prefers the range
 * of subscriptions_due (every live subscription of everyone) to this unique (fan, creator) probe.
 */
export const LIVE_SUBSCRIPTIONS_OF_VIEWER = "subscriptions s INDEXED BY subscriptions_live";

/**
 * Columns v_follows, v_subscribed, v_purchased, v_blocked, v_liked, v_bookmarked for a row aliased `p` (posts),
 * with the viewer bound as ?1 (NULL for a visitor: every fact is then false) and the current time as ?2.
 * Each is one primary-key or index probe.
 */
export const VIEWER_FACTS_SQL = `
  EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.creator_id = p.user_id) AS v_follows,
  EXISTS (SELECT 1 FROM ${LIVE_SUBSCRIPTIONS_OF_VIEWER} WHERE s.fan_id = ?1 AND s.creator_id = p.user_id AND ${LIVE_SUBSCRIPTION_SQL}) AS v_subscribed,
  EXISTS (SELECT 1 FROM post_purchases pp WHERE pp.user_id = ?1 AND pp.post_id = p.id) AS v_purchased,
  (EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = ?1)
    OR EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = p.user_id)) AS v_blocked,
  EXISTS (SELECT 1 FROM likes l WHERE l.user_id = ?1 AND l.post_id = p.id) AS v_liked,
  EXISTS (SELECT 1 FROM bookmarks k WHERE k.user_id = ?1 AND k.post_id = p.id) AS v_bookmarked`;

export interface ViewerFactsRow {
  v_follows: number;
  v_subscribed: number;
  v_purchased: number;
  v_blocked: number;
  v_liked: number;
  v_bookmarked: number;
}

export const viewerFactsOf = (viewerId: number | null, row: ViewerFactsRow): ViewerFacts => ({
  viewerId,
  follows: row.v_follows === 1,
  subscribed: row.v_subscribed === 1,
  purchased: row.v_purchased === 1,
  blocked: row.v_blocked === 1,
});

/** Is one of the two users blocking the other? (follow, subscribe, message, profile) */
export async function isBlockedBetween(db: D1Database, a: number, b: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS x FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1) LIMIT 1")
    .bind(a, b)
    .first();
  return row !== null;
}
