import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { ALBUM_NOT_FOUND, requireVaultOwner } from "./creators-only";

/** DELETE /api/vault/albums/{id}/items/{mediaId}: the file leaves the album (it stays in the vault); idempotent. */
export async function removeFromAlbum(db: D1Database, viewer: Viewer, albumId: number, mediaId: number): Promise<void> {
  requireVaultOwner(viewer);
  const [album] = await db.batch<{ found: number }>([
    db.prepare("SELECT 1 AS found FROM vault_albums WHERE id = ?2 AND creator_id = ?1").bind(viewer.id, albumId),
    db
      .prepare(
        `DELETE FROM vault_album_items WHERE album_id = ?2 AND media_id = ?3
           AND album_id IN (SELECT id FROM vault_albums WHERE creator_id = ?1)`,
      )
      .bind(viewer.id, albumId, mediaId),
  ]);
  if (album!.results.length === 0) throw new AppError("not_found", ALBUM_NOT_FOUND);
}
