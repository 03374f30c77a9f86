import { visiblePostSql } from "../policies/posts";
import { POST_SELECT_SQL, presentPosts, type PostRow } from "../posts/present-posts";
import { encodeCursor, type Cursor } from "../shared/cursor";
import { isoNow } from "../shared/time";
import type { TimelinePage } from "../timeline/get-timeline";

const BOOKMARKS_PAGE_SIZE = 20;

/**
 * /bookmarks: the viewer's saved posts, most recently saved first, keyset-paged over (bookmarked at, post id).
 * Posts the viewer can no longer see (block, suspended author, unpublished) drop out; locked ones stay locked.
 */
export async function listBookmarks(db: D1Database, viewerId: number, cursor: Cursor | null): Promise<TimelinePage> {
  const { results: saved } = await db
    .prepare(
      `SELECT post_id, created_at FROM bookmarks
       WHERE user_id = ?1 AND (?2 IS NULL OR created_at < ?2 OR (created_at = ?2 AND post_id < ?3))
       ORDER BY created_at DESC, post_id DESC LIMIT ?4`,
    )
    .bind(viewerId, cursor?.at ?? null, cursor?.id ?? 0, BOOKMARKS_PAGE_SIZE + 1)
    .all<{ post_id: number; created_at: string }>();
  const page = saved.slice(0, BOOKMARKS_PAGE_SIZE);
  const last = page.at(-1);
  const nextCursor = saved.length > BOOKMARKS_PAGE_SIZE && last ? encodeCursor(last.created_at, last.post_id) : null;
  if (page.length === 0) return { posts: [], nextCursor };
  const { results } = await db
    .prepare(`${POST_SELECT_SQL} WHERE p.id IN (SELECT value FROM json_each(?3)) AND ${visiblePostSql()}`)
    .bind(viewerId, isoNow(), JSON.stringify(page.map((b) => b.post_id)))
    .all<PostRow>();
  const order = new Map(page.map((b, index) => [b.post_id, index]));
  results.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { posts: presentPosts(results, viewerId), nextCursor };
}
