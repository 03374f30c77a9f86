import { publishDueScheduledPosts } from "../domain/posts/publish-scheduled";
import type { Job } from "./job";

/** Scheduled posts whose time has come go public, each exactly once, and are announced. */
export const publishScheduledPosts: Job = {
  name: "publish-scheduled-posts",
  run: async (ctx) => ({ published: (await publishDueScheduledPosts(ctx)).length }),
};
