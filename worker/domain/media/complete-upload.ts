import type { UploadedMedia } from "@shared/contracts/uploads";
import type { DomainContext } from "../context";
import { completePostsWaitingFor } from "../posts/complete-processing";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { detectFileType } from "./file-types";
import { partCountOf } from "./limits";
import { discardMedia } from "./discard-media";
import { objectRangeReader } from "./object-reader";
import { discardRenditions, type RenditionRow } from "./renditions/renditions";
import { durationsAgree } from "./renditions/rules";
import { stripImageMetadata } from "./strip-metadata";
import { settleStreamMedium, streamVideoState } from "./stream/stream-uploads";
import { findOwnUpload, mediaUrl, UPLOAD_LOST, type UploadRow } from "./uploads";
import { videoDurationMs } from "./video-duration";
import { markedSizeOf } from "@shared/watermark";

const PARTS_MISSING = message("Some parts of the file have not been received yet.");
const IMAGE_NOT_WHOLE = message("This image is incomplete or damaged. Please upload it again.");
const MARKED_COPY_MISSING = message("This photo is marked: send its marked copy before completing it.");
const MARKED_COPY_MISMATCH = message("The marked copy is not the size of the photo. Please upload it again.");

/**
 * Assembles the parts into the object. An image is then read back whole, cleaned of its metadata (GPS, camera,
 * comments: strip-metadata.ts) and written again before the file is marked ready (its key is still known to the
 * uploader alone); a file that turns out malformed, or cut off before its end, is discarded. Videos are stored as
 * sent: MP4 and QuickTime have no end marker (only a walk over every top-level box, a ranged read each, could tell
 * a cut file) and WebM recorded in a browser does not declare its length; a video's length is read from its header
 * when it states one (its renditions must match it). Completing twice answers the same result. A post waiting for
 * this file may now publish. A marked photo (docs/decisions/watermarks.md) needs its full-size marked copy first, of
 * the original's pixel size (markedSizeOf: fitted to 4096 pixels when larger), since fans are served nothing else. A video sent to Cloudflare Stream is asked about instead: ready, it is completed the
 * same way; still processing, it stays uploading and the cron completes it later.
 */
export async function completeUpload(
  ctx: DomainContext & { fetch?: typeof fetch },
  userId: number,
  mediaId: number,
): Promise<UploadedMedia> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  const done = { id: upload.id, kind: upload.kind, url: mediaUrl(upload.object_key) };
  if (upload.status === "ready") return done;
  if (upload.status === "uploading" && upload.stream_uid) {
    const video = await streamVideoState(ctx.config, upload.stream_uid, ctx.fetch);
    if ((await settleStreamMedium(ctx, mediaId, video)) === "failed") throw fieldError("file", UPLOAD_LOST);
    return done;
  }
  if (upload.status !== "uploading" || !upload.upload_id) throw fieldError("file", UPLOAD_LOST);
  const { results: parts } = await ctx.db
    .prepare("SELECT part_number, etag FROM media_parts WHERE media_id = ? ORDER BY part_number")
    .bind(mediaId)
    .all<{ part_number: number; etag: string }>();
  if (parts.length !== partCountOf(upload.size_bytes)) throw fieldError("file", PARTS_MISSING);
  const markedSize = upload.watermark === null ? null : await markedCopySize(ctx, upload);
  try {
    await ctx.env.MEDIA.resumeMultipartUpload(upload.object_key, upload.upload_id).complete(
      parts.map((part) => ({ partNumber: part.part_number, etag: part.etag })),
    );
  } catch (error) {
    // A second complete racing the first, or a multipart upload R2 no longer knows (expired, aborted).
    const now = await findOwnUpload(ctx.db, userId, mediaId);
    if (now.status === "ready") return done;
    console.warn("multipart complete failed", mediaId, error);
    throw fieldError("file", UPLOAD_LOST);
  }
  const cleaned =
    upload.kind === "image"
      ? await cleanStoredImage(ctx, upload)
      : { size: upload.size_bytes, width: null, height: null };
  const expected = cleaned.width && cleaned.height ? markedSizeOf(cleaned.width, cleaned.height) : null;
  if (markedSize && (markedSize.width !== expected?.width || markedSize.height !== expected?.height)) {
    await discardMedia(ctx.env, [{ ...upload, upload_id: null }]);
    throw fieldError("file", MARKED_COPY_MISMATCH);
  }
  const durationMs = upload.kind === "video" ? await storedVideoDurationMs(ctx, upload) : null;
  await ctx.db.batch([
    ctx.db
      .prepare(
        "UPDATE media SET status = 'ready', upload_id = NULL, size_bytes = ?, width = ?, height = ?, duration_ms = ? WHERE id = ?",
      )
      .bind(cleaned.size, cleaned.width, cleaned.height, durationMs, mediaId),
    ctx.db.prepare("DELETE FROM media_parts WHERE media_id = ?").bind(mediaId),
  ]);
  if (durationMs !== null) await dropRenditionsOfOtherLength(ctx, mediaId, durationMs);
  // The posts as they are now: the composer may have attached this file while its bytes were being checked.
  await completePostsWaitingFor(ctx, mediaId);
  return done;
}

/** A video's length as its file states it (a few range reads), null when it does not say. */
const storedVideoDurationMs = (ctx: DomainContext, upload: UploadRow) =>
  videoDurationMs(objectRangeReader(ctx.env.MEDIA, upload.object_key), upload.size_bytes, upload.content_type).catch(
    () => null,
  );

/**
 * The renditions finished before the original (they usually are: the original completes last) could not be held to
 * its length then: those of another length are not copies of this video, and go.
 */
async function dropRenditionsOfOtherLength(ctx: DomainContext, mediaId: number, durationMs: number) {
  const { results } = await ctx.db
    .prepare(
      "SELECT media_id, name, object_key, upload_id, duration_ms FROM media_renditions WHERE media_id = ? AND status = 'ready'",
    )
    .bind(mediaId)
    .all<Pick<RenditionRow, "media_id" | "name" | "object_key" | "upload_id" | "duration_ms">>();
  await discardRenditions(
    ctx.env,
    results.filter((rendition) => rendition.duration_ms === null || !durationsAgree(rendition.duration_ms, durationMs)),
  );
}

/** The pixel size of a marked photo's marked copy, as putMediaVariant kept it beside the object; refused without one. */
async function markedCopySize(ctx: DomainContext, upload: UploadRow) {
  const copy = upload.marked_key ? await ctx.env.MEDIA.head(upload.marked_key) : null;
  if (!copy) throw fieldError("file", MARKED_COPY_MISSING);
  return { width: Number(copy.customMetadata?.width) || null, height: Number(copy.customMetadata?.height) || null };
}

async function cleanStoredImage(ctx: DomainContext, upload: UploadRow) {
  const object = await ctx.env.MEDIA.get(upload.object_key);
  const bytes = object ? new Uint8Array(await object.arrayBuffer()) : new Uint8Array();
  const type = detectFileType(bytes);
  const clean = type ? stripImageMetadata(type.contentType, bytes) : null;
  if (!type || !clean) {
    await discardMedia(ctx.env, [{ ...upload, upload_id: null }]);
    // Its first part's magic bytes were checked on arrival: what fails now is the rest of the file.
    throw fieldError("file", IMAGE_NOT_WHOLE);
  }
  await ctx.env.MEDIA.put(upload.object_key, clean.bytes, { httpMetadata: { contentType: type.contentType } });
  return { size: clean.bytes.length, width: clean.width, height: clean.height };
}
