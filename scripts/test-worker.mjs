#!/usr/bin/env node
// Runs the worker tier (tests/worker) in four shards, two at a time (the machine has two cores), each in a fresh
// workerd, writing test-results/worker-{n}.json. It first makes sure that @cloudflare/vitest-pool-workers carries
// the fixes of scripts/patch-vitest-pool-workers.mjs (also run on install): without them a SQLite sidecar file left
// by an aborted Durable Object stops the whole run, and a busy machine fails a storage pop now and then.
// The files are dealt to the shards by their measured seconds (tests/worker/shard-weights.json, scripts/lib/shards.mjs).
// Extra arguments are file filters: only the files whose path contains one of them run. WORKER_SHARDS_AT_ONCE=1
// runs the shards one by one.
import { spawnSync } from "node:child_process";
import { runShards, WORKER_SHARDS } from "./lib/shards.mjs";

const AT_ONCE = Number(process.env.WORKER_SHARDS_AT_ONCE ?? 2);

if ((spawnSync("node", ["scripts/patch-vitest-pool-workers.mjs"], { stdio: "inherit" }).status ?? 1) !== 0)
  process.exit(1);

process.exit(
  await runShards({
    tier: "worker",
    config: "vitest.worker.config.ts",
    shards: WORKER_SHARDS,
    atOnce: AT_ONCE,
    filters: process.argv.slice(2),
  }),
);
