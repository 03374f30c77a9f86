import { isoNow } from "../shared/time";
import { lockOf, VIEWER_FACTS_SQL, viewerFactsOf, type Audience, type ViewerFactsRow } from "./access";

/** Which variant of a post medium a key names: the file itself, its poster frame, or its blurred preview. */
type Variant = "original" | "poster" | "preview";

/**
 * For /media/{key} of post media: may this viewer fetch it, right now? The original and the poster need the
 * post open to the viewer; the blurred preview only needs the post to be visible (no block). Unknown keys,
 * unpublished posts of others and suspended authors are simply "no".
 */
export async function canFetchPostMedia(db: D1Database, objectKey: string, viewerId: number | null): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT p.user_id, p.audience, p.price_cents, p.status,
              CASE WHEN m.object_key = ?3 THEN 'original' WHEN m.poster_key = ?3 THEN 'poster' ELSE 'preview' END AS variant,
              ${VIEWER_FACTS_SQL}
       FROM media m JOIN posts p ON p.id = m.post_id JOIN users u ON u.id = p.user_id
       WHERE (m.object_key = ?3 OR m.poster_key = ?3 OR m.preview_key = ?3) AND m.status = 'ready' AND u.suspended_at IS NULL`,
    )
    .bind(viewerId, isoNow(), objectKey)
    .first<ViewerFactsRow & { user_id: number; audience: Audience; price_cents: number; status: string; variant: Variant }>();
  if (!row) return false;
  if (row.status !== "published" && row.user_id !== viewerId) return false;
  const lock = lockOf({ authorId: row.user_id, audience: row.audience, priceCents: row.price_cents }, viewerFactsOf(viewerId, row));
  if (lock === "hidden") return false;
  return row.variant === "preview" || lock === null;
}
