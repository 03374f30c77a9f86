// Starts the built app under `wrangler dev` (with --test-scheduled: GET /__scheduled runs the cron handler) on a free loopback port with its own fresh local state, for the
// end-to-end tests and the benchmarks. Returns { baseURL, stop }.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { createServer } from "node:net";
import { LOCAL_WORKER } from "../../scripts/lib/local-server.mjs";

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
    if (server.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log()}`);
    try {
      // A health check the server accepted but never answered is tried again, within the deadline.
      if ((await fetch(`${url}/api/health`, { signal: globalThis.AbortSignal.timeout(10_000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`wrangler dev did not answer within 60 s:\n${log()}`);
}

/**
 * `vars` are passed as --var; every request comes from one address here, so limits are scaled up. `logFile`, if
 * given, receives everything wrangler prints as it comes (one line per request), for a failing test to show.
 * `requestLog: false` (the benchmarks) runs wrangler with `--log-level warn`: no line per request, which miniflare's
 * entry Worker sends to wrangler's Node process as a request of its own (about 15% of a trivial request's
 * throughput here); warnings and errors still show. `entry` is the
 * Worker to run: a local run's by default, the benchmark's (tests/bench/worker/index.ts) for `npm run bench`.
 */
export async function startDevServer({ stateDir, vars = {}, logFile = null, requestLog = true, entry = LOCAL_WORKER }) {
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
  // Its own inspector port too: two servers starting at once (the e2e shards) would both take wrangler's default.
  const inspectorPort = await freePort();
  const baseURL = `http://localhost:${port}`;
  let output = "";
  const server = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      entry,
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--ip",
      "localhost",
      "--persist-to",
      stateDir,
      "--test-scheduled",
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
    /** What wrangler printed so far (for a benchmark or test that needs to show why something hung). */
    output: () => output,
    /** Wrangler's DevTools port for this Worker (a CPU profile: tests/bench's profiling, or chrome://inspect). */
    inspectorPort,
    /**
     * The Worker's own address, past wrangler dev's proxy (see workerURL below); baseURL when it cannot be found.
     */
    workerURL: () => workerURL(baseURL, server.pid),
    stop() {
      if (server.exitCode === null && server.pid) process.kill(-server.pid, "SIGTERM");
    },
  };
}

/** The process group of `pid` (Linux: the fifth field of /proc/{pid}/stat), or null. */
function processGroup(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[2]);
  } catch {
    return null;
  }
}

/**
 * `wrangler dev` runs two workerd processes: the one on `--port` is wrangler's proxy (it holds requests while a
 * reload is under way, and adds its own process hop to each), which forwards every request to the one that runs
 * the Worker, on a loopback port of its own. Production has no such hop, so the benchmarks' speed figures are also
 * measured at the Worker's own port: the other workerd of this server's process group that answers /api/health
 * (its sockets found with `ss`, Linux's socket list). Same Worker, same bindings and state; without `ss`, or if
 * nothing else answers, the proxied baseURL.
 */
async function workerURL(baseURL, groupId) {
  const publicPort = new URL(baseURL).port;
  let sockets;
  try {
    sockets = execFileSync("ss", ["-Hltnp"], { encoding: "utf8" })
      .split("\n")
      .map((line) => ({ port: line.match(/127\.0\.0\.1:(\d+)/)?.[1], pid: line.match(/"workerd",pid=(\d+)/)?.[1] }))
      .filter((socket) => socket.port && socket.pid && processGroup(socket.pid) === groupId);
  } catch {
    return baseURL;
  }
  const proxyPid = sockets.find((socket) => socket.port === publicPort)?.pid;
  for (const { port, pid } of sockets) {
    if (pid === proxyPid) continue;
    const url = `http://127.0.0.1:${port}`;
    const answer = await fetch(`${url}/api/health`, { signal: globalThis.AbortSignal.timeout(10_000) }).catch(
      () => null,
    );
    if (answer?.status === 200 && (await answer.text()).includes('"ok"')) return url;
  }
  return baseURL;
}
