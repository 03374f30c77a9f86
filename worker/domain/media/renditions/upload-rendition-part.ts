import type { RenditionName } from "@shared/contracts/rendition-specs";
import type { DomainContext } from "../../context";
import { fieldError } from "../../shared/errors";
import { message } from "@shared/messages";
import { detectFileType } from "../file-types";
import { checkPartFits, FIRST_PART_FIRST } from "../upload-part";
import { unsupportedType, UPLOAD_LOST } from "../uploads";
import { discardRenditions, findOwnRendition } from "./renditions";

const RENDITION_FINISHED = message("This rendition is already finished.");

/**
 * Stores part `partNumber` of a rendition, under the original's rules (uploadPart): exact sizes, the first part
 * first. Its magic bytes must be the declared container's exactly (a rendition is MP4 or WebM, nothing else), or the
 * rendition is discarded.
 */
export async function uploadRenditionPart(
  ctx: DomainContext,
  userId: number,
  mediaId: number,
  name: RenditionName,
  partNumber: number,
  bytes: Uint8Array,
): Promise<void> {
  const rendition = await findOwnRendition(ctx.db, userId, mediaId, name);
  if (rendition.status !== "uploading" || !rendition.upload_id) throw fieldError("file", RENDITION_FINISHED);
  checkPartFits(rendition.size_bytes, partNumber, bytes);
  if (partNumber === 1) {
    if (detectFileType(bytes)?.contentType !== rendition.content_type) {
      await discardRenditions(ctx.env, [rendition]);
      throw unsupportedType();
    }
  } else if (
    !(await ctx.db
      .prepare("SELECT 1 FROM media_rendition_parts WHERE media_id = ? AND name = ? AND part_number = 1")
      .bind(mediaId, name)
      .first())
  ) {
    throw fieldError("partNumber", FIRST_PART_FIRST);
  }
  const part = await ctx.env.MEDIA.resumeMultipartUpload(rendition.object_key, rendition.upload_id)
    .uploadPart(partNumber, bytes)
    .catch((error: unknown) => {
      console.warn("rendition part failed", mediaId, name, error);
      throw fieldError("file", UPLOAD_LOST);
    });
  await ctx.db
    .prepare(
      "INSERT OR REPLACE INTO media_rendition_parts (media_id, name, part_number, etag, size_bytes) VALUES (?, ?, ?, ?, ?)",
    )
    .bind(mediaId, name, partNumber, part.etag, bytes.length)
    .run();
}
