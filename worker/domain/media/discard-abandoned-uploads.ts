import type { Env } from "../../env";
import { DAY, isoIn } from "../shared/time";
import { discardMedia } from "./discard-media";
import { discardRenditions, type RenditionRow } from "./renditions/renditions";
import { STORED_KEY_COLUMNS, type StoredKeys, type UploadRow } from "./uploads";

/** How long an unfinished upload may wait to be resumed. */
export const ABANDONED_AFTER_MS = DAY;

/**
 * The cron's clean-up, a batch per run, oldest first: uploads left unfinished for a day, and finished files
 * that nothing uses a day later (composer files never posted nor in a mass message scheduled or being sent, story files never published, profile images never set, ID documents never
 * submitted) are aborted and deleted, and so are renditions left unfinished. An unfinished file of a post is aborted and marked failed instead: the
 * post stays in /processing, where its author sees what went wrong, rather than losing a file silently.
 */
export async function discardAbandonedUploads(env: Env): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT id, upload_id, ${STORED_KEY_COLUMNS} FROM media
     WHERE created_at < ? AND (
       (status <> 'ready' AND post_id IS NULL AND NOT EXISTS (SELECT 1 FROM message_media mm WHERE mm.media_id = media.id)
         AND NOT EXISTS (SELECT 1 FROM stories st WHERE st.media_id = media.id))
       OR (purpose = 'post' AND post_id IS NULL AND NOT EXISTS (SELECT 1 FROM message_media mm WHERE mm.media_id = media.id)
         AND NOT EXISTS (SELECT 1 FROM stories st WHERE st.media_id = media.id)
         AND NOT EXISTS (SELECT 1 FROM mass_messages mass, json_each(mass.media_ids) j WHERE mass.sender_id = media.user_id AND mass.status IN ('scheduled', 'sending') AND j.value = media.id))
       OR (purpose IN ('avatar', 'cover')
           AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = media.user_id AND media.object_key IN (u.avatar_key, u.cover_key)))
       OR (purpose IN ('id_document', 'id_selfie')
           AND NOT EXISTS (SELECT 1 FROM creator_requests r WHERE r.document_media_id = media.id OR r.selfie_media_id = media.id)))
     ORDER BY id LIMIT 100`,
  )
    .bind(isoIn(-ABANDONED_AFTER_MS))
    .all<Pick<UploadRow, "id" | "upload_id"> & StoredKeys>();
  await discardMedia(env, results);
  return results.length + (await failAbandonedPostUploads(env)) + (await discardAbandonedRenditions(env));
}

/** Renditions left unfinished for a day (the converter gave up, or the page never came back): aborted and gone. */
async function discardAbandonedRenditions(env: Env): Promise<number> {
  const { results } = await env.DB.prepare(
    "SELECT media_id, name, object_key, upload_id FROM media_renditions WHERE status = 'uploading' AND created_at < ? LIMIT 100",
  )
    .bind(isoIn(-ABANDONED_AFTER_MS))
    .all<Pick<RenditionRow, "media_id" | "name" | "object_key" | "upload_id">>();
  await discardRenditions(env, results);
  return results.length;
}

async function failAbandonedPostUploads(env: Env): Promise<number> {
  const { results } = await env.DB.prepare(
    "SELECT id, object_key, upload_id FROM media WHERE status = 'uploading' AND post_id IS NOT NULL AND created_at < ? ORDER BY id LIMIT 100",
  )
    .bind(isoIn(-ABANDONED_AFTER_MS))
    .all<Pick<UploadRow, "id" | "object_key" | "upload_id">>();
  for (const row of results) {
    if (!row.upload_id) continue;
    await env.MEDIA.resumeMultipartUpload(row.object_key, row.upload_id)
      .abort()
      .catch(() => undefined);
  }
  await env.DB.prepare(
    "UPDATE media SET status = 'failed', upload_id = NULL WHERE id IN (SELECT value FROM json_each(?)) AND status = 'uploading'",
  )
    .bind(JSON.stringify(results.map((row) => row.id)))
    .run();
  return results.length;
}
