import { createWorker } from "./create-worker";

export * from "./durable-objects";

/** The production Worker (wrangler.toml's main). A local run has its own entry, worker/dev/index.ts. */
export default createWorker();
