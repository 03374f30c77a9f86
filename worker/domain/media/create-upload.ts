import type { CreatedUpload, CreateUploadInput } from "@shared/contracts/uploads";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { AppError, fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import { declaredFileType } from "./file-types";
import { MAX_MEDIA_PER_POST, maxBytesOf, partCountOf, PART_SIZE } from "./limits";
import { newObjectKey, storedPurposeOf, unsupportedType } from "./uploads";
import { openStreamUpload, sendsToStream } from "./stream/stream-uploads";
import { watermarkOfUpload } from "../watermarks/watermarks";

const IMAGE_TOO_LARGE = message("Images can be at most 20 MB.");
const VIDEO_TOO_LARGE = message("Videos can be at most 2 GB.");
const ONLY_CREATORS = message("Only creators can upload post media.");
const ONLY_IMAGES = message("Choose an image (JPEG, PNG, WebP or GIF).");
const TOO_MANY_PENDING = message("Too many unfinished uploads. Finish or cancel some first.");
/** Unfinished uploads a user may have at once: a full post's worth, twice. */
const MAX_PENDING_UPLOADS = 2 * MAX_MEDIA_PER_POST;

/**
 * Starts an upload: checks what is declared (purpose, type, size) before anything is stored, then opens an R2
 * multipart upload under a server-generated key. The bytes themselves are checked as they arrive. With
 * VIDEO_PIPELINE=stream a post's, message's or story's video goes to Cloudflare Stream instead: the answer carries
 * Stream's one-time tus URL, and Stream checks the bytes (the row's key then names no object; its poster and
 * preview still go to R2). A creator's photo for a post or message gets the mark their setting gives at this moment:
 * the browser draws it into the copies fans get (docs/decisions/watermarks.md).
 */
export async function createUpload(
  ctx: DomainContext & { fetch?: typeof fetch },
  user: UserRow,
  input: CreateUploadInput,
): Promise<CreatedUpload> {
  if ((input.purpose === "post" || input.purpose === "story") && user.role !== "creator" && user.role !== "admin") {
    throw new AppError("forbidden", ONLY_CREATORS);
  }
  const type = declaredFileType(input.contentType);
  if (!type) throw unsupportedType();
  const purpose = storedPurposeOf(input.purpose);
  if (purpose !== "post" && type.kind !== "image") throw fieldError("file", ONLY_IMAGES);
  if (input.size > maxBytesOf(type.kind)) {
    const tooLarge = type.kind === "image" ? IMAGE_TOO_LARGE : VIDEO_TOO_LARGE;
    throw new AppError("too_large", tooLarge, { size: [tooLarge] });
  }
  const pending = await ctx.db
    .prepare("SELECT COUNT(*) AS n FROM media WHERE user_id = ? AND status = 'uploading'")
    .bind(user.id)
    .first<number>("n");
  if ((pending ?? 0) >= MAX_PENDING_UPLOADS) throw new AppError("rate_limited", TOO_MANY_PENDING);
  const key = newObjectKey(input.purpose, type.extension);
  if (sendsToStream(ctx.config, input.purpose, type.kind)) {
    const stream = await openStreamUpload(ctx.config, input.purpose, input.size, ctx.fetch);
    const row = await ctx.db
      .prepare(
        `INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, stream_uid, created_at)
         VALUES (?, ?, ?, 'uploading', ?, ?, ?, ?, ?) RETURNING id`,
      )
      .bind(user.id, purpose, type.kind, key, type.contentType, input.size, stream.uid, isoNow())
      .first<{ id: number }>();
    return {
      mediaId: row!.id,
      partSize: PART_SIZE,
      partCount: 0,
      stream: { uploadUrl: stream.uploadUrl },
      watermark: null,
    };
  }
  const watermark = watermarkOfUpload(ctx.origin, user, input.purpose, type.contentType);
  const multipart = await ctx.env.MEDIA.createMultipartUpload(key, { httpMetadata: { contentType: type.contentType } });
  const row = await ctx.db
    .prepare(
      `INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, upload_id, watermark, created_at)
       VALUES (?, ?, ?, 'uploading', ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(user.id, purpose, type.kind, key, type.contentType, input.size, multipart.uploadId, watermark, isoNow())
    .first<{ id: number }>();
  return { mediaId: row!.id, partSize: PART_SIZE, partCount: partCountOf(input.size), stream: null, watermark };
}
