#!/usr/bin/env node
// `npm test`: lint, types and the build (at the same time); once the build is done, the end-to-end tier and, beside
// it, the unit and worker tiers in turn, while lint and types finish: the end-to-end tier mostly waits (pages,
// sockets, timers), and the others use the cores meanwhile, their output printed whole when each ends. Every tier runs even when an earlier step failed (the
// end-to-end tier only if the build succeeded, as it tests the build), the closing "N passed, N failed" line is
// always printed (scripts/test-summary.mjs, from the tiers' JSON reports), and the command fails if any step failed.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

/** Runs a command with the terminal as its output; resolves to whether it succeeded. */
const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });

/** Runs an npm script with its output kept, printed whole once it ends; resolves to whether it succeeded. */
const runKept = (script) =>
  new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", () => resolve(false));
    child.on("close", (code) => {
      process.stdout.write(`\n── ${script}: ${code === 0 ? "ok" : `failed (${code})`} ──\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });

rmSync("test-results", { recursive: true, force: true });
const failedSteps = [];
const step = async (name, ok) => {
  if (!(await ok)) failedSteps.push(name);
};

// The end-to-end tier needs only the build: it starts once the build is done, while lint and types go on.
const checks = step("lint or typecheck", run("node", ["scripts/parallel.mjs", "lint", "typecheck"]));
const build = await run("node", ["scripts/parallel.mjs", "build"]);
if (!build) failedSteps.push("build");
const unitThenWorker = async (runner) => {
  await step("unit tier", runner("test:unit"));
  await step("worker tier", runner("test:worker"));
};
if (build) {
  await Promise.all([
    step("end-to-end tier", run("npm", ["run", "--silent", "test:e2e"])),
    unitThenWorker(runKept),
    checks,
  ]);
} else {
  await checks;
  await unitThenWorker((script) => run("npm", ["run", "--silent", script]));
  console.error("end-to-end tier not run: the build failed");
}

if (failedSteps.length > 0) console.error(`\nfailed: ${failedSteps.join(", ")}`);
const summary = await run("node", ["scripts/test-summary.mjs"]);
process.exit(failedSteps.length === 0 && summary ? 0 : 1);
