#!/usr/bin/env node
// Prints one closing line for the whole suite, "N passed, N failed", from the JSON reports of the three tiers; a
// missing report (a tier that did not run or crashed before writing it) is named above that line and fails it.
import { existsSync, readFileSync } from "node:fs";
import { WORKER_SHARDS } from "./lib/shards.mjs";

/** A tier's JSON report, or null when it is unreadable (a run cut off while writing it). */
function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;
const reports = ["unit", ...Array.from({ length: WORKER_SHARDS }, (_, i) => `worker-${i + 1}`), "e2e"];
for (const tier of reports) {
  const file = `test-results/${tier}.json`;
  const report = existsSync(file) ? readReport(file) : null;
  if (!report) {
    console.error(`missing ${file}: that part of the suite did not run or did not finish`);
    missing += 1;
    continue;
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || missing > 0 ? 1 : 0);
