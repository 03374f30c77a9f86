import type { DomainContext } from "../context";
import { IDEMPOTENCY_KEY_REUSED } from "../money/rules";
import { createNotification } from "../notifications/notifications";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { COMMENT_SELECT_SQL, presentComment, type CommentRow, type CommentView } from "./comment-view";
import { requirePostAccess } from "../policies/posts";

/**
 * Comments on a post the viewer may open; the post's author is notified (unless it is their own comment). With a
 * client id (the offline outbox's), sending it again stores nothing new and answers with the first comment.
 */
export async function addComment(
  ctx: Pick<DomainContext, "db" | "publish">,
  viewerId: number,
  postId: number,
  text: string,
  clientId: string | null = null,
): Promise<{ comment: CommentView; replayed: boolean }> {
  const { authorId } = await requirePostAccess(ctx.db, postId, viewerId, "open");
  const inserted = await ctx.db
    .prepare(
      `INSERT INTO comments (post_id, user_id, text, client_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, client_id) WHERE client_id IS NOT NULL DO NOTHING RETURNING id`,
    )
    .bind(postId, viewerId, text, clientId, isoNow())
    .first<{ id: number }>();
  if (!inserted) {
    const first = await ctx.db.prepare(`${COMMENT_SELECT_SQL} WHERE c.user_id = ? AND c.client_id = ?`).bind(viewerId, clientId).first<CommentRow>();
    if (!first || first.post_id !== postId) throw new AppError("conflict", IDEMPOTENCY_KEY_REUSED);
    return { comment: presentComment(first, viewerId), replayed: true };
  }
  const row = await ctx.db.prepare(`${COMMENT_SELECT_SQL} WHERE c.id = ?`).bind(inserted.id).first<CommentRow>();
  if (authorId !== viewerId) {
    await createNotification(ctx, { userId: authorId, kind: "comment", actorId: viewerId, params: { postId, commentId: inserted.id } });
  }
  return { comment: presentComment(row!, viewerId), replayed: false };
}
