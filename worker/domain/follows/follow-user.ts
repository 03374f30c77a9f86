import type { FollowState } from "@shared/contracts/profiles";
import type { DomainContext } from "../context";
import { notificationStatementsIfChanged } from "../notifications/notifications";
import { findCounterpart } from "../profiles/find-member";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";

/**
 * Follows the user named `username`. Idempotent: following again changes nothing and notifies nobody; the
 * followed user hears of it only when the follow row is new. One batch after the name's lookup: the follow, its
 * notification if it is new (with the devices to push it to), and the count as the follow left it.
 */
export async function followUser(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  followerId: number,
  username: string,
): Promise<FollowState> {
  const followed = await findCounterpart(ctx.db, username, followerId, message("You cannot follow yourself."));
  const notification = notificationStatementsIfChanged(ctx, {
    userId: followed.id,
    kind: "follow",
    actorId: followerId,
  });
  const results = await ctx.db.batch([
    ctx.db
      .prepare("INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at) VALUES (?, ?, ?)")
      .bind(followerId, followed.id, isoNow()),
    ...notification.statements,
    ctx.db.prepare("SELECT follower_count FROM users WHERE id = ?").bind(followed.id),
  ]);
  const created = notification.created(results.slice(1, -1));
  if (created) ctx.publish(created);
  return { following: true, followerCount: (results.at(-1)!.results[0] as { follower_count: number }).follower_count };
}
