import { createApp } from "../../worker/app";
import { runScheduledJobs } from "../../worker/scheduled";
import type { Env } from "../../worker/env";

/** vitest-pool-workers runs the Durable Objects of wrangler.toml from this module. */
export { UserChannel } from "../../worker/realtime/user-channel";

/** The Worker as production runs it, minus the Remix server build (pages are covered by the e2e tier). */
const app = createApp(null);

export default {
  fetch: app.fetch,
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env));
  },
} satisfies ExportedHandler<Env>;
