import type { CommentPage } from "@shared/contracts/posts";
import { COMMENT_SELECT_SQL, presentComment, type CommentRow } from "./comment-view";
import { postAccessCheck } from "../policies/posts";
import { readTogether, type Read } from "../shared/reads";

const COMMENTS_PAGE_SIZE = 20;

/**
 * The comments of a post, oldest first, a page at a time after the comment id `after`, read without an access
 * check: send it with one (listComments) or with the post, whose lock says whether they count. Comments of
 * suspended users are left out.
 */
export function commentsRead(
  db: D1Database,
  postId: number,
  viewerId: number | null,
  after: number | null,
): Read<CommentPage> {
  return {
    statement: db
      .prepare(
        `${COMMENT_SELECT_SQL} WHERE c.post_id = ?1 AND c.id > ?2 AND u.suspended_at IS NULL ORDER BY c.id LIMIT ?3`,
      )
      .bind(postId, after ?? 0, COMMENTS_PAGE_SIZE + 1),
    answer(result) {
      const rows = result.results as CommentRow[];
      const page = rows.slice(0, COMMENTS_PAGE_SIZE);
      return {
        comments: page.map((row) => presentComment(row, viewerId)),
        nextCursor: rows.length > COMMENTS_PAGE_SIZE ? String(page.at(-1)!.id) : null,
      };
    },
  };
}

/** A page of the comments of a post the viewer (or visitor) may open: one batch, the access check first. */
export async function listComments(
  db: D1Database,
  postId: number,
  viewerId: number | null,
  after: number | null,
): Promise<CommentPage> {
  const [, comments] = await readTogether(db, [
    postAccessCheck(db, postId, viewerId, "open"),
    commentsRead(db, postId, viewerId, after),
  ]);
  return comments;
}
