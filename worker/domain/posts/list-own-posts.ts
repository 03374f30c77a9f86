import { decodeCursor, encodeCursor } from "../shared/cursor";
import { fieldError } from "../shared/errors";
import { INVALID_VALUE } from "@shared/messages";
import { isoNow } from "../shared/time";
import { POSTS_PAGE_SIZE } from "./post-rules";
import { POST_SELECT_SQL, presentPosts, type PostRow, type PostView } from "./present-posts";
import type { UploadState, ProcessingPostView } from "@shared/contracts/posts";
export { type ProcessingPostView };

export interface OwnPostsPage<T> {
  posts: T[];
  /** Pass back as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * /scheduled: the author's scheduled posts, soonest first, by keyset over (scheduled_at, id). The author is the
 * viewer (?1), so the presenter shows them everything.
 */
export async function listScheduledPosts(
  db: D1Database,
  authorId: number,
  cursor: string | null,
): Promise<OwnPostsPage<PostView>> {
  const after = cursor === null ? null : decodeCursor(cursor);
  if (cursor !== null && !after) throw fieldError("cursor", INVALID_VALUE);
  const { results } = await db
    .prepare(
      `${POST_SELECT_SQL}
       WHERE p.user_id = ?1 AND p.status = 'scheduled'
         AND (?3 IS NULL OR p.scheduled_at > ?3 OR (p.scheduled_at = ?3 AND p.id > ?4))
       ORDER BY p.scheduled_at, p.id LIMIT ?5`,
    )
    .bind(authorId, isoNow(), after?.at ?? null, after?.id ?? 0, POSTS_PAGE_SIZE + 1)
    .all<PostRow>();
  const page = results.slice(0, POSTS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    posts: presentPosts(page, authorId),
    nextCursor: results.length > POSTS_PAGE_SIZE && last ? encodeCursor(last.scheduled_at!, last.id) : null,
  };
}

/** /processing: the author's posts still waiting for uploads, newest first, by keyset over id (`before`: the last id shown). */
export async function listProcessingPosts(
  db: D1Database,
  authorId: number,
  before: number | null,
): Promise<OwnPostsPage<ProcessingPostView>> {
  const { results } = await db
    .prepare(
      `${POST_SELECT_SQL} WHERE p.user_id = ?1 AND p.status = 'processing' AND p.id < ?3 ORDER BY p.id DESC LIMIT ?4`,
    )
    .bind(authorId, isoNow(), before ?? Number.MAX_SAFE_INTEGER, POSTS_PAGE_SIZE + 1)
    .all<PostRow>();
  const page = results.slice(0, POSTS_PAGE_SIZE);
  const posts = presentPosts(page, authorId);
  const uploads = await db
    .prepare(
      `SELECT m.id, x.post_id, m.kind, m.status FROM post_media x JOIN media m ON m.id = x.media_id
       WHERE x.post_id IN (SELECT value FROM json_each(?)) ORDER BY x.post_id, x.position`,
    )
    .bind(JSON.stringify(page.map((row) => row.id)))
    .all<{ id: number; post_id: number; kind: "image" | "video"; status: UploadState }>();
  const last = page.at(-1);
  return {
    posts: posts.map((post) => ({
      ...post,
      uploads: uploads.results
        .filter((u) => u.post_id === post.id)
        .map(({ id, kind, status }) => ({ id, kind, status })),
    })),
    nextCursor: results.length > POSTS_PAGE_SIZE && last ? String(last.id) : null,
  };
}
