import { config } from "../../../env";
import type { EffectsContext } from "../../context";
import { isoIn } from "../../shared/time";
import { ABANDONED_AFTER_MS } from "../discard-abandoned-uploads";
import { deleteStreamVideos } from "./delete-stream-videos";
import { settleStreamMedium, streamVideoState } from "./stream-uploads";

/** Media asked about per run: Stream's API allows 1,200 calls in 5 minutes, and the cron runs every minute. */
const BATCH = 50;

/**
 * The cron's side of Stream uploads: Stream processes a video after its last byte arrives, often after the
 * uploader's complete call has come and gone. Each run asks Stream about the media still uploading, oldest first:
 * ready ones are completed (a waiting post publishes), those Stream refused are failed, and those not ready a day
 * after they started (the abandoned-upload day) are failed and their Stream video deleted; the upload clean-up then
 * takes whichever nothing uses.
 */
export async function completeStreamUploads(
  ctx: Pick<EffectsContext, "env" | "db" | "publish">,
  fetcher?: typeof fetch,
): Promise<{ completed: number; failed: number }> {
  const settings = config(ctx.env);
  if (settings.VIDEO_PIPELINE !== "stream") return { completed: 0, failed: 0 };
  const { results } = await ctx.db
    .prepare(
      "SELECT id, stream_uid, created_at < ? AS abandoned FROM media WHERE status = 'uploading' AND stream_uid IS NOT NULL ORDER BY id LIMIT ?",
    )
    .bind(isoIn(-ABANDONED_AFTER_MS), BATCH)
    .all<{ id: number; stream_uid: string; abandoned: number }>();
  let completed = 0;
  const failed: { stream_uid: string }[] = [];
  for (const row of results) {
    const video = await streamVideoState(settings, row.stream_uid, fetcher);
    const settled =
      video.state === "pending" && row.abandoned
        ? await settleStreamMedium(ctx, row.id, { state: "failed", reason: "abandoned" })
        : await settleStreamMedium(ctx, row.id, video);
    if (settled === "ready") completed++;
    if (settled === "failed") failed.push(row);
  }
  await deleteStreamVideos(ctx.env, failed, fetcher);
  return { completed, failed: failed.length };
}
