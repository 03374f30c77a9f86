import type { AlbumBody, VaultAlbum } from "@shared/contracts/vault";
import type { Viewer } from "../policies/policy";
import { isoNow } from "../shared/time";
import { requireVaultOwner } from "./creators-only";

/** POST /api/vault/albums: a new, empty album. */
export async function createAlbum(db: D1Database, viewer: Viewer, body: AlbumBody): Promise<VaultAlbum> {
  requireVaultOwner(viewer);
  const row = await db
    .prepare("INSERT INTO vault_albums (creator_id, name, created_at) VALUES (?1, ?2, ?3) RETURNING id, name")
    .bind(viewer.id, body.name, isoNow())
    .first<{ id: number; name: string }>();
  return { id: row!.id, name: row!.name, itemCount: 0 };
}
