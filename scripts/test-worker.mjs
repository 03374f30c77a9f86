#!/usr/bin/env node
// Runs the worker tier (tests/worker) in three shards, each in a fresh workerd, one after another, writing
// test-results/worker-{n}.json. Why: @cloudflare/vitest-pool-workers' isolated storage asserts that only .sqlite
// files exist when it pops a test's storage; after a dozen files in one runtime, SQLite's -shm sidecar is
// sometimes still there and the next file fails (cloudflare/workers-sdk#11031). Fresh runtimes avoid it.
// Extra arguments (e.g. a file filter) are passed to every shard.
import { spawnSync } from "node:child_process";

const SHARDS = 3;
let failed = false;
for (let shard = 1; shard <= SHARDS; shard++) {
  const { status } = spawnSync(
    "npx",
    ["vitest", "run", "--config", "vitest.worker.config.ts", `--shard=${shard}/${SHARDS}`, "--passWithNoTests", "--reporter=default", "--reporter=json", `--outputFile.json=test-results/worker-${shard}.json`, ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
