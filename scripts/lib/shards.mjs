// Runs a test tier's files in shards, each its own vitest process, a few at a time (the machine has two cores):
// used by scripts/test-worker.mjs. (Two end-to-end shards at once, each with its own server, were tried: 15 min
// 42 s instead of about 16, and flaky under the load; the e2e tier is CPU-bound and stays one process.) The files are dealt to the shards by their measured
// seconds (a weights file, tests/{tier}/shard-weights.json; a file not listed counts DEFAULT_WEIGHT), longest
// first onto the lightest shard, rather than by vitest's --shard, which deals by name (it once put three of the
// four heaviest worker files into one shard: 208 s against 13 s for another).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const DEFAULT_WEIGHT = 10;

/** How many shards the worker tier runs in (scripts/test-worker.mjs); the suite's summary expects one report each. */
export const WORKER_SHARDS = 4;

/** Longest first onto the shard with the least so far: within a few seconds of even for these sizes. */
function dealFiles(paths, weightOf, shards) {
  const dealt = Array.from({ length: shards }, () => ({ files: [], seconds: 0 }));
  for (const path of [...paths].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b))) {
    const lightest = dealt.reduce((least, shard) => (shard.seconds < least.seconds ? shard : least));
    lightest.files.push(path);
    lightest.seconds += weightOf(path);
  }
  return dealt;
}

/**
 * Runs `tier`'s test files (tests/{tier}/*.test.ts, only those containing one of `filters` when given) in `shards`
 * vitest processes of `config`, `atOnce` at a time, each writing test-results/{tier}-{n}.json. `envOf(n)` adds
 * environment variables to shard n. Each shard's output is kept and printed whole when it ends, so two shards
 * never interleave their lines. Resolves with the exit code: 0 when every shard passed.
 */
export async function runShards({ tier, config, shards, atOnce, filters = [], envOf = () => ({}) }) {
  const weights = JSON.parse(readFileSync(`tests/${tier}/shard-weights.json`, "utf8"));
  const files = readdirSync(`tests/${tier}`)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => `tests/${tier}/${name}`)
    .filter((path) => filters.length === 0 || filters.some((filter) => path.includes(filter)));
  const dealt = dealFiles(files, (path) => weights[path.slice(`tests/${tier}/`.length)] ?? DEFAULT_WEIGHT, shards);

  const runShard = (shard) => {
    const { files: mine } = dealt[shard - 1];
    if (mine.length === 0) return Promise.resolve(0);
    return new Promise((resolve) => {
      const env = { ...process.env, ...envOf(shard), ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) };
      const child = spawn(
        "npx",
        [
          "vitest",
          "run",
          "--config",
          config,
          "--passWithNoTests",
          "--reporter=default",
          "--reporter=json",
          `--outputFile.json=test-results/${tier}-${shard}.json`,
          ...mine,
        ],
        { stdio: ["ignore", "pipe", "pipe"], env },
      );
      const output = [];
      child.stdout.on("data", (chunk) => output.push(chunk));
      child.stderr.on("data", (chunk) => output.push(chunk));
      child.on("close", (code) => {
        process.stdout.write(`\n── ${tier} shard ${shard}/${shards} ──\n`);
        process.stdout.write(Buffer.concat(output));
        resolve(code ?? 1);
      });
    });
  };

  const queue = Array.from({ length: shards }, (_, index) => index + 1);
  let failed = false;
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      for (let shard = queue.shift(); shard !== undefined; shard = queue.shift())
        if ((await runShard(shard)) !== 0) failed = true;
    }),
  );
  return failed ? 1 : 0;
}
