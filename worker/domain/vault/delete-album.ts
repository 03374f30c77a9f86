import type { Viewer } from "../policies/policy";
import { AppError } from "../shared/errors";
import { ALBUM_NOT_FOUND, requireVaultOwner } from "./creators-only";

/** DELETE /api/vault/albums/{id}: the album goes; its files stay in the vault (its item rows go by the foreign key). */
export async function deleteAlbum(db: D1Database, viewer: Viewer, albumId: number): Promise<void> {
  requireVaultOwner(viewer);
  const { meta } = await db
    .prepare("DELETE FROM vault_albums WHERE id = ?2 AND creator_id = ?1")
    .bind(viewer.id, albumId)
    .run();
  if (meta.changes === 0) throw new AppError("not_found", ALBUM_NOT_FOUND);
}
