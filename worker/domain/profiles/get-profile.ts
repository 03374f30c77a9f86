import { publicMediaUrl } from "../accounts/users";
import { profilePermissionsOf } from "../policies/members";
import type { PostRow } from "../posts/present-posts";
import { isoNow } from "../shared/time";
import { plansStatement, presentPlans, type PlanRow } from "../subscriptions/plans";
import { liveSubscriptionStatement, presentSubscription, type SubscriptionRow } from "../subscriptions/present-subscription";
import { findVisibleUser } from "./find-member";
import { presentProfilePage, profilePostsStatement } from "./list-profile-posts";
import type { Profile } from "@shared/contracts/posts";
export { type Profile };

interface FactsRow {
  post_count: number;
  like_count: number;
  media_count: number;
  following: number;
  blocked: number;
}

/**
 * /{username} as `viewerId` (null: a visitor) may see it, with the first page of posts. Unknown and suspended
 * users are null (a 404). Three round trips: the user, then one batch, then the media of the page.
 */
export async function getProfile(db: D1Database, username: string, viewerId: number | null): Promise<Profile | null> {
  const user = await findVisibleUser(db, username);
  if (!user) return null;
  const [facts, posts, plans, subscriptions] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT totals.post_count, totals.like_count,
           (SELECT COUNT(*) FROM posts p JOIN media m ON m.post_id = p.id
            WHERE p.user_id = ?1 AND p.status = 'published' AND m.status = 'ready') AS media_count,
           EXISTS (SELECT 1 FROM follows WHERE follower_id = ?2 AND creator_id = ?1) AS following,
           EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1)) AS blocked
         FROM (SELECT COUNT(*) AS post_count, COALESCE(SUM(like_count), 0) AS like_count FROM posts WHERE user_id = ?1 AND status = 'published') AS totals`,
      )
      .bind(user.id, viewerId),
    profilePostsStatement(db, user.id, viewerId, "posts", null),
    plansStatement(db, user.id),
    liveSubscriptionStatement(db, viewerId, user.id),
  ]);
  const fact = facts!.results[0] as unknown as FactsRow;
  const isOwn = viewerId === user.id;
  const available = fact.blocked === 0;
  const header = {
    userId: user.id,
    username: user.username,
    name: user.name,
    avatarUrl: publicMediaUrl(user.avatar_key),
    isCreator: user.role === "creator",
    isOwn,
    available,
    viewer: profilePermissionsOf({ id: user.id, isCreator: user.role === "creator" }, viewerId, !available),
  };
  if (!available) {
    const nothing = { bio: "", location: "", website: "", coverUrl: "", postCount: 0, mediaCount: 0, likeCount: 0, followerCount: null };
    return { ...header, ...nothing, following: false, subscription: null, plans: [], messagePriceCents: 0, posts: [], nextCursor: null };
  }
  const page = await presentProfilePage(db, posts!.results as unknown as PostRow[], viewerId);
  // A subscription past its end that the cron job has not expired yet no longer counts.
  const subscription = (subscriptions!.results as unknown as SubscriptionRow[]).find((row) => row.current_period_end > isoNow());
  return {
    ...header,
    bio: user.bio,
    location: user.location,
    website: user.website,
    coverUrl: publicMediaUrl(user.cover_key),
    postCount: fact.post_count,
    mediaCount: fact.media_count,
    likeCount: fact.like_count,
    followerCount: isOwn ? user.follower_count : null,
    following: fact.following === 1,
    subscription: subscription ? presentSubscription(subscription) : null,
    plans: user.role === "creator" ? presentPlans(plans!.results as unknown as PlanRow[]) : [],
    messagePriceCents: user.role === "creator" ? user.message_price_cents : 0,
    ...page,
  };
}
