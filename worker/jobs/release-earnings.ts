import { releaseDueEarnings } from "../domain/money/release-earnings";
import type { Job } from "./job";

/** Earnings past their hold (7 business days) move from pending to available. */
export const releaseEarnings: Job = {
  name: "release-earnings",
  run: (ctx) => releaseDueEarnings(ctx.env),
};
