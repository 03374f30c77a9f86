// Serves the built app locally with `wrangler dev` and plays Cloudflare's cron trigger: wrangler dev never fires
// cron triggers by itself, so with --test-scheduled (which adds GET /__scheduled, local only) this ticker runs the
// scheduled handler once the server answers and then at the start of every minute, as wrangler.toml's "* * * * *"
// does in production. Scheduled posts publish, earnings release and subscriptions renew without anyone poking it.
import { spawn } from "node:child_process";

const MINUTE_MS = 60_000;
/** A local run's Worker: production's (wrangler.toml's main) plus the development mailbox (worker/dev). */
export const LOCAL_WORKER = "worker/dev/index.ts";

export function serveLocally({ port = 8787, log = console.log } = {}) {
  const server = spawn("npx", ["wrangler", "dev", LOCAL_WORKER, "--port", String(port), "--test-scheduled"], {
    stdio: "inherit",
  });
  const origin = `http://localhost:${port}`;
  let timer;
  let stopped = false;

  async function tick() {
    try {
      const response = await fetch(`${origin}/__scheduled?cron=*+*+*+*+*`);
      if (!response.ok) log(`cron: the scheduled handler answered ${response.status}`);
    } catch (error) {
      log(`cron: could not reach the server (${error.message}); trying again next minute`);
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

  async function firstRun() {
    // The first run as soon as the server answers, so that the demo's due earnings are available at once.
    for (let attempt = 0; attempt < 600 && !stopped; attempt++) {
      try {
        if ((await fetch(`${origin}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (stopped) return;
    await tick();
    log("cron: the scheduled handler runs every minute (wrangler dev --test-scheduled + scripts/lib/local-server.mjs)");
    scheduleNext();
  }
  void firstRun();

  return {
    server,
    stop(signal = "SIGINT") {
      stopped = true;
      clearTimeout(timer);
      server.kill(signal);
    },
  };
}
