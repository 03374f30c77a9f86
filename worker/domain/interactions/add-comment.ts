import type { DomainContext } from "../context";
import { createNotification } from "../notifications/notifications";
import { isoNow } from "../shared/time";
import { COMMENT_SELECT_SQL, presentComment, type CommentRow, type CommentView } from "./comment-view";
import { requirePostAccess } from "../policies/posts";

/** Comments on a post the viewer may open; the post's author is notified (unless it is their own comment). */
export async function addComment(ctx: Pick<DomainContext, "db" | "publish">, viewerId: number, postId: number, text: string): Promise<CommentView> {
  const { authorId } = await requirePostAccess(ctx.db, postId, viewerId, "open");
  const inserted = await ctx.db
    .prepare("INSERT INTO comments (post_id, user_id, text, created_at) VALUES (?, ?, ?, ?) RETURNING id")
    .bind(postId, viewerId, text, isoNow())
    .first<{ id: number }>();
  const row = await ctx.db.prepare(`${COMMENT_SELECT_SQL} WHERE c.id = ?`).bind(inserted!.id).first<CommentRow>();
  if (authorId !== viewerId) {
    await createNotification(ctx, { userId: authorId, kind: "comment", actorId: viewerId, params: { postId, commentId: inserted!.id } });
  }
  return presentComment(row!, viewerId);
}
