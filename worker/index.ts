import * as remixBuild from "remix-build";
import type { ServerBuild } from "@remix-run/cloudflare";
import { createApp } from "./app";
import type { Env } from "./env";
import { runScheduledJobs } from "./scheduled";

const app = createApp(remixBuild as unknown as ServerBuild);

export default {
  fetch: app.fetch,
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env));
  },
} satisfies ExportedHandler<Env>;
