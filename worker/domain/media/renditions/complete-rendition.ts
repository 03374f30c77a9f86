import type { RenditionName } from "@shared/contracts/rendition-specs";
import type { RenditionView } from "@shared/contracts/renditions";
import type { DomainContext } from "../../context";
import { fieldError } from "../../shared/errors";
import { message } from "@shared/messages";
import { inspectVideo } from "../inspect-video";
import { partCountOf } from "../limits";
import { objectRangeReader } from "../object-reader";
import { UPLOAD_LOST } from "../uploads";
import { discardRenditions, findOwnRendition, renditionView, type RenditionRow } from "./renditions";
import { checkRendition } from "./rules";

const PARTS_MISSING = message("Some parts of the file have not been received yet.");

/**
 * Assembles a rendition's parts, then reads what it is from its bytes (a few range reads: inspect-video.ts) and
 * checks it against its quality and the original's length (rules.ts). One that breaks a rule is deleted, bytes and
 * row, and the answer says which rule; one that keeps them is ready, and /media serves it under the original's
 * rule. Completing twice answers the same rendition.
 */
export async function completeRendition(
  ctx: DomainContext,
  userId: number,
  mediaId: number,
  name: RenditionName,
): Promise<RenditionView> {
  const rendition = await findOwnRendition(ctx.db, userId, mediaId, name);
  if (rendition.status === "ready") return renditionView(rendition);
  if (!rendition.upload_id) throw fieldError("file", UPLOAD_LOST);
  const { results: parts } = await ctx.db
    .prepare("SELECT part_number, etag FROM media_rendition_parts WHERE media_id = ? AND name = ? ORDER BY part_number")
    .bind(mediaId, name)
    .all<{ part_number: number; etag: string }>();
  if (parts.length !== partCountOf(rendition.size_bytes)) throw fieldError("file", PARTS_MISSING);
  try {
    await ctx.env.MEDIA.resumeMultipartUpload(rendition.object_key, rendition.upload_id).complete(
      parts.map((part) => ({ partNumber: part.part_number, etag: part.etag })),
    );
  } catch (error) {
    // A second complete racing the first, or a multipart upload R2 no longer knows (expired, aborted).
    const now = await findOwnRendition(ctx.db, userId, mediaId, name);
    if (now.status === "ready" && now.object_key === rendition.object_key) return renditionView(now);
    console.warn("rendition complete failed", mediaId, name, error);
    throw fieldError("file", UPLOAD_LOST);
  }

  const facts = await inspectVideo(objectRangeReader(ctx.env.MEDIA, rendition.object_key), rendition.size_bytes).catch(
    () => null,
  );
  const original = await ctx.db
    .prepare("SELECT duration_ms FROM media WHERE id = ?")
    .bind(mediaId)
    .first<{ duration_ms: number | null }>();
  // The first part's magic bytes matched the declared container, so the facts are of that container.
  const broken = checkRendition(name, facts, rendition.size_bytes, original?.duration_ms ?? null);
  if (!facts || broken) {
    await discardRenditions(ctx.env, [{ ...rendition, upload_id: null }]);
    throw fieldError("file", broken ?? UPLOAD_LOST);
  }

  const ready: RenditionRow = {
    ...rendition,
    status: "ready",
    codecs: [facts.videoCodec, facts.audioCodec].filter((codec) => codec !== null).join(","),
    width: facts.width,
    height: facts.height,
    duration_ms: facts.durationMs,
  };
  await ctx.db.batch([
    ctx.db
      .prepare(
        `UPDATE media_renditions SET status = 'ready', upload_id = NULL, codecs = ?, width = ?, height = ?, duration_ms = ?
         WHERE media_id = ? AND name = ? AND object_key = ?`,
      )
      .bind(ready.codecs, ready.width, ready.height, ready.duration_ms, mediaId, name, rendition.object_key),
    ctx.db.prepare("DELETE FROM media_rendition_parts WHERE media_id = ? AND name = ?").bind(mediaId, name),
  ]);
  return renditionView(ready);
}
