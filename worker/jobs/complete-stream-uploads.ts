import { completeStreamUploads as completeDueStreamUploads } from "../domain/media/stream/complete-stream-uploads";
import type { Job } from "./job";

/** With VIDEO_PIPELINE=stream: videos Stream has finished processing are completed, and their posts published. */
export const completeStreamUploads: Job = {
  name: "complete-stream-uploads",
  run: (ctx) => completeDueStreamUploads(ctx),
};
