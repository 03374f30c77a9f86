#!/usr/bin/env node
// Runs the worker tier (tests/worker) in six shards, two at a time (the machine has two cores), each in a fresh
// workerd, writing test-results/worker-{n}.json. It first makes sure that @cloudflare/vitest-pool-workers carries
// our isolated-storage patch (scripts/patch-vitest-pool-workers.mjs, also run on install): without it a SQLite
// sidecar file left by an aborted Durable Object stops the whole run. The shards are for speed, not safety: in one
// runtime every request gets slower the more the runtime has served (a few ms at first, hundreds of ms after
// thousands), so a fresh runtime per sixth of the work keeps the tier at a few minutes.
// The files are dealt to the shards by their measured seconds (tests/worker/shard-weights.json; a file not listed
// counts DEFAULT_WEIGHT), heaviest first onto the lightest shard, rather than by vitest's --shard, which deals
// by name and once put three of the four heaviest files into one shard (208 s against 13 s for another).
// Extra arguments are file filters: only the files whose path contains one of them run. WORKER_SHARDS_AT_ONCE=1
// runs the shards one by one.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const SHARDS = 6;
const AT_ONCE = Number(process.env.WORKER_SHARDS_AT_ONCE ?? 2);

if ((spawnSync("node", ["scripts/patch-vitest-pool-workers.mjs"], { stdio: "inherit" }).status ?? 1) !== 0) process.exit(1);

const DEFAULT_WEIGHT = 10;
const weights = JSON.parse(readFileSync("tests/worker/shard-weights.json", "utf8"));
const filters = process.argv.slice(2);
const files = readdirSync("tests/worker")
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `tests/worker/${name}`)
  .filter((path) => filters.length === 0 || filters.some((filter) => path.includes(filter)));

/** Longest first onto the shard with the least so far: within a few seconds of even for these sizes. */
export function dealFiles(paths, weightOf, shards) {
  const dealt = Array.from({ length: shards }, () => ({ files: [], seconds: 0 }));
  for (const path of [...paths].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b))) {
    const lightest = dealt.reduce((least, shard) => (shard.seconds < least.seconds ? shard : least));
    lightest.files.push(path);
    lightest.seconds += weightOf(path);
  }
  return dealt;
}
const shardsOfFiles = dealFiles(files, (path) => weights[path.slice("tests/worker/".length)] ?? DEFAULT_WEIGHT, SHARDS);

/** One shard; its output is kept and printed whole when it ends, so two shards never interleave their lines. */
function runShard(shard) {
  const { files: mine } = shardsOfFiles[shard - 1];
  if (mine.length === 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const child = spawn("npx", [
      "vitest", "run", "--config", "vitest.worker.config.ts", "--passWithNoTests",
      "--reporter=default", "--reporter=json", `--outputFile.json=test-results/worker-${shard}.json`, ...mine,
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
