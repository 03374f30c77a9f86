import { discardAbandonedUploads as discardDueUploads } from "../domain/media/discard-abandoned-uploads";
import type { Job } from "./job";

/** Uploads never completed within a day are aborted in R2 and forgotten. */
export const discardAbandonedUploads: Job = {
  name: "discard-abandoned-uploads",
  run: async (ctx) => ({ discarded: await discardDueUploads(ctx.env) }),
};
