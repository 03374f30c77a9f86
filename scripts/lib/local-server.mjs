// Serves the built app on this machine: the Worker bundled as `wrangler deploy` bundles it, run by Miniflare (the
// workerd simulator wrangler itself uses) with wrangler.toml's bindings, and no proxy in front of it
// (docs/decisions/local-development.md). Used by `npm start`, `npm run dev`, the end-to-end tier and the benchmarks.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/** A local run's Worker: production's (wrangler.toml's main) plus the development mailbox (worker/dev). */
export const LOCAL_WORKER = "worker/dev/index.ts";

const MINUTE_MS = 60_000;
/** What a change under build/ waits for more changes before the server takes them (a build writes many files). */
const SETTLE_MS = 300;

/** Bundles `entry` into `outDir` exactly as a deployment would (wrangler.toml's alias, define and flags). */
function bundle(entry, outDir) {
  return new Promise((resolve, reject) => {
    rmSync(outDir, { recursive: true, force: true });
    const child = spawn("npx", ["wrangler", "deploy", "--dry-run", "--outdir", outDir, entry], {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`bundling ${entry} failed:\n${output}`))));
  });
}

/** The bundle's modules for Miniflare: the entry first, then the WebAssembly files it imports. */
function modulesOf(outDir) {
  const files = readdirSync(outDir).filter((file) => file.endsWith(".wasm"));
  return [
    { type: "ESModule", path: join(outDir, "index.js") },
    ...files.map((file) => ({ type: "CompiledWasm", path: join(outDir, file) })),
  ];
}

/**
 * Starts the server and resolves once it answers. `persistTo` is the local state (D1, R2, Durable Objects) in
 * wrangler's layout, so `wrangler d1 … --local --persist-to` reads and writes the same database; `vars` override
 * wrangler.toml's and .dev.vars'. `cron` plays Cloudflare's cron trigger (wrangler.toml's "* * * * *"): the scheduled
 * jobs run once the server answers and then at the start of every minute, through the local Worker's GET /__scheduled.
 * With `watch`, a file changed under build/ (the service-worker update test's sw.js) is served within seconds, and a
 * change to build/server bundles the Worker again; `reload()` does the same at once (npm run dev, after each build,
 * which would be seen half written).
 */
export async function serveLocally({
  entry = LOCAL_WORKER,
  port = 8787,
  host = "127.0.0.1",
  persistTo = ".wrangler/state",
  vars = {},
  logLevel = LogLevel.INFO,
  cron = false,
  watch: watchBuild = false,
  print = console.log,
} = {}) {
  const outDir = mkdtempSync(join(tmpdir(), "fanclub-worker-"));
  const options = () => {
    const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
    return {
      ...workerOptions,
      name: "fanclub",
      modulesRoot: outDir,
      modules: modulesOf(outDir),
      bindings: { ...workerOptions.bindings, ...vars },
      d1Persist: join(persistTo, "v3", "d1"),
      r2Persist: join(persistTo, "v3", "r2"),
      durableObjectsPersist: join(persistTo, "v3", "do"),
      kvPersist: join(persistTo, "v3", "kv"),
      cachePersist: join(persistTo, "v3", "cache"),
      // No request asks Cloudflare for a `Request.cf` (this machine may be offline): a fixed placeholder.
      cf: false,
      host,
      port,
      log: new Log(logLevel),
    };
  };
  await bundle(entry, outDir);
  const miniflare = new Miniflare(options());
  const url = new URL(await miniflare.ready);
  const origin = `http://${host === "127.0.0.1" ? "localhost" : host}:${url.port}`;

  // One update at a time; changes that come meanwhile are taken by one more update after it.
  let updating = null;
  let pending = null;
  const update = (rebundle) => {
    if (updating) {
      pending = { rebundle: rebundle || pending?.rebundle };
      return updating;
    }
    updating = (async () => {
      try {
        if (rebundle) await bundle(entry, outDir);
        await miniflare.setOptions(options());
        print(`local server: serving the new build${rebundle ? " (the Worker bundled again)" : "'s files"}`);
      } catch (error) {
        print(`local server: could not take the change: ${error.message}`);
      }
    })().finally(() => {
      updating = null;
      if (pending) {
        const next = pending;
        pending = null;
        void update(next.rebundle);
      }
    });
    return updating;
  };

  // Built files: the assets' list (and ETags) is read again; the server's part of a build needs a new bundle.
  let settle;
  let serverChanged = false;
  const watcher = !watchBuild
    ? null
    : watch("build", { recursive: true }, (_event, file) => {
        if (String(file ?? "").startsWith("server")) serverChanged = true;
        clearTimeout(settle);
        settle = setTimeout(() => {
          const rebundle = serverChanged;
          serverChanged = false;
          void update(rebundle);
        }, SETTLE_MS);
      });

  let timer;
  let stopped = false;
  async function tick() {
    try {
      const response = await fetch(`${origin}/__scheduled`);
      if (!response.ok) print(`cron: the scheduled jobs answered ${response.status}`);
    } catch (error) {
      print(`cron: could not reach the server (${error.message}); trying again next minute`);
    }
  }
  function scheduleNext() {
    if (stopped) return;
    timer = setTimeout(
      async () => {
        await tick();
        scheduleNext();
      },
      MINUTE_MS - (Date.now() % MINUTE_MS),
    );
  }
  if (cron) {
    // The first run at once, so that the demo's due earnings are available.
    await tick();
    print("cron: the scheduled jobs run every minute");
    scheduleNext();
  }

  return {
    origin,
    reload: () => update(true),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(settle);
      watcher?.close();
      await updating;
      await miniflare.dispose();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
