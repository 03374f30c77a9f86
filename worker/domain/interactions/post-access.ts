import { lockOf, VIEWER_FACTS_SQL, viewerFactsOf, type Audience, type LockReason, type ViewerFactsRow } from "../posts/access";
import { AppError } from "../shared/errors";
import { message } from "../shared/messages";
import { isoNow } from "../shared/time";

export const POST_NOT_FOUND = message("This post does not exist.");
export const POST_LOCKED = message("Unlock this post first.");

export interface PostAccess {
  authorId: number;
  /** What the viewer must still do to open it (null: open). */
  lock: LockReason | null;
  priceCents: number;
  /** Only creators take money (a member who stopped being one keeps their posts). */
  authorIsCreator: boolean;
}

/**
 * Before a like, comment or bookmark: the post must exist for the viewer (published, or their own; author not
 * suspended; no block either way), else 404. `needsOpen` also asks that the viewer may open it (a like or a
 * comment is on the content), else 403. Nothing is written by the caller before this passes.
 */
export async function requirePostAccess(db: D1Database, postId: number, viewerId: number | null, needsOpen: boolean): Promise<PostAccess> {
  const row = await db
    .prepare(
      `SELECT p.user_id, p.audience, p.price_cents, u.role AS author_role, ${VIEWER_FACTS_SQL}
       FROM posts p JOIN users u ON u.id = p.user_id
       WHERE p.id = ?3 AND u.suspended_at IS NULL AND (p.status = 'published' OR p.user_id = ?1)`,
    )
    .bind(viewerId, isoNow(), postId)
    .first<ViewerFactsRow & { user_id: number; audience: Audience; price_cents: number; author_role: string }>();
  if (!row) throw new AppError("not_found", POST_NOT_FOUND);
  const lock = lockOf({ authorId: row.user_id, audience: row.audience, priceCents: row.price_cents }, viewerFactsOf(viewerId, row));
  if (lock === "hidden") throw new AppError("not_found", POST_NOT_FOUND);
  if (needsOpen && lock !== null) throw new AppError("forbidden", POST_LOCKED);
  return { authorId: row.user_id, lock, priceCents: row.price_cents, authorIsCreator: row.author_role === "creator" };
}
