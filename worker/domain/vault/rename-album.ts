import type { AlbumBody, VaultAlbum } from "@shared/contracts/vault";
import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { ALBUM_NOT_FOUND, requireVaultOwner } from "./creators-only";

/** PATCH /api/vault/albums/{id}: a new name. Another creator's album is not found. */
export async function renameAlbum(
  db: D1Database,
  viewer: Viewer,
  albumId: number,
  body: AlbumBody,
): Promise<VaultAlbum> {
  requireVaultOwner(viewer);
  const row = await db
    .prepare(
      `UPDATE vault_albums SET name = ?3 WHERE id = ?2 AND creator_id = ?1
       RETURNING id, name, (SELECT COUNT(*) FROM vault_album_items i WHERE i.album_id = ?2) AS item_count`,
    )
    .bind(viewer.id, albumId, body.name)
    .first<{ id: number; name: string; item_count: number }>();
  if (!row) throw new AppError("not_found", ALBUM_NOT_FOUND);
  return { id: row.id, name: row.name, itemCount: row.item_count };
}
