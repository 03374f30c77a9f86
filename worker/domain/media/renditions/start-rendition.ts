import type { RenditionName } from "@shared/contracts/rendition-specs";
import type { CreateRenditionInput } from "@shared/contracts/renditions";
import type { CreatedUpload } from "@shared/contracts/uploads";
import type { DomainContext } from "../../context";
import { AppError, fieldError } from "../../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../../shared/time";
import { declaredFileType } from "../file-types";
import { MAX_VIDEO_BYTES, partCountOf, PART_SIZE } from "../limits";
import { findOwnUpload, newRenditionKey, unsupportedType } from "../uploads";
import { deleteRenditionObjects, type RenditionRow } from "./renditions";
import { maxRenditionBytes } from "./rules";

const ONLY_VIDEOS = message("Only videos of posts, messages and stories have renditions.");
const NOT_NOW = message("This video's upload has failed: upload the video again.");
const TOO_LARGE = message("This rendition is larger than its quality allows for this video.");

/**
 * Starts uploading rendition `name` of the uploader's video (of a post, message or story, being uploaded or ready;
 * not one kept by Cloudflare Stream): checks what is declared, then opens a multipart upload under a new key. Starting
 * again replaces the rendition, finished or not (a converter that made it anew), and deletes the earlier one's bytes.
 * Answers the parts to send, as an upload's start does.
 */
export async function startRendition(
  ctx: DomainContext,
  userId: number,
  mediaId: number,
  name: RenditionName,
  input: CreateRenditionInput,
): Promise<CreatedUpload> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  if (upload.kind !== "video" || upload.purpose !== "post" || upload.stream_uid !== null)
    throw fieldError("file", ONLY_VIDEOS);
  if (upload.status === "failed") throw fieldError("file", NOT_NOW);
  const type = declaredFileType(input.contentType);
  if (!type) throw unsupportedType();
  const maxBytes = maxRenditionBytes(name, upload.duration_ms ?? 0, MAX_VIDEO_BYTES);
  if (input.size > Math.min(maxBytes, MAX_VIDEO_BYTES))
    throw new AppError("too_large", TOO_LARGE, { size: [TOO_LARGE] });

  const key = newRenditionKey(upload.object_key, type.extension);
  const multipart = await ctx.env.MEDIA.createMultipartUpload(key, { httpMetadata: { contentType: type.contentType } });
  const [replaced] = await ctx.db.batch<Pick<RenditionRow, "object_key" | "upload_id">>([
    ctx.db
      .prepare("DELETE FROM media_renditions WHERE media_id = ? AND name = ? RETURNING object_key, upload_id")
      .bind(mediaId, name),
    ctx.db
      .prepare(
        `INSERT INTO media_renditions (media_id, name, status, object_key, content_type, size_bytes, upload_id, created_at)
         VALUES (?, ?, 'uploading', ?, ?, ?, ?, ?)`,
      )
      .bind(mediaId, name, key, type.contentType, input.size, multipart.uploadId, isoNow()),
  ]);
  await deleteRenditionObjects(ctx.env.MEDIA, replaced?.results ?? []);
  return { mediaId, partSize: PART_SIZE, partCount: partCountOf(input.size), stream: null, watermark: null };
}
