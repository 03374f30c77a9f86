import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { declaredFileType, detectFileType, matchesDeclared } from "./file-types";
import { expectedPartSize, partCountOf } from "./limits";
import { discardMedia } from "./discard-media";
import { findOwnUpload, unsupportedType, UPLOAD_LOST, type UploadRow } from "./uploads";

const UPLOAD_FINISHED = message("This upload is already finished.");
const NO_SUCH_PART = message("This part number is out of range.");
const WRONG_PART_SIZE = message("This part does not have the expected size.");
export const FIRST_PART_FIRST = message("Send the first part before the others.");

/** Part `partNumber` of a file of `size` bytes exists and is exactly as long as it must be (an original's or a rendition's). */
export function checkPartFits(size: number, partNumber: number, bytes: Uint8Array): void {
  if (partNumber > partCountOf(size)) throw fieldError("partNumber", NO_SUCH_PART);
  if (bytes.length !== expectedPartSize(size, partNumber)) throw fieldError("file", WRONG_PART_SIZE);
}

/**
 * Stores part `partNumber` of the uploader's file. The first part is where the file says what it is: when its
 * magic bytes do not match the declared type (a text file named x.jpg), the upload is abandoned and nothing stays.
 * Sending a part again replaces it, so a retry after a lost answer is harmless.
 */
export async function uploadPart(
  ctx: DomainContext,
  userId: number,
  mediaId: number,
  partNumber: number,
  bytes: Uint8Array,
): Promise<void> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  if (upload.status !== "uploading" || !upload.upload_id) throw fieldError("file", UPLOAD_FINISHED);
  checkPartFits(upload.size_bytes, partNumber, bytes);
  if (partNumber === 1) {
    await checkFileType(ctx, upload, bytes);
  } else if (
    !(await ctx.db.prepare("SELECT 1 FROM media_parts WHERE media_id = ? AND part_number = 1").bind(mediaId).first())
  ) {
    throw fieldError("partNumber", FIRST_PART_FIRST);
  }
  const part = await ctx.env.MEDIA.resumeMultipartUpload(upload.object_key, upload.upload_id)
    .uploadPart(partNumber, bytes)
    .catch((error: unknown) => {
      // R2 no longer knows the multipart upload (expired after days, or aborted meanwhile).
      console.warn("multipart part failed", mediaId, error);
      throw fieldError("file", UPLOAD_LOST);
    });
  await ctx.db
    .prepare("INSERT OR REPLACE INTO media_parts (media_id, part_number, etag, size_bytes) VALUES (?, ?, ?, ?)")
    .bind(mediaId, partNumber, part.etag, bytes.length)
    .run();
}

async function checkFileType(ctx: DomainContext, upload: UploadRow, bytes: Uint8Array) {
  const detected = detectFileType(bytes);
  const declared = declaredFileType(upload.content_type);
  if (detected && declared && matchesDeclared(detected, declared)) return;
  await discardMedia(ctx.env, [upload]);
  throw unsupportedType();
}
