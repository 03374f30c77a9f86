import type { Env } from "../../env";
import { deleteRenditionObjects, renditionsOfMedia } from "./renditions/renditions";
import { deleteStreamVideos } from "./stream/delete-stream-videos";
import { STORED_KEY_COLUMNS, storedKeysOf, type StoredKeys, type UploadRow } from "./uploads";

export type Discarded = Pick<UploadRow, "id" | "upload_id"> & StoredKeys;

/**
 * Deletes media for good: an unfinished multipart upload is aborted, the object and its poster, preview, copies and
 * renditions are deleted from R2 (a video kept by Cloudflare Stream there), and the row goes (its renditions' rows
 * with it). No ownership check: callers decide (the uploader's DELETE, a rejected file,
 * ID documents once an admin decided the creator request).
 */
export async function discardMedia(env: Env, rows: Discarded[]): Promise<void> {
  if (rows.length === 0) return;
  await deleteStoredObjects(
    env,
    rows,
    await renditionsOfMedia(
      env.DB,
      rows.map((row) => row.id),
    ),
  );
  await env.DB.prepare("DELETE FROM media WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(rows.map((row) => row.id)))
    .run();
}

/**
 * What is stored for media whose rows are gone or going: unfinished uploads aborted, the objects and their
 * renditions' deleted from R2, Stream's videos deleted.
 */
export async function deleteStoredObjects(
  env: Env,
  rows: Discarded[],
  renditions: Awaited<ReturnType<typeof renditionsOfMedia>>,
): Promise<void> {
  for (const row of rows) {
    if (!row.upload_id) continue;
    // An upload already completed or aborted cannot be aborted again; the object delete below covers it.
    await env.MEDIA.resumeMultipartUpload(row.object_key, row.upload_id)
      .abort()
      .catch(() => undefined);
  }
  const keys = storedKeysOf(rows);
  if (keys.length > 0) await env.MEDIA.delete(keys);
  await deleteRenditionObjects(env.MEDIA, renditions);
  await deleteStreamVideos(env, rows);
}

/** The same for media ids, e.g. a creator request's ID document and selfie after the decision. */
export async function discardMediaByIds(env: Env, mediaIds: number[]): Promise<void> {
  const { results } = await env.DB.prepare(
    `SELECT id, upload_id, ${STORED_KEY_COLUMNS} FROM media WHERE id IN (SELECT value FROM json_each(?))`,
  )
    .bind(JSON.stringify(mediaIds))
    .all<Discarded>();
  await discardMedia(env, results);
}
