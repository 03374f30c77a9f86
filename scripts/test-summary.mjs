#!/usr/bin/env node
// Prints one closing line for the whole suite, "N passed, N failed", from the JSON reports of the three tiers.
import { existsSync, readFileSync } from "node:fs";
import { WORKER_SHARDS } from "./lib/shards.mjs";

let passed = 0;
let failed = 0;
let skipped = 0;
const reports = ["unit", ...Array.from({ length: WORKER_SHARDS }, (_, i) => `worker-${i + 1}`), "e2e"];
for (const tier of reports) {
  const file = `test-results/${tier}.json`;
  if (!existsSync(file)) {
    console.error(`missing ${file}: that part of the suite did not run`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
