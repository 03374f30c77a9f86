#!/usr/bin/env node
// Runs the worker tier (tests/worker) in one workerd, writing test-results/worker.json. It first makes sure that
// @cloudflare/vitest-pool-workers carries our isolated-storage patch (scripts/patch-vitest-pool-workers.mjs, also
// run on install): without it a SQLite sidecar file left by an aborted Durable Object stops the whole run.
// Extra arguments (e.g. a file filter) are passed to vitest.
import { spawnSync } from "node:child_process";

const run = (command, args) => spawnSync(command, args, { stdio: "inherit" }).status ?? 1;

if (run("node", ["scripts/patch-vitest-pool-workers.mjs"]) !== 0) process.exit(1);
process.exit(
  run("npx", ["vitest", "run", "--config", "vitest.worker.config.ts", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/worker.json", ...process.argv.slice(2)]),
);
