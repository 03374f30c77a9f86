import { publicMediaUrl } from "../accounts/users";
import type { DomainContext } from "../context";
import { createNotification } from "../notifications/notifications";
import { AppError } from "../shared/errors";
import { message } from "../shared/messages";
import { isoNow } from "../shared/time";
import { requirePostAccess } from "./post-access";

export const COMMENTS_PAGE_SIZE = 20;
export const COMMENT_MAX = 1000;
export const COMMENT_NOT_FOUND = message("This comment does not exist.");

export interface CommentView {
  id: number;
  postId: number;
  text: string;
  createdAt: string;
  author: { id: number; username: string; name: string; avatarUrl: string };
  /** The comment's author and the post's author may delete it. */
  canDelete: boolean;
}

interface CommentRow {
  id: number;
  post_id: number;
  text: string;
  created_at: string;
  user_id: number;
  post_author_id: number;
  username: string;
  name: string;
  avatar_key: string | null;
}

const COMMENT_SELECT_SQL = `SELECT c.id, c.post_id, c.text, c.created_at, c.user_id, p.user_id AS post_author_id, u.username, u.name, u.avatar_key
  FROM comments c JOIN posts p ON p.id = c.post_id JOIN users u ON u.id = c.user_id`;

const presentComment = (row: CommentRow, viewerId: number | null): CommentView => ({
  id: row.id,
  postId: row.post_id,
  text: row.text,
  createdAt: row.created_at,
  author: { id: row.user_id, username: row.username, name: row.name, avatarUrl: publicMediaUrl(row.avatar_key) },
  canDelete: viewerId !== null && (viewerId === row.user_id || viewerId === row.post_author_id),
});

/**
 * The comments of a post the viewer (or visitor) may open, oldest first, a page at a time after the comment id
 * `after`. Comments of suspended users are left out.
 */
export async function listComments(db: D1Database, postId: number, viewerId: number | null, after: number | null): Promise<{ comments: CommentView[]; nextCursor: string | null }> {
  await requirePostAccess(db, postId, viewerId, true);
  const { results } = await db
    .prepare(`${COMMENT_SELECT_SQL} WHERE c.post_id = ?1 AND c.id > ?2 AND u.suspended_at IS NULL ORDER BY c.id LIMIT ?3`)
    .bind(postId, after ?? 0, COMMENTS_PAGE_SIZE + 1)
    .all<CommentRow>();
  const page = results.slice(0, COMMENTS_PAGE_SIZE);
  return {
    comments: page.map((row) => presentComment(row, viewerId)),
    nextCursor: results.length > COMMENTS_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
}

/** Comments on a post the viewer may open; the post's author is notified (unless it is their own comment). */
export async function addComment(ctx: Pick<DomainContext, "db" | "env">, viewerId: number, postId: number, text: string): Promise<CommentView> {
  const { authorId } = await requirePostAccess(ctx.db, postId, viewerId, true);
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

/** Deletes a comment written by the viewer or left on the viewer's post; anything else is "not found". */
export async function deleteComment(db: D1Database, viewerId: number, commentId: number): Promise<void> {
  const result = await db
    .prepare("DELETE FROM comments WHERE id = ?1 AND (user_id = ?2 OR post_id IN (SELECT id FROM posts WHERE id = comments.post_id AND user_id = ?2))")
    .bind(commentId, viewerId)
    .run();
  if ((result.meta.changes ?? 0) === 0) throw new AppError("not_found", COMMENT_NOT_FOUND);
}
