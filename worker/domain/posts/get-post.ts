import { visiblePostSql } from "../policies/posts";
import { isoNow } from "../shared/time";
import { POST_SELECT_SQL, presentPosts, type PostRow, type PostView } from "./present-posts";

/**
 * One post as this viewer may see it. Published posts are for everyone allowed; the author also sees their own
 * scheduled and processing posts. Posts that do not exist for the viewer (visiblePostSql) are not found.
 */
export async function getPost(db: D1Database, postId: number, viewerId: number | null): Promise<PostView | null> {
  const row = await db
    .prepare(`${POST_SELECT_SQL} WHERE p.id = ?3 AND ${visiblePostSql("own-drafts")}`)
    .bind(viewerId, isoNow(), postId)
    .first<PostRow>();
  if (!row) return null;
  const [post] = presentPosts([row], viewerId);
  return post ?? null;
}
