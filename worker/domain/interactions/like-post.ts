import type { LikeState } from "@shared/contracts/posts";
import type { DomainContext } from "../context";
import { notificationStatementsIfChanged } from "../notifications/notifications";
import { isoNow } from "../shared/time";
import { requirePostAccess } from "../policies/posts";

const likeCountStatement = (db: D1Database, postId: number) =>
  db.prepare("SELECT like_count FROM posts WHERE id = ?").bind(postId);
const likeCountOf = (result: D1Result | undefined) =>
  (result?.results[0] as { like_count: number } | undefined)?.like_count ?? 0;

/**
 * Likes a post the viewer may open; liking twice changes nothing. The author hears of it (not of their own), and
 * only of a new like. After the access check, one batch: the like, the author's notification if the like is new
 * (with the devices to push it to), and the post's count as the like left it.
 */
export async function likePost(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  viewerId: number,
  postId: number,
): Promise<LikeState> {
  const { db } = ctx;
  const { authorId } = await requirePostAccess(db, postId, viewerId, "open");
  const like = db
    .prepare("INSERT OR IGNORE INTO likes (user_id, post_id, created_at) VALUES (?, ?, ?)")
    .bind(viewerId, postId, isoNow());
  const notification =
    authorId === viewerId
      ? null
      : notificationStatementsIfChanged(ctx, { userId: authorId, kind: "like", actorId: viewerId, params: { postId } });
  const results = await db.batch([like, ...(notification?.statements ?? []), likeCountStatement(db, postId)]);
  const created = notification?.created(results.slice(1, -1));
  if (created) ctx.publish(created);
  return { liked: true, likeCount: likeCountOf(results.at(-1)) };
}

/** Takes a like back; allowed while the post is visible, even if it has been locked since. */
export async function unlikePost(db: D1Database, viewerId: number, postId: number): Promise<LikeState> {
  await requirePostAccess(db, postId, viewerId, "see");
  const [, count] = await db.batch([
    db.prepare("DELETE FROM likes WHERE user_id = ? AND post_id = ?").bind(viewerId, postId),
    likeCountStatement(db, postId),
  ]);
  return { liked: false, likeCount: likeCountOf(count) };
}
