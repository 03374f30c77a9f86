// Starts the built app (scripts/serve.mjs) on a free loopback port with its own fresh local state, for the end-to-end
// tests and the benchmarks. Returns { baseURL, output, stop }.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { createServer } from "node:net";

/** The benchmark's Worker: a local run's plus the D1 count and the /__bench routes (tests/bench/worker/count-d1.ts). */
export const BENCH_WORKER = "tests/bench/worker/index.ts";

/** How much of what the server printed `output()` keeps (its end: up to twice this, cut back to it). */
const OUTPUT_KEPT = 1 << 20;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url, server, log) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited early:\n${log()}`);
    try {
      // A health check the server accepted but never answered is tried again, within the deadline.
      if ((await fetch(`${url}/api/health`, { signal: globalThis.AbortSignal.timeout(10_000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer within 60 s:\n${log()}`);
}

/**
 * `vars` override the configuration; every request comes from one address here, so limits are scaled up. `logFile`,
 * if given, receives everything the server prints as it comes (one line per request), for a failing test to show.
 * `requestLog: false` (the benchmarks) prints warnings and errors only: each request's line is a request of its own
 * from workerd to the server's Node process. `entry` is the Worker to run: a local run's by default, the benchmark's
 * (tests/bench/worker/index.ts) for `npm run bench`. The cron does not tick by itself: a test asks GET /__scheduled.
 */
export async function startDevServer({ stateDir, vars = {}, logFile = null, requestLog = true, entry = null }) {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };
  const migrate = spawnSync(
    "npx",
    ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir],
    { env, encoding: "utf8" },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const allVars = {
    APP_ENV: "test",
    APP_SECRET: "local-test-secret-that-is-long-enough-0123456789",
    RATE_LIMIT_SCALE: "100",
    // A fixed VAPID key pair for the tests only: push is on, and a fake push service on this machine receives it.
    VAPID_PUBLIC_KEY: "BEr0vtT4gsYQw6wA9_1OQp4pf-PfeHnKEV0tG56nQHGduhPz18o4Ovp8nYPAh4e6Hz17Ui0UWIwDWfc3f1V63OA",
    VAPID_PRIVATE_KEY: "eynCnUvpRSn1hJ1D-hymbfCue-1pmAFync1ON9x-oCw",
    VAPID_SUBJECT: "mailto:push-tests@example.com",
    // That fake push service listens on 127.0.0.1 (any port, http): only the test tier may list a loopback host.
    PUSH_SERVICE_HOSTS: "127.0.0.1",
    ...vars,
  };
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  let output = "";
  const server = spawn(
    process.execPath,
    [
      "scripts/serve.mjs",
      ...(entry ? ["--entry", entry] : []),
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      "--no-cron",
      // A test may change a built file (the service-worker update test): served as a new deployment would be.
      "--watch",
      ...(requestLog ? [] : ["--log-level", "warn"]),
      ...Object.entries(allVars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  if (logFile) {
    mkdirSync(dirname(logFile), { recursive: true });
    rmSync(logFile, { force: true });
  }
  const record = (chunk) => {
    // The last megabyte is enough to show why something hung; a flood of errors (workerd once printed 430 MB of
    // them in a benchmark) must not overflow the string and hide the failure behind a RangeError.
    output += chunk;
    if (output.length > 2 * OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
    if (logFile) appendFileSync(logFile, chunk);
  };
  server.stdout.on("data", record);
  server.stderr.on("data", record);
  await waitUntilServing(baseURL, server, () => output);
  return {
    baseURL,
    /** What the server printed so far (for a benchmark or test that needs to show why something hung). */
    output: () => output,
    stop() {
      if (server.exitCode === null && server.pid) process.kill(-server.pid, "SIGTERM");
    },
  };
}
