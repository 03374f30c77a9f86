import type { VaultUse } from "@shared/contracts/vault";
import type { Env } from "../../env";
import { deleteStoredObjects, type Discarded } from "../media/discard-media";
import { STORED_KEY_COLUMNS } from "../media/uploads";
import { listVaultItemUses, requireOwnVaultFile, VAULT_FILE_USED_SQL } from "./list-vault-item-uses";

/** The request's D1 session, and the bindings for R2 and Stream. */
type VaultContext = { env: Env; db: D1Database };

/**
 * Deletes those of `mediaIds` that are vault files of `ownerId` and that nothing uses, with everything stored for
 * them (file, poster, preview, copies, marked copy, renditions, a Stream video). The test of use sits in the DELETE
 * itself, so a post or message taking the file at the same moment either comes first (and the file stays) or finds
 * it gone. Answers the ids deleted.
 */
export async function discardUnusedVaultFiles(
  { env, db }: VaultContext,
  ownerId: number,
  mediaIds: number[],
): Promise<number[]> {
  if (mediaIds.length === 0) return [];
  const unused = `media.id IN (SELECT value FROM json_each(?1)) AND media.user_id = ?2 AND media.purpose = 'post' AND NOT ${VAULT_FILE_USED_SQL}`;
  const [renditions, deleted] = await db.batch([
    // Read in the same transaction, before the rows go (the renditions' rows go with their medium).
    db
      .prepare(
        `SELECT r.object_key, r.upload_id FROM media_renditions r JOIN media ON media.id = r.media_id WHERE ${unused}`,
      )
      .bind(JSON.stringify(mediaIds), ownerId),
    db
      .prepare(`DELETE FROM media WHERE ${unused} RETURNING id, upload_id, ${STORED_KEY_COLUMNS}`)
      .bind(JSON.stringify(mediaIds), ownerId),
  ]);
  const rows = deleted!.results as Discarded[];
  if (rows.length > 0)
    await deleteStoredObjects(env, rows, renditions!.results as { object_key: string; upload_id: string | null }[]);
  return rows.map((row) => row.id);
}

/**
 * The owner deletes a file from their vault: only when no post, message, mass message or story uses it (else the
 * answer is where it is used, and nothing changes). Anyone else's file is "not found".
 */
export async function deleteVaultItem(
  ctx: VaultContext,
  ownerId: number,
  mediaId: number,
): Promise<{ deleted: true } | { deleted: false; uses: VaultUse[] }> {
  await requireOwnVaultFile(ctx.db, ownerId, mediaId);
  const [deleted] = await discardUnusedVaultFiles(ctx, ownerId, [mediaId]);
  if (deleted !== undefined) return { deleted: true };
  return { deleted: false, uses: await listVaultItemUses(ctx.db, ownerId, mediaId) };
}
