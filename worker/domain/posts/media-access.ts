import { isoNow } from "../shared/time";
import { lockOf, VIEWER_FACTS_SQL, viewerFactsOf, type Audience, type ViewerFactsRow } from "./access";

/** Which variant of a post medium a key names: the file itself, its poster frame, or its blurred preview. */
type Variant = "original" | "poster" | "preview";

interface MediaAccessRow extends ViewerFactsRow {
  uploader_id: number;
  post_id: number | null;
  status: string | null;
  media_status: string;
  user_id: number;
  audience: Audience;
  price_cents: number;
  author_suspended: number;
  variant: Variant;
}

/**
 * For /media/{key} of post media: may this viewer fetch it, right now? The uploader always may (the composer
 * shows a file before it belongs to a post, and a processing or scheduled post to its author). Anyone else
 * needs a published post of an author not suspended, open to them for the original and the poster; the
 * blurred preview only needs the post to be visible (no block). Unknown keys are simply "no".
 */
export async function canFetchPostMedia(db: D1Database, objectKey: string, viewerId: number | null): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT m.user_id AS uploader_id, m.post_id, m.status AS media_status, p.user_id, p.audience, p.price_cents, p.status,
              u.suspended_at IS NOT NULL AS author_suspended,
              CASE WHEN m.object_key = ?3 THEN 'original' WHEN m.poster_key = ?3 THEN 'poster' ELSE 'preview' END AS variant,
              ${VIEWER_FACTS_SQL}
       FROM media m LEFT JOIN posts p ON p.id = m.post_id LEFT JOIN users u ON u.id = p.user_id
       WHERE (m.object_key = ?3 OR m.poster_key = ?3 OR m.preview_key = ?3) AND m.purpose = 'post'`,
    )
    .bind(viewerId, isoNow(), objectKey)
    .first<MediaAccessRow>();
  if (!row) return false;
  if (viewerId !== null && row.uploader_id === viewerId) return true;
  if (row.post_id === null || row.media_status !== "ready" || row.status !== "published" || row.author_suspended === 1) return false;
  const lock = lockOf({ authorId: row.user_id, audience: row.audience, priceCents: row.price_cents }, viewerFactsOf(viewerId, row));
  if (lock === "hidden") return false;
  return row.variant === "preview" || lock === null;
}
