import type { DomainContext } from "../context";
import { IDEMPOTENCY_KEY_REUSED } from "../money/rules";
import { notificationStatementsIfChanged } from "../notifications/notifications";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { COMMENT_SELECT_SQL, presentComment, type CommentRow, type CommentView } from "./comment-view";
import { requirePostAccess } from "../policies/posts";

/**
 * Comments on a post the viewer may open; the post's author is notified (unless it is their own comment). With a
 * client id (the offline outbox's), sending it again stores nothing new and answers with the first comment.
 */
export async function addComment(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  viewerId: number,
  postId: number,
  text: string,
  clientId: string | null = null,
): Promise<{ comment: CommentView; replayed: boolean }> {
  const { authorId } = await requirePostAccess(ctx.db, postId, viewerId, "open");
  // One batch: the comment, the comment as it is shown, and the author's notification with the devices to push it
  // to. The last two only if the comment was stored now (changes() of the INSERT; a SELECT leaves it as it is), and
  // they find it by last_insert_rowid(): a comment sent again stores nothing and reads nothing here.
  const notification =
    authorId === viewerId
      ? null
      : notificationStatementsIfChanged(ctx, {
          userId: authorId,
          kind: "comment",
          actorId: viewerId,
          paramsSql: { sql: "json_object('postId', ?, 'commentId', last_insert_rowid())", binds: [postId] },
        });
  const results = await ctx.db.batch([
    ctx.db
      .prepare(
        `INSERT INTO comments (post_id, user_id, text, client_id, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, client_id) WHERE client_id IS NOT NULL DO NOTHING`,
      )
      .bind(postId, viewerId, text, clientId, isoNow()),
    ctx.db.prepare(`${COMMENT_SELECT_SQL} WHERE c.id = last_insert_rowid() AND changes() = 1`),
    ...(notification?.statements ?? []),
  ]);
  const row = results[1]!.results[0] as CommentRow | undefined;
  if (!row) {
    const first = await ctx.db
      .prepare(`${COMMENT_SELECT_SQL} WHERE c.user_id = ? AND c.client_id = ?`)
      .bind(viewerId, clientId)
      .first<CommentRow>();
    if (!first || first.post_id !== postId) throw new AppError("conflict", IDEMPOTENCY_KEY_REUSED);
    return { comment: presentComment(first, viewerId), replayed: true };
  }
  const created = notification?.created(results.slice(2));
  if (created) ctx.publish(created);
  return { comment: presentComment(row, viewerId), replayed: false };
}
