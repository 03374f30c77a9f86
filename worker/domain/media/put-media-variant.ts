import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { detectFileType } from "./file-types";
import { MAX_IMAGE_BYTES, MAX_POSTER_BYTES, MAX_PREVIEW_BYTES, MAX_SCALED_BYTES } from "./limits";
import { stripImageMetadata } from "./strip-metadata";
import { findOwnUpload, isStoryObject, mediaUrl, newVariantKey, unsupportedType } from "./uploads";

/**
 * A poster frame (videos), the blurred preview, the copies of a photo 640 and 1280 pixels wide, and a marked
 * photo's full-size marked copy.
 */
export type MediaVariant = "poster" | "preview" | "w640" | "w1280" | "marked";

export const MAX_VARIANT_BYTES: Record<MediaVariant, number> = {
  poster: MAX_POSTER_BYTES,
  preview: MAX_PREVIEW_BYTES,
  w640: MAX_SCALED_BYTES[640],
  w1280: MAX_SCALED_BYTES[1280],
  marked: MAX_IMAGE_BYTES,
};
const COLUMN_OF = {
  poster: "poster_key",
  preview: "preview_key",
  w640: "w640_key",
  w1280: "w1280_key",
  marked: "marked_key",
} as const;
/** The width a scaled copy must have, exactly: the srcset the feed writes says so (post-card.tsx). */
const SCALED_WIDTH_OF: Partial<Record<MediaVariant, number>> = { w640: 640, w1280: 1280 };

const ONLY_POST_MEDIA = message("Only post media has a poster and a preview.");
const ONLY_VIDEOS = message("Only videos have a poster frame.");
const ONLY_PHOTOS = message("Only photos have scaled copies.");
const VARIANT_TOO_LARGE = message("The poster or preview image is too large.");
const WRONG_WIDTH = message("A scaled copy must be exactly {{width}} pixels wide.");
const NOT_MARKED = message("This photo is not marked: it has no marked copy.");

/**
 * Stores what the browser makes of a post's, message's or story's file (a Worker cannot decode images cheaply):
 * the poster frame of a video (or of a story's photo, a small one, for its highlight's cover), the small blurred
 * preview shown on locked posts, or a copy of a photo 640 or 1280 pixels wide that phones load instead of the
 * original. Of a marked photo (docs/decisions/watermarks.md), its full-size copy with the mark drawn in, which
 * everyone but the uploader gets instead of the original: its pixel size is kept beside it, for the completion to
 * hold it to the original's. Replaces any earlier one. Answers where it is served.
 */
export async function putMediaVariant(
  ctx: DomainContext,
  userId: number,
  mediaId: number,
  variant: MediaVariant,
  bytes: Uint8Array,
): Promise<{ url: string }> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  const scaledWidth = SCALED_WIDTH_OF[variant];
  const story = isStoryObject(upload.object_key);
  if (upload.purpose !== "post") throw fieldError("file", ONLY_POST_MEDIA);
  // A video's poster frame, or the small cover of a story's photo (its highlight's cover: highlights.ts).
  if (variant === "poster" && upload.kind !== "video" && !story) throw fieldError("file", ONLY_VIDEOS);
  if (scaledWidth && upload.kind !== "image") throw fieldError("file", ONLY_PHOTOS);
  if (variant === "marked" && upload.watermark === null) throw fieldError("file", NOT_MARKED);
  if (bytes.length > MAX_VARIANT_BYTES[variant]) throw fieldError("file", VARIANT_TOO_LARGE);
  const type = detectFileType(bytes);
  const clean = type?.kind === "image" ? stripImageMetadata(type.contentType, bytes) : null;
  if (!type || !clean) throw unsupportedType();
  if (scaledWidth && clean.width !== scaledWidth) throw fieldError("file", WRONG_WIDTH, { width: scaledWidth });
  const key = newVariantKey(variant, type.extension, upload.object_key);
  await ctx.env.MEDIA.put(key, clean.bytes, {
    httpMetadata: { contentType: type.contentType },
    customMetadata: { width: String(clean.width ?? ""), height: String(clean.height ?? "") },
  });
  const column = COLUMN_OF[variant];
  const previous = upload[column];
  await ctx.db.prepare(`UPDATE media SET ${column} = ? WHERE id = ?`).bind(key, mediaId).run();
  if (previous) await ctx.env.MEDIA.delete(previous);
  return { url: mediaUrl(key) };
}
