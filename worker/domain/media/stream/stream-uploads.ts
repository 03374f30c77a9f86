import type { UploadPurpose } from "@shared/contracts/uploads";
import { MAX_STORY_VIDEO_MS } from "@shared/contracts/story-limits";
import { message } from "@shared/messages";
import type { Config } from "../../../env";
import type { EffectsContext } from "../../context";
import { completePostsWaitingFor } from "../../posts/complete-processing";
import { AppError } from "../../shared/errors";
import type { MediaKind } from "../file-types";
import { streamClientOf, type StreamVideoState } from "./client";

const VIDEO_UPLOAD_UNAVAILABLE = message("Videos cannot be uploaded right now. Try again in a moment.");

/**
 * The longest video Stream takes for a post or a message: what a direct upload reserves of the account's minutes
 * until the file arrives (a story's is its own limit). Stream allows at most 6 hours.
 */
const MAX_STREAM_VIDEO_SECONDS = 3 * 60 * 60;

/** Which uploads go to Stream: videos of posts, messages and stories, when VIDEO_PIPELINE=stream. */
export const sendsToStream = (settings: Config, purpose: UploadPurpose, kind: MediaKind) =>
  settings.VIDEO_PIPELINE === "stream" &&
  kind === "video" &&
  (purpose === "post" || purpose === "message" || purpose === "story");

/** Stream's one-time tus URL for the uploader's video; refused with a 409 when Stream cannot be reached. */
export async function openStreamUpload(
  settings: Config,
  purpose: UploadPurpose,
  size: number,
  fetcher?: typeof fetch,
): Promise<{ uid: string; uploadUrl: string }> {
  const maxSeconds = purpose === "story" ? Math.ceil(MAX_STORY_VIDEO_MS / 1000) : MAX_STREAM_VIDEO_SECONDS;
  try {
    return await streamClientOf(settings, fetcher).createUpload(size, maxSeconds);
  } catch (error) {
    console.warn("Cloudflare Stream upload not opened", error);
    throw new AppError("conflict", VIDEO_UPLOAD_UNAVAILABLE);
  }
}

/** What Stream says of a video; a Stream that cannot be reached counts as "not yet" (the cron asks again). */
export async function streamVideoState(
  settings: Config,
  uid: string,
  fetcher?: typeof fetch,
): Promise<StreamVideoState> {
  try {
    return await streamClientOf(settings, fetcher).getVideo(uid);
  } catch (error) {
    console.warn("Cloudflare Stream video state unknown", uid, error);
    return { state: "pending" };
  }
}

/**
 * Settles a Stream medium still uploading by what Stream says: ready (with its length and frame, from Stream) or
 * failed. A post waiting for it may then publish. Guarded by the status, so the complete call and the cron settle
 * it once between them. Answers the status it has now.
 */
export async function settleStreamMedium(
  ctx: Pick<EffectsContext, "db" | "publish">,
  mediaId: number,
  video: StreamVideoState,
): Promise<"uploading" | "ready" | "failed"> {
  if (video.state === "pending") return "uploading";
  if (video.state === "failed") {
    await ctx.db
      .prepare("UPDATE media SET status = 'failed' WHERE id = ? AND status = 'uploading'")
      .bind(mediaId)
      .run();
    return "failed";
  }
  const ready = await ctx.db
    .prepare(
      `UPDATE media SET status = 'ready', duration_ms = ?, width = ?, height = ?
       WHERE id = ? AND status = 'uploading' RETURNING id`,
    )
    .bind(video.durationMs, video.width, video.height, mediaId)
    .first<{ id: number }>();
  if (ready) await completePostsWaitingFor(ctx, mediaId);
  return "ready";
}
