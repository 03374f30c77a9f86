#!/usr/bin/env node
// Runs the given npm scripts at the same time (the machine has two cores), prints each one's output whole when it
// ends, and fails if any failed. `node scripts/parallel.mjs lint typecheck`.
import { spawn } from "node:child_process";

const results = await Promise.all(
  process.argv.slice(2).map(
    (script) =>
      new Promise((resolve) => {
        const child = spawn("npm", ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] });
        const output = [];
        child.stdout.on("data", (chunk) => output.push(chunk));
        child.stderr.on("data", (chunk) => output.push(chunk));
        child.on("close", (code) => {
          process.stdout.write(`── ${script}: ${code === 0 ? "ok" : `failed (${code})`} ──\n`);
          process.stdout.write(Buffer.concat(output));
          resolve(code);
        });
      }),
  ),
);
process.exit(results.every((code) => code === 0) ? 0 : 1);
