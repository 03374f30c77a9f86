import { expireStories as expireDueStories } from "../domain/stories/expire-stories";
import type { Job } from "./job";

/** Stories past their 24 hours, unless kept in a highlight, are deleted with their files. */
export const expireStories: Job = {
  name: "expire-stories",
  run: async (ctx) => ({ expired: await expireDueStories(ctx.env) }),
};
