import * as remixBuild from "remix-build";
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { createApp, resendMailerOf, type AppOptions } from "./app";
import { config, type Env } from "./env";
import { runScheduledJobs } from "./jobs";
import { consumePush, PUSH_QUEUE } from "./push/queue";
import { consumeDataExports, DATA_EXPORTS_QUEUE } from "./queues/data-exports";
import { consumeMassMessages } from "./queues/mass-messages";

const build = remixBuild as unknown as ServerBuild;

/**
 * The Worker's handlers: the app with the Remix pages, the cron and the queues' consumer. Each entry makes its own:
 * production's (worker/index.ts), a local run's (worker/dev/index.ts) and the benchmark's (tests/bench/worker).
 */
export function createWorker(options: Omit<AppOptions, "buildVersion"> = {}) {
  const app = createApp(createRequestHandler(build, build.mode), { ...options, buildVersion: build.assets.version });
  return {
    fetch: app.fetch,
    scheduled(_controller, env, ctx) {
      const mailer = (options.mailer ?? resendMailerOf)(env, config(env));
      ctx.waitUntil(runScheduledJobs(env, (work) => ctx.waitUntil(work), mailer));
    },
    queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) {
      if (batch.queue === PUSH_QUEUE) return consumePush(batch, env);
      if (batch.queue === DATA_EXPORTS_QUEUE)
        return consumeDataExports(batch, env, (options.mailer ?? resendMailerOf)(env, config(env)));
      return consumeMassMessages(batch, env, (work) => ctx.waitUntil(work));
    },
  } satisfies ExportedHandler<Env>;
}
