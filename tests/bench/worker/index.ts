import { createWorker } from "../../../worker/create-worker";
import { LOCAL_RUN } from "../../../worker/dev/local-run";
import type { Env } from "../../../worker/env";
import { countD1, countD1InQueue } from "./count-d1";

export * from "../../../worker/durable-objects";

/**
 * The benchmark's Worker (`npm run bench`, tests/bench/run.mjs): a local run's, with every D1 statement counted and
 * the /__bench routes (count-d1.ts). Production's entry, worker/index.ts, has neither.
 */
const worker = createWorker(LOCAL_RUN);

export default {
  ...worker,
  fetch: countD1(worker.fetch),
  queue: countD1InQueue(worker.queue),
} satisfies ExportedHandler<Env>;
