import { blockedEitherWaySql, followsSql, subscribesSql } from "../policies/members";
import type { Audience, LockReason } from "@shared/contracts/posts";
export type { Audience, LockReason };

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

/**
 * Columns v_follows, v_subscribed, v_purchased, v_blocked, v_liked, v_bookmarked for a row aliased `p` (posts),
 * with the viewer bound as ?1 (NULL for a visitor: every fact is then false) and the current time as ?2.
 * Each is one primary-key or index probe.
 */
export const VIEWER_FACTS_SQL = `
  ${followsSql("?1", "p.user_id")} AS v_follows,
  ${subscribesSql("?1", "p.user_id")} AS v_subscribed,
  EXISTS (SELECT 1 FROM post_purchases pp WHERE pp.user_id = ?1 AND pp.post_id = p.id) AS v_purchased,
  ${blockedEitherWaySql("?1", "p.user_id")} AS v_blocked,
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
