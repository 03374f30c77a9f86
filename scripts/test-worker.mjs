#!/usr/bin/env node
// Runs the worker tier (tests/worker) in four shards, one after another, each in a fresh workerd, writing
// test-results/worker-{n}.json. It first makes sure that @cloudflare/vitest-pool-workers carries our
// isolated-storage patch (scripts/patch-vitest-pool-workers.mjs, also run on install): without it a SQLite
// sidecar file left by an aborted Durable Object stops the whole run. The shards are for speed, not safety:
// in one runtime every request gets slower the more the runtime has served (a few ms at first, hundreds of ms
// after thousands), so a fresh runtime per quarter of the files keeps the tier at a few minutes.
// Extra arguments (e.g. a file filter) are passed to every shard.
import { spawnSync } from "node:child_process";

const SHARDS = 4;
const run = (command, args) => spawnSync(command, args, { stdio: "inherit" }).status ?? 1;

if (run("node", ["scripts/patch-vitest-pool-workers.mjs"]) !== 0) process.exit(1);
let failed = false;
for (let shard = 1; shard <= SHARDS; shard++) {
  const status = run("npx", [
    "vitest", "run", "--config", "vitest.worker.config.ts", `--shard=${shard}/${SHARDS}`, "--passWithNoTests",
    "--reporter=default", "--reporter=json", `--outputFile.json=test-results/worker-${shard}.json`, ...process.argv.slice(2),
  ]);
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
