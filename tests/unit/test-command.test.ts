import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * `npm test` (scripts/test.mjs) run in a throwaway project whose steps are one-line stand-ins: each tier writes the
 * JSON report vitest would (or fails), so the runner's order, its summary and its exit code are checked in seconds.
 */
const SCRIPTS = ["test.mjs", "parallel.mjs", "test-summary.mjs", "lib/shards.mjs"];
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A step that writes `reports` (name: [passed, failed]) into test-results/, notes that it ran, and exits `code`. */
function standIn(name: string, code: number, reports: Record<string, [number, number]> = {}) {
  const writes = Object.entries(reports)
    .map(
      ([file, [passed, failed]]) =>
        `fs.writeFileSync("test-results/${file}.json", JSON.stringify({ numPassedTests: ${passed}, numFailedTests: ${failed}, numPendingTests: 0 }));`,
    )
    .join(" ");
  return `node -e 'const fs = require("fs"); fs.mkdirSync("test-results", { recursive: true }); fs.appendFileSync("ran", "${name}\\n"); ${writes} process.exit(${code})'`;
}

/** A step that waits (at most 30 s) until `file` exists, then runs as `standIn`; exits 9 if it never comes. */
function standInAfter(file: string, name: string, reports: Record<string, [number, number]>) {
  const waitFor = `node -e 'const fs = require("fs"); const end = Date.now() + 30000; const check = () => fs.existsSync("${file}") ? process.exit(0) : Date.now() > end ? process.exit(9) : setTimeout(check, 50); check()'`;
  return `${waitFor} && ${standIn(name, 0, reports)}`;
}

function project(fail: { build?: boolean; worker?: boolean; unitWaitsForE2e?: boolean; lintWaitsForE2e?: boolean }) {
  const dir = mkdtempSync(join(tmpdir(), "test-command-"));
  made.push(dir);
  mkdirSync(join(dir, "scripts/lib"), { recursive: true });
  for (const file of SCRIPTS) cpSync(join("scripts", file), join(dir, "scripts", file));
  const workerReports = Object.fromEntries(
    [1, 2, 3, 4].map((n) => [`worker-${n}`, [2, fail.worker && n === 3 ? 1 : 0] as [number, number]]),
  );
  const scripts = {
    lint: fail.lintWaitsForE2e ? standInAfter("test-results/e2e.json", "lint", {}) : standIn("lint", 0),
    typecheck: standIn("typecheck", 0),
    build: standIn("build", fail.build ? 1 : 0),
    "test:unit": fail.unitWaitsForE2e
      ? standInAfter("test-results/e2e.json", "unit", { unit: [5, 0] })
      : standIn("unit", 0, { unit: [5, 0] }),
    "test:worker": standIn("worker", fail.worker ? 1 : 0, workerReports),
    "test:e2e": standIn("e2e", 0, { e2e: [3, 0] }),
  };
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "stand-in", private: true, type: "module", scripts }),
  );
  return dir;
}

/**
 * A synchronous run blocks the event loop, so the test's own time-out cannot end it: it gets a bound of its own,
 * under the describe's time-out, and a run that outlasts it fails saying so.
 */
const RUN_MS = 150_000;

function npmTest(dir: string) {
  const result = spawnSync("node", ["scripts/test.mjs"], { cwd: dir, encoding: "utf8", timeout: RUN_MS });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT")
    throw new Error(`npm test (scripts/test.mjs) in the stand-in project did not end within ${RUN_MS / 1000} s`, {
      cause: result.error,
    });
  const ran = spawnSync("sh", ["-c", "sort ran"], { cwd: dir, encoding: "utf8" }).stdout.trim().split("\n");
  return { code: result.status, lastLine: result.stdout.trim().split("\n").at(-1), stderr: result.stderr, ran };
}

// Each run starts npm six times: seconds on a quiet machine, far more beside a build.
describe("npm test", { timeout: 180_000 }, () => {
  it("still runs the later tiers and prints the summary when a tier fails, and exits non-zero", () => {
    const outcome = npmTest(project({ worker: true }));
    expect(outcome.ran).toEqual(["build", "e2e", "lint", "typecheck", "unit", "worker"]);
    expect(outcome.lastLine).toBe("16 passed, 1 failed");
    expect(outcome.stderr).toContain("failed: worker tier");
    expect(outcome.code).toBe(1);
  });

  it("a failed build skips the end-to-end tier (it tests the build), named as missing, and fails the run", () => {
    const unbuilt = npmTest(project({ build: true }));
    expect(unbuilt.ran).toEqual(["build", "lint", "typecheck", "unit", "worker"]);
    expect(unbuilt.stderr).toContain("missing test-results/e2e.json");
    expect(unbuilt.lastLine).toBe("13 passed, 0 failed");
    expect(unbuilt.code).toBe(1);
  });

  it("starts the end-to-end tier once the build is done, without waiting for lint and types", () => {
    // Lint's stand-in ends only once the end-to-end tier's report is there: were the tier to wait for lint, lint
    // would wait for it in turn, and fail.
    const outcome = npmTest(project({ lintWaitsForE2e: true }));
    expect(outcome.ran).toEqual(["build", "e2e", "lint", "typecheck", "unit", "worker"]);
    expect(outcome.lastLine).toBe("16 passed, 0 failed");
    expect(outcome.code).toBe(0);
  });

  it("runs the unit and worker tiers while the end-to-end tier runs", () => {
    // The unit tier's stand-in ends only once the end-to-end tier's report is there: run one after the other, the
    // unit tier would wait for a tier that starts after it, and fail.
    const outcome = npmTest(project({ unitWaitsForE2e: true }));
    expect(outcome.ran).toEqual(["build", "e2e", "lint", "typecheck", "unit", "worker"]);
    expect(outcome.lastLine).toBe("16 passed, 0 failed");
    expect(outcome.code).toBe(0);
  });
});
