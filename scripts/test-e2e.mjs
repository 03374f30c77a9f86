#!/usr/bin/env node
// Runs the end-to-end tier (tests/e2e, Chromium against the built app) in two shards at once, each its own vitest
// process with its own wrangler dev server and local state (E2E_SHARD: tests/e2e/global-setup.ts), writing
// test-results/e2e-{n}.json. A shard spends most of its time waiting on the browser and the server (about 0.6 of
// a core measured), so two at once take little more than half the time of one after another. The files are dealt
// by their measured seconds (tests/e2e/shard-weights.json, scripts/lib/shards.mjs). Extra arguments are file
// filters; E2E_SHARDS_AT_ONCE=1 runs the shards one by one. Needs `npm run build` first.
import { runShards } from "./lib/shards.mjs";

export const SHARDS = 2;
const AT_ONCE = Number(process.env.E2E_SHARDS_AT_ONCE ?? 2);

process.exit(
  await runShards({ tier: "e2e", config: "vitest.e2e.config.ts", shards: SHARDS, atOnce: AT_ONCE, filters: process.argv.slice(2), envOf: (shard) => ({ E2E_SHARD: String(shard) }) }),
);
