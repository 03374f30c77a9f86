import { isoNow } from "../shared/time";
import { requirePostAccess } from "../policies/posts";

/** Keeps a visible post in the viewer's bookmarks (a locked one too: it stays a locked card there). */
export async function bookmarkPost(db: D1Database, viewerId: number, postId: number): Promise<{ bookmarked: boolean }> {
  await requirePostAccess(db, postId, viewerId, "see");
  await db
    .prepare("INSERT OR IGNORE INTO bookmarks (user_id, post_id, created_at) VALUES (?, ?, ?)")
    .bind(viewerId, postId, isoNow())
    .run();
  return { bookmarked: true };
}

export async function unbookmarkPost(
  db: D1Database,
  viewerId: number,
  postId: number,
): Promise<{ bookmarked: boolean }> {
  await requirePostAccess(db, postId, viewerId, "see");
  await db.prepare("DELETE FROM bookmarks WHERE user_id = ? AND post_id = ?").bind(viewerId, postId).run();
  return { bookmarked: false };
}
