import type { DomainContext } from "../context";
import { PROFILE_NOT_FOUND, findVisibleUser } from "../profiles/find-member";
import { AppError } from "../shared/errors";
import type { FollowState } from "@shared/contracts/profiles";

/**
 * Stops following. Idempotent, and allowed even across a block (ending a follow never needs permission). A live
 * subscription still entitles to subscriber posts; only the timeline stops showing the creator.
 */
export async function unfollowUser(
  ctx: Pick<DomainContext, "db">,
  followerId: number,
  username: string,
): Promise<FollowState> {
  const followed = await findVisibleUser(ctx.db, username, followerId);
  if (!followed) throw new AppError("not_found", PROFILE_NOT_FOUND);
  const [, count] = await ctx.db.batch([
    ctx.db.prepare("DELETE FROM follows WHERE follower_id = ? AND creator_id = ?").bind(followerId, followed.id),
    ctx.db.prepare("SELECT follower_count FROM users WHERE id = ?").bind(followed.id),
  ]);
  return { following: false, followerCount: (count!.results[0] as { follower_count: number }).follower_count };
}
