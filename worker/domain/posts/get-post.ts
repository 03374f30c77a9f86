import { visiblePostSql } from "../policies/posts";
import { isoNow } from "../shared/time";
import { readOne, type Read } from "../shared/reads";
import { POST_SELECT_SQL, presentPosts, type PostRow, type PostView } from "./present-posts";

/**
 * One post as this viewer may see it. Published posts are for everyone allowed; the author also sees their own
 * scheduled and processing posts. Posts that do not exist for the viewer (visiblePostSql) are not found.
 */
export const getPost = (db: D1Database, postId: number, viewerId: number | null): Promise<PostView | null> =>
  readOne(postRead(db, postId, viewerId));

/** getPost as a read, for a page that sends it in one batch with its other reads. */
export function postRead(db: D1Database, postId: number, viewerId: number | null): Read<PostView | null> {
  return {
    statement: db
      .prepare(`${POST_SELECT_SQL} WHERE p.id = ?3 AND ${visiblePostSql("own-drafts")}`)
      .bind(viewerId, isoNow(), postId),
    answer: (result) => presentPosts(result.results as PostRow[], viewerId)[0] ?? null,
  };
}
