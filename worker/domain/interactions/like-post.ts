import type { DomainContext } from "../context";
import { createNotification } from "../notifications/notifications";
import { isoNow } from "../shared/time";
import { requirePostAccess } from "../policies/posts";

export interface LikeState {
  liked: boolean;
  likeCount: number;
}

const likeCountOf = async (db: D1Database, postId: number) =>
  (await db.prepare("SELECT like_count FROM posts WHERE id = ?").bind(postId).first<{ like_count: number }>())?.like_count ?? 0;

/** Likes a post the viewer may open; liking twice changes nothing. The author hears of it (not of their own). */
export async function likePost(ctx: Pick<DomainContext, "db" | "publish">, viewerId: number, postId: number): Promise<LikeState> {
  const { authorId } = await requirePostAccess(ctx.db, postId, viewerId, "open");
  const inserted = await ctx.db.prepare("INSERT OR IGNORE INTO likes (user_id, post_id, created_at) VALUES (?, ?, ?)").bind(viewerId, postId, isoNow()).run();
  if ((inserted.meta.changes ?? 0) > 0 && authorId !== viewerId) {
    await createNotification(ctx, { userId: authorId, kind: "like", actorId: viewerId, params: { postId } });
  }
  return { liked: true, likeCount: await likeCountOf(ctx.db, postId) };
}

/** Takes a like back; allowed while the post is visible, even if it has been locked since. */
export async function unlikePost(db: D1Database, viewerId: number, postId: number): Promise<LikeState> {
  await requirePostAccess(db, postId, viewerId, "see");
  await db.prepare("DELETE FROM likes WHERE user_id = ? AND post_id = ?").bind(viewerId, postId).run();
  return { liked: false, likeCount: await likeCountOf(db, postId) };
}
