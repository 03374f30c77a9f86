import { COMMENT_SELECT_SQL, presentComment, type CommentRow, type CommentView } from "./comment-view";
import { onceAllowed } from "../../db/request-database";
import { requirePostAccess } from "../policies/posts";

export const COMMENTS_PAGE_SIZE = 20;

/**
 * The comments of a post the viewer (or visitor) may open, oldest first, a page at a time after the comment id
 * `after`. Comments of suspended users are left out. One round trip: the page is asked with the access check (one
 * batch through the request's database) and handed over only once the post opens for the viewer.
 */
export async function listComments(db: D1Database, postId: number, viewerId: number | null, after: number | null): Promise<{ comments: CommentView[]; nextCursor: string | null }> {
  const { results } = await onceAllowed(
    requirePostAccess(db, postId, viewerId, "open"),
    db
      .prepare(`${COMMENT_SELECT_SQL} WHERE c.post_id = ?1 AND c.id > ?2 AND u.suspended_at IS NULL ORDER BY c.id LIMIT ?3`)
      .bind(postId, after ?? 0, COMMENTS_PAGE_SIZE + 1)
      .all<CommentRow>(),
  );
  const page = results.slice(0, COMMENTS_PAGE_SIZE);
  return {
    comments: page.map((row) => presentComment(row, viewerId)),
    nextCursor: results.length > COMMENTS_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
}
