import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { ALBUM_NOT_FOUND, FILE_NOT_IN_VAULT, IN_VAULT_OF_CREATOR_SQL, requireVaultOwner } from "./creators-only";

/**
 * PUT /api/vault/albums/{id}/items/{mediaId}: the file joins the album; putting it again changes nothing. The
 * album and the file must both be the creator's (else not found), checked inside the statements that read them.
 */
export async function addToAlbum(db: D1Database, viewer: Viewer, albumId: number, mediaId: number): Promise<void> {
  requireVaultOwner(viewer);
  const [album, file] = await db.batch<{ found: number }>([
    db.prepare("SELECT 1 AS found FROM vault_albums WHERE id = ?2 AND creator_id = ?1").bind(viewer.id, albumId),
    db
      .prepare(
        `INSERT INTO vault_album_items (album_id, media_id, added_at)
         SELECT a.id, m.id, ?4 FROM vault_albums a, media m
         WHERE a.id = ?2 AND a.creator_id = ?1 AND m.id = ?3 AND ${IN_VAULT_OF_CREATOR_SQL}
         ON CONFLICT (album_id, media_id) DO UPDATE SET added_at = added_at
         RETURNING 1 AS found`,
      )
      .bind(viewer.id, albumId, mediaId, isoNow()),
  ]);
  if (album!.results.length === 0) throw new AppError("not_found", ALBUM_NOT_FOUND);
  if (file!.results.length === 0) throw new AppError("not_found", FILE_NOT_IN_VAULT);
}
