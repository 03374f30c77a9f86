#!/usr/bin/env node
// Runs the worker tier (tests/worker) in six shards, two at a time (the machine has two cores), each in a fresh
// workerd, writing test-results/worker-{n}.json. It first makes sure that @cloudflare/vitest-pool-workers carries
// our isolated-storage patch (scripts/patch-vitest-pool-workers.mjs, also run on install): without it a SQLite
// sidecar file left by an aborted Durable Object stops the whole run. The shards are for speed, not safety: in one
// runtime every request gets slower the more the runtime has served (a few ms at first, hundreds of ms after
// thousands), so a fresh runtime per sixth of the files keeps the tier at a few minutes.
// Extra arguments (e.g. a file filter) are passed to every shard. WORKER_SHARDS_AT_ONCE=1 runs them one by one.
import { spawn, spawnSync } from "node:child_process";

export const SHARDS = 6;
const AT_ONCE = Number(process.env.WORKER_SHARDS_AT_ONCE ?? 2);

if ((spawnSync("node", ["scripts/patch-vitest-pool-workers.mjs"], { stdio: "inherit" }).status ?? 1) !== 0) process.exit(1);

/** One shard; its output is kept and printed whole when it ends, so two shards never interleave their lines. */
function runShard(shard) {
  return new Promise((resolve) => {
    const child = spawn("npx", [
      "vitest", "run", "--config", "vitest.worker.config.ts", `--shard=${shard}/${SHARDS}`, "--passWithNoTests",
      "--reporter=default", "--reporter=json", `--outputFile.json=test-results/worker-${shard}.json`, ...process.argv.slice(2),
    ], { stdio: ["ignore", "pipe", "pipe"], env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      process.stdout.write(`\n── worker shard ${shard}/${SHARDS} ──\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

const queue = Array.from({ length: SHARDS }, (_, index) => index + 1);
let failed = false;
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let shard = queue.shift(); shard !== undefined; shard = queue.shift()) if ((await runShard(shard)) !== 0) failed = true;
  }),
);
process.exit(failed ? 1 : 0);
