import type { DomainContext } from "../context";
import { fieldError } from "../shared/errors";
import { message } from "../shared/messages";
import { detectFileType } from "./file-types";
import { MAX_POSTER_BYTES, MAX_PREVIEW_BYTES } from "./limits";
import { stripImageMetadata } from "./strip-metadata";
import { findOwnUpload, mediaUrl, newVariantKey, unsupportedType } from "./uploads";

export type MediaVariant = "poster" | "preview";

export const MAX_VARIANT_BYTES: Record<MediaVariant, number> = { poster: MAX_POSTER_BYTES, preview: MAX_PREVIEW_BYTES };
const ONLY_POST_MEDIA = message("Only post media has a poster and a preview.");
const ONLY_VIDEOS = message("Only videos have a poster frame.");
const VARIANT_TOO_LARGE = message("The poster or preview image is too large.");

/**
 * Stores the poster frame of a video or the small blurred preview shown on locked posts, both made by the
 * browser (a Worker cannot decode images cheaply). Replaces any earlier one. Answers where it is served.
 */
export async function putMediaVariant(ctx: DomainContext, userId: number, mediaId: number, variant: MediaVariant, bytes: Uint8Array): Promise<{ url: string }> {
  const upload = await findOwnUpload(ctx.db, userId, mediaId);
  if (upload.purpose !== "post") throw fieldError("file", ONLY_POST_MEDIA);
  if (variant === "poster" && upload.kind !== "video") throw fieldError("file", ONLY_VIDEOS);
  if (bytes.length > MAX_VARIANT_BYTES[variant]) throw fieldError("file", VARIANT_TOO_LARGE);
  const type = detectFileType(bytes);
  const clean = type?.kind === "image" ? stripImageMetadata(type.contentType, bytes) : null;
  if (!type || !clean) throw unsupportedType();
  const key = newVariantKey(variant, type.extension, upload.object_key);
  await ctx.env.MEDIA.put(key, clean.bytes, { httpMetadata: { contentType: type.contentType } });
  const column = variant === "poster" ? "poster_key" : "preview_key";
  const previous = upload[column];
  await ctx.db.prepare(`UPDATE media SET ${column} = ? WHERE id = ?`).bind(key, mediaId).run();
  if (previous) await ctx.env.MEDIA.delete(previous);
  return { url: mediaUrl(key) };
}
