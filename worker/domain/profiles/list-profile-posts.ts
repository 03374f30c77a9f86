import { visiblePostSql } from "../policies/posts";
import { POST_SELECT_SQL, presentPosts, type PostRow } from "../posts/present-posts";
import { encodeCursor, OLDER_THAN_CURSOR_SQL, type Cursor } from "../shared/cursor";
import { isoNow } from "../shared/time";
import type { ProfileTab, ProfilePostsPage } from "@shared/contracts/posts";
export { type ProfileTab, type ProfilePostsPage };

const PROFILE_PAGE_SIZE = 20;

/**
 * The author's published posts, newest first, as `viewerId` may see them (locked ones without media URLs; none
 * when a block stands between them). The media tab keeps only posts with media; the client lays their items out
 * as a gallery.
 */
export function profilePostsStatement(
  db: D1Database,
  authorId: number,
  viewerId: number | null,
  tab: ProfileTab,
  cursor: Cursor | null,
) {
  const conditions = ["p.user_id = ?3", visiblePostSql()];
  if (tab === "media")
    conditions.push(
      "EXISTS (SELECT 1 FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = p.id AND m.status = 'ready')",
    );
  if (cursor) conditions.push(OLDER_THAN_CURSOR_SQL);
  return db
    .prepare(
      `${POST_SELECT_SQL} WHERE ${conditions.join(" AND ")} ORDER BY p.published_at DESC, p.id DESC LIMIT ${PROFILE_PAGE_SIZE + 1}`,
    )
    .bind(viewerId, isoNow(), authorId, ...(cursor ? [cursor.at, cursor.at, cursor.id] : []));
}

/** Presents one page of rows read by profilePostsStatement (one extra row says whether more follow). */
export async function presentProfilePage(
  db: D1Database,
  rows: PostRow[],
  viewerId: number | null,
): Promise<ProfilePostsPage> {
  const page = rows.slice(0, PROFILE_PAGE_SIZE);
  const last = page.at(-1);
  const nextCursor =
    rows.length > PROFILE_PAGE_SIZE && last?.published_at ? encodeCursor(last.published_at, last.id) : null;
  return { posts: presentPosts(page, viewerId), nextCursor };
}

export async function listProfilePosts(
  db: D1Database,
  authorId: number,
  viewerId: number | null,
  tab: ProfileTab,
  cursor: Cursor | null,
): Promise<ProfilePostsPage> {
  const { results } = await profilePostsStatement(db, authorId, viewerId, tab, cursor).all<PostRow>();
  return presentProfilePage(db, results, viewerId);
}
