import { expireAbandonedSandboxTopUps } from "../domain/money/top-ups";
import type { Job } from "./job";

/** Sandbox top-ups left at the card form for an hour fail as not completed in time. */
export const expireSandboxTopUps: Job = {
  name: "expire-sandbox-top-ups",
  run: async (ctx) => ({ expired: await expireAbandonedSandboxTopUps(ctx.env) }),
};
