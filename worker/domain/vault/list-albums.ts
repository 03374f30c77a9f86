import type { VaultAlbum } from "@shared/contracts/vault";
import type { Viewer } from "../policies/policy";
import { requireVaultOwner } from "./creators-only";

interface AlbumRow {
  id: number;
  name: string;
  item_count: number;
}

/** GET /api/vault/albums: the creator's albums in the order they made them, each with how many files it holds. */
export async function listAlbums(db: D1Database, viewer: Viewer): Promise<{ albums: VaultAlbum[] }> {
  requireVaultOwner(viewer);
  const { results } = await db
    .prepare(
      `SELECT a.id, a.name, (SELECT COUNT(*) FROM vault_album_items i WHERE i.album_id = a.id) AS item_count
       FROM vault_albums a WHERE a.creator_id = ?1 ORDER BY a.id`,
    )
    .bind(viewer.id)
    .all<AlbumRow>();
  return { albums: results.map(presentAlbum) };
}

export const presentAlbum = (row: AlbumRow): VaultAlbum => ({ id: row.id, name: row.name, itemCount: row.item_count });
