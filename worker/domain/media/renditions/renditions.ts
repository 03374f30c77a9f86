import type { RenditionName } from "@shared/contracts/rendition-specs";
import type { RenditionView } from "@shared/contracts/renditions";
import { AppError } from "../../shared/errors";
import { message } from "@shared/messages";
import type { Env } from "../../../env";
import { mediaUrl } from "../uploads";

/** One row of `media_renditions`. */
export interface RenditionRow {
  media_id: number;
  name: RenditionName;
  status: "uploading" | "ready";
  object_key: string;
  content_type: "video/mp4" | "video/webm";
  size_bytes: number;
  upload_id: string | null;
  codecs: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
}

const RENDITION_NOT_FOUND = message("This rendition has not been started.");

/** The rendition `name` of the uploader's own medium; anyone else's, or none, is "not found". */
export async function findOwnRendition(
  db: D1Database,
  userId: number,
  mediaId: number,
  name: RenditionName,
): Promise<RenditionRow> {
  const row = await db
    .prepare(
      `SELECT r.* FROM media_renditions r JOIN media m ON m.id = r.media_id
       WHERE r.media_id = ? AND r.name = ? AND m.user_id = ?`,
    )
    .bind(mediaId, name, userId)
    .first<RenditionRow>();
  if (!row) throw new AppError("not_found", RENDITION_NOT_FOUND);
  return row;
}

type StoredRendition = Pick<RenditionRow, "object_key" | "upload_id">;

/** Aborts the renditions' unfinished multipart uploads and deletes their objects (not their rows). */
export async function deleteRenditionObjects(bucket: R2Bucket, renditions: StoredRendition[]): Promise<void> {
  if (renditions.length === 0) return;
  for (const rendition of renditions) {
    if (!rendition.upload_id) continue;
    // An upload already completed or aborted cannot be aborted again; the object delete below covers it.
    await bucket
      .resumeMultipartUpload(rendition.object_key, rendition.upload_id)
      .abort()
      .catch(() => undefined);
  }
  await bucket.delete(renditions.map((rendition) => rendition.object_key));
}

/** Deletes renditions for good: their objects, then their rows (their parts go with them). */
export async function discardRenditions(
  env: Env,
  renditions: (StoredRendition & Pick<RenditionRow, "media_id" | "name">)[],
): Promise<void> {
  if (renditions.length === 0) return;
  await deleteRenditionObjects(env.MEDIA, renditions);
  await env.DB.batch(
    renditions.map((rendition) =>
      env.DB.prepare("DELETE FROM media_renditions WHERE media_id = ? AND name = ? AND object_key = ?").bind(
        rendition.media_id,
        rendition.name,
        rendition.object_key,
      ),
    ),
  );
}

/** The renditions of these media (their object keys and unfinished uploads): what deleting the media must delete too. */
export async function renditionsOfMedia(db: D1Database, mediaIds: number[]): Promise<StoredRendition[]> {
  if (mediaIds.length === 0) return [];
  const { results } = await db
    .prepare("SELECT object_key, upload_id FROM media_renditions WHERE media_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(mediaIds))
    .all<StoredRendition>();
  return results;
}

/** What a player needs of a ready rendition: where, its MIME type with codecs (canPlayType), its frame and bitrate. */
export const renditionView = (
  row: Pick<
    RenditionRow,
    "name" | "object_key" | "content_type" | "codecs" | "width" | "height" | "size_bytes" | "duration_ms"
  >,
): RenditionView => ({
  name: row.name,
  url: mediaUrl(row.object_key),
  type: `${row.content_type}; codecs="${row.codecs ?? ""}"`,
  width: row.width ?? 0,
  height: row.height ?? 0,
  bitrate: row.duration_ms ? Math.round((row.size_bytes * 8 * 1000) / row.duration_ms) : 0,
});
