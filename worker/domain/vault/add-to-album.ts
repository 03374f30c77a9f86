import type { VaultAlbum } from "@shared/contracts/vault";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { presentAlbum } from "./list-albums";
import { ALBUM_NOT_FOUND, FILE_NOT_IN_VAULT, IN_VAULT_OF_CREATOR_SQL, requireVaultOwner } from "./creators-only";

/**
 * PUT /api/vault/albums/{id}/items/{mediaId}: the file joins the album; putting it again changes nothing. The
 * album and the file must both be the creator's (else not found), checked inside the statements that read them.
 * Answers the album as it now is.
 */
export async function addToAlbum(
  db: D1Database,
  viewer: Viewer,
  albumId: number,
  mediaId: number,
): Promise<VaultAlbum> {
  requireVaultOwner(viewer);
  const [file, album] = await db.batch<{ id: number; name: string; item_count: number }>([
    db
      .prepare(
        `INSERT INTO vault_album_items (album_id, media_id, added_at)
         SELECT a.id, m.id, ?4 FROM vault_albums a, media m
         WHERE a.id = ?2 AND a.creator_id = ?1 AND m.id = ?3 AND ${IN_VAULT_OF_CREATOR_SQL}
         ON CONFLICT (album_id, media_id) DO UPDATE SET added_at = added_at
         RETURNING album_id AS id`,
      )
      .bind(viewer.id, albumId, mediaId, isoNow()),
    db
      .prepare(
        `SELECT a.id, a.name, (SELECT COUNT(*) FROM vault_album_items i WHERE i.album_id = a.id) AS item_count
         FROM vault_albums a WHERE a.id = ?2 AND a.creator_id = ?1`,
      )
      .bind(viewer.id, albumId),
  ]);
  const found = album!.results[0];
  if (!found) throw new AppError("not_found", ALBUM_NOT_FOUND);
  if (file!.results.length === 0) throw new AppError("not_found", FILE_NOT_IN_VAULT);
  return presentAlbum(found);
}
