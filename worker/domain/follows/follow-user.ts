import type { DomainContext } from "../context";
import { createNotification } from "../notifications/notifications";
import { findCounterpart } from "../profiles/find-member";
import { message } from "../shared/messages";
import { isoNow } from "../shared/time";

export interface FollowState {
  following: boolean;
  followerCount: number;
}

/**
 * Follows the user named `username`. Idempotent: following again changes nothing and notifies nobody; the
 * followed user hears of it only when the follow row is new.
 */
export async function followUser(ctx: Pick<DomainContext, "db" | "publish">, followerId: number, username: string): Promise<FollowState> {
  const followed = await findCounterpart(ctx.db, username, followerId, message("You cannot follow yourself."));
  const [inserted, count] = await ctx.db.batch([
    ctx.db.prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?) RETURNING follower_id").bind(followerId, followed.id, isoNow()),
    ctx.db.prepare("SELECT follower_count FROM users WHERE id = ?").bind(followed.id),
  ]);
  if (inserted!.results.length > 0) await createNotification(ctx, { userId: followed.id, kind: "follow", actorId: followerId });
  return { following: true, followerCount: (count!.results[0] as { follower_count: number }).follower_count };
}
