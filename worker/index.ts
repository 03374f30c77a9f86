import * as remixBuild from "remix-build";
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { createApp } from "./app";
import { countD1InQueueWhenBenchmarking, countD1WhenBenchmarking } from "./bench/count-d1";
import type { Env } from "./env";
import { runScheduledJobs } from "./jobs";
import { consumePush, PUSH_QUEUE } from "./push/queue";
import { consumeMassMessages } from "./queues/mass-messages";

export * from "./durable-objects";

const build = remixBuild as unknown as ServerBuild;
const app = createApp(createRequestHandler(build, build.mode), build.assets.version);

export default {
  fetch: countD1WhenBenchmarking(app.fetch),
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env, (work) => ctx.waitUntil(work)));
  },
  queue: countD1InQueueWhenBenchmarking((batch, env) => (batch.queue === PUSH_QUEUE ? consumePush(batch, env) : consumeMassMessages(batch, env))),
} satisfies ExportedHandler<Env>;
