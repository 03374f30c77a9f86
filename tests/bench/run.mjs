#!/usr/bin/env node
// `npm run bench`: figures, not assertions. Starts the production build on the local server (Miniflare,
// tests/support/dev-server.mjs) on loopback with its own state, then measures
//   1. GET /api/me throughput against GET /api/health (a trivial JSON route on the same Worker), same run;
//   2. GET /api/updates and GET /api/searchUsers throughput against the same reference, over seeded data
//      (tests/bench/seed.sql: 10,000 users, 500,000 follows, 200,000 posts, QUALITY.md's sizes);
//      with one D1 round trip alone (GET /__bench/d1-trip: a `SELECT 1`, nothing around it), the ceiling of any
//      request that reads D1 once;
//   3. sign-in latency (POST /api/login, argon2id verification included);
//   4. the /home server render of the first timeline page: p50/p95, D1 statements per request, the query plan
//      (tests/bench/home-timeline.mjs);
//   5. the JavaScript a signed-in first load of /home downloads, gzipped (Chromium, like a person);
//   6. tips per second with the books audited afterwards (tests/bench/money.mjs);
//   7. chat: send → delivery p50/p95, messages per second in one conversation (tests/bench/chat.mjs); a mass
//      message to 10,000 recipients against one-to-one messages (tests/bench/mass-messages.mjs; BENCH_ONLY=mass);
//   8. offline: a launch of /home to its first post online and offline, and the outbox's replay of 200 actions
//      (tests/bench/offline.mjs);
//   9. web push: a new post pushed to 1,000 followers' devices, time and the consumer's work (tests/bench/push.mjs);
//  10. live: a chat line to 500 viewer sockets of one LiveRoom, and a viewer's time to the first frame over p2p
//      (tests/bench/live.mjs);
//  11. stories: the stories bar for a fan following 1,000 creators against one following 10, and its query plan
//      (tests/bench/stories.mjs);
//  12. D1 round trips (and statements) per request on each hot path: session, updates, timeline, /home, profile, tip,
//      message send, stories bar, conversation list (tests/bench/round-trips.mjs; BENCH_ONLY=roundtrips);
//  13. Lighthouse, default mobile preset: the four category scores, LCP, TBT and CLS of /, a creator's profile
//      and a signed-in /home (tests/bench/lighthouse.mjs; BENCH_ONLY=lighthouse);
//  14. a signed-in first /home under DevTools' "Slow 3G": first post visible, DOMContentLoaded, load, hydration,
//      bytes transferred (tests/bench/slow-3g.mjs; BENCH_ONLY=slow3g);
//  15. autocannon, 50 connections: GET /api/updates and GET /home against GET /api/health, requests/s, p50/p99,
//      errors (tests/bench/load.mjs; BENCH_ONLY=load);
//  16. video: a 60 s 1080p recording converted in the creator's browser, and its first frame, bytes and stalls on
//      Slow 3G and Fast 4G, the original against the player's choice (tests/bench/video.mjs; BENCH_ONLY=video);
//  17. fan lists: a custom list of 10,000 fans paged through, and its top spenders, p50/p95 a page against
//      Dashboard → Fans over the same fans (tests/bench/fan-lists.mjs; BENCH_ONLY=lists);
//  18. growth: /home, timeline, updates, stories bar and conversation list at 1,000, 10,000 and 100,000 users, a
//      typical and a heavy fan, each size on its own server after this one stops (tests/bench/growth.mjs;
//      BENCH_ONLY=growth, BENCH_GROWTH_SIZES=1000,10000 for fewer sizes).
// Machines here are small and noisy: read the ratio first, the absolute numbers second.
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { BENCH_WORKER, startDevServer } from "../support/dev-server.mjs";
import { benchHomeTimeline } from "./home-timeline.mjs";
import { benchMoney } from "./money.mjs";
import { benchChat } from "./chat.mjs";
import { benchMassMessages } from "./mass-messages.mjs";
import { benchOffline } from "./offline.mjs";
import { benchPush } from "./push.mjs";
import { benchLive } from "./live.mjs";
import { benchStories } from "./stories.mjs";
import { benchFanLists } from "./fan-lists.mjs";
import { benchVideo } from "./video.mjs";
import { benchRoundTrips } from "./round-trips.mjs";
import { benchLighthouse, seedPageBench } from "./lighthouse.mjs";
import { benchSlow3G } from "./slow-3g.mjs";
import { benchLoad } from "./load.mjs";
import { benchGrowth } from "./growth.mjs";
import { percentile, throughput as measureThroughput } from "./measure.mjs";
import { demoImage } from "../../scripts/lib/png.mjs";

const STATE_DIR = "tests/bench/.state";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 40);
/**
 * BENCH_ONLY=core runs only the first figures (1–5: throughput against the reference, sign-in, the /home render,
 * the first-load JavaScript) over the big seed. BENCH_ONLY=money runs only the money benchmark (it needs neither
 * the big seed nor a browser); BENCH_ONLY=js only the first-load JavaScript (BENCH_VERBOSE=1 lists the files); BENCH_ONLY=chat only the chat (tests/bench/chat.mjs); BENCH_ONLY=mass only the mass message (tests/bench/mass-messages.mjs);
 * BENCH_ONLY=offline only the offline figures (tests/bench/offline.mjs); BENCH_ONLY=push only the push fan-out
 * (tests/bench/push.mjs); BENCH_ONLY=live only the live figures (tests/bench/live.mjs); BENCH_ONLY=stories only the
 * stories bar (tests/bench/stories.mjs); BENCH_ONLY=video only the video figures (tests/bench/video.mjs). BENCH_ONLY=lighthouse, =slow3g and =load run only that page figure, for a
 * person signed up here who follows one small seeded creator (tests/bench/lighthouse.mjs, seedPageBench); the
 * full run measures them for the core figures' bench user over the big seed, and so does a run that names core
 * with them (parts are comma-separated: BENCH_ONLY=core,lighthouse).
 */
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(",") : null;
/** Whether this run measures `part`: every part without BENCH_ONLY, else those it names (comma-separated). */
const runs = (part) => !ONLY || ONLY.includes(part);

/** The Worker's count of D1 statements and round trips so far (tests/bench/worker/count-d1.ts). */
const d1Count = async (base) => (await fetch(`${base}/__bench/d1-statements`)).json();
const throughput = (url, headers) =>
  measureThroughput(url, headers, { durationMs: DURATION_MS, concurrency: CONCURRENCY });

async function benchCore(server) {
  const person = {
    username: `bench_${Date.now().toString(36)}`,
    name: "Bench",
    email: `bench_${Date.now()}@example.test`,
    password: "a long bench passphrase",
    dateOfBirth: "1990-01-01",
    accountType: "other",
  };
  const signup = await fetch(`${server.baseURL}/api/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(person),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { token, user } = await signup.json();
  execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", STATE_DIR, "--file", "tests/bench/seed.sql"],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: "pipe",
    },
  );
  // The bench user follows 50 creators and has unread notifications, so /updates does real work.
  execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      STATE_DIR,
      "--command",
      `INSERT INTO follows (follower_id, creator_id, created_at) SELECT ${user.userId}, id, '2026-02-01T00:00:00.000Z' FROM users WHERE role = 'creator' LIMIT 50;
     INSERT INTO notifications (user_id, kind, created_at) SELECT ${user.userId}, 'test', '2026-02-01T00:00:00.000Z' FROM users LIMIT 30;`,
    ],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: "pipe",
    },
  );

  // Seeding takes longer than the server keeps an idle connection: the first reuse of the sign-up's socket fails
  // with "other side closed", so one throwaway request drops it from the pool before anything is measured.
  await fetch(`${server.baseURL}/api/health`)
    .then((r) => r.arrayBuffer())
    .catch(() => {});

  // The seed's image rows have no files: store one (its blurred preview, and the copy 640 pixels wide that an
  // uploader's browser makes of a photo 720 wide) for the newest 300, enough for the pages the page figures open,
  // so that no 404 is measured as the app's (tests/bench/worker/media-files.ts).
  const files = await fetch(`${server.baseURL}/__bench/media-files?limit=300`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      image: demoImage(720, 900, [40, 90, 140], [240, 200, 150], 5).toString("base64"),
      preview: demoImage(36, 45, [80, 110, 150], [230, 200, 170], 5).toString("base64"),
      w640: demoImage(640, 800, [40, 90, 140], [240, 200, 150], 5).toString("base64"),
    }),
  });
  if (!files.ok) throw new Error(`storing the seed's media files failed: ${files.status} ${await files.text()}`);

  // Warm-up, then alternate the routes twice so that drift on a noisy machine hits all.
  const auth = { Authorization: `Bearer ${token}` };
  const base = server.baseURL;
  const routes = {
    health: [`${base}/api/health`, {}],
    me: [`${base}/api/me`, auth],
    updates: [`${base}/api/updates`, auth],
    search: [`${base}/api/searchUsers?searchTerm=mia%20riv`, auth],
    trip: [`${base}/__bench/d1-trip`, {}],
  };
  await throughput(routes.health[0], {});
  const rounds = [];
  // D1 round trips a request of /api/updates under load (one at a time it is 1).
  const trips = { roundTrips: 0, requests: 0 };
  for (let round = 0; round < 2; round++) {
    const figures = {};
    for (const name of Object.keys(routes)) {
      const before = name === "updates" ? await d1Count(base) : null;
      figures[name] = await throughput(...routes[name]);
      if (before) {
        trips.roundTrips += (await d1Count(base)).roundTrips - before.roundTrips;
        trips.requests += figures[name].requests;
      }
    }
    rounds.push(figures);
  }
  const mean = (name) => rounds.reduce((sum, r) => sum + r[name].perSecond, 0) / rounds.length;
  const [health, me, updates, search, trip] = ["health", "me", "updates", "search", "trip"].map(mean);
  const failures = rounds.reduce((sum, r) => sum + Object.values(r).reduce((n, f) => n + f.failed, 0), 0);
  const updatesTrips = trips.roundTrips / trips.requests;

  const latencies = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const started = performance.now();
    const response = await fetch(`${server.baseURL}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ login: person.email, password: person.password }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);

  console.log(
    `\nBenchmarks (${CONCURRENCY} concurrent clients, ${DURATION_MS} ms per measurement, loopback, Miniflare)\n`,
  );
  console.log(`GET /api/health (reference)   ${health.toFixed(0).padStart(7)} req/s`);
  console.log(
    `GET /api/me                   ${me.toFixed(0).padStart(7)} req/s   = ${((me / health) * 100).toFixed(0)}% of the reference`,
  );
  console.log(
    `GET /api/updates              ${updates.toFixed(0).padStart(7)} req/s   = ${((updates / health) * 100).toFixed(0)}% of the reference (target ≥ 60%); ${((updates / trip) * 100).toFixed(0)}% of one D1 round trip alone`,
  );
  console.log(
    `  D1 round trips a request    ${updatesTrips.toFixed(2).padStart(7)}         (${CONCURRENCY} clients; one at a time: 1)`,
  );
  console.log(
    `GET /api/searchUsers          ${search.toFixed(0).padStart(7)} req/s   = ${((search / health) * 100).toFixed(0)}% of the reference`,
  );
  console.log(
    `one D1 round trip alone       ${trip.toFixed(0).padStart(7)} req/s   = ${((trip / health) * 100).toFixed(0)}% of the reference (SELECT 1, no router, middleware or session: the ceiling of a request that reads D1 once)`,
  );
  console.log(`failed requests               ${String(failures).padStart(7)}`);
  console.log(
    `POST /api/login latency       p50 ${percentile(latencies, 50).toFixed(1)} ms   p95 ${percentile(latencies, 95).toFixed(1)} ms   (n=${SIGN_INS})`,
  );

  await benchHomeTimeline(server.baseURL, { token, userId: user.userId });

  await benchFirstLoadJavaScript(server.baseURL, person);
  return { token, user, person };
}

/** Signs up a person through the API, for the benchmarks that need nothing else; with the answer's { token, user }. */
async function signUpBenchPerson(baseURL) {
  const person = {
    username: `bench_${Date.now().toString(36)}`,
    name: "Bench",
    email: `bench_${Date.now()}@example.test`,
    password: "a long bench passphrase",
    dateOfBirth: "1990-01-01",
    accountType: "other",
  };
  const signup = await fetch(`${baseURL}/api/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(person),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  return { ...person, ...(await signup.json()) };
}

/** The JavaScript a signed-in first load of /home downloads until the network is quiet, gzipped, file by file. */
async function benchFirstLoadJavaScript(baseURL, person) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const context = await browser.newContext({ baseURL });
    const login = await context.request.post("/api/login", {
      data: { login: person.email, password: person.password },
    });
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
    const page = await context.newPage();
    const scripts = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response);
    });
    await page.goto("/home", { waitUntil: "networkidle" });
    let raw = 0;
    let gzipped = 0;
    const files = [];
    for (const response of scripts) {
      const body = await response.body();
      const size = gzipSync(body, { level: 9 }).length;
      raw += body.length;
      gzipped += size;
      files.push([new URL(response.url()).pathname, size]);
    }
    console.log(
      `JavaScript of a first /home    ${(gzipped / 1024).toFixed(1).padStart(7)} KB gzip   (${scripts.length} files, ${(raw / 1024).toFixed(0)} KB raw; target ≤ 120 KB)`,
    );
    if (process.env.BENCH_VERBOSE)
      for (const [path, size] of files.sort((a, b) => b[1] - a[1]))
        console.log(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${path}`);
  } finally {
    await browser.close();
  }
}

// BENCH_ONLY=growth needs none of this server (nor wipes its state): the growth figures start their own.
const server =
  ONLY?.join() === "growth"
    ? null
    : await startDevServer({
        stateDir: STATE_DIR,
        vars: { RATE_LIMIT_SCALE: "100000" },
        entry: BENCH_WORKER,
        logFile: process.env.BENCH_SERVER_LOG ?? null,
        requestLog: false,
      });
// The signed-in person of the page figures (Lighthouse, slow 3G, load) and a creator's profile to open.
const PAGE_BENCHES = ["lighthouse", "slow3g", "load"];
let signedIn = null;
try {
  if (ONLY?.join() === "js") await benchFirstLoadJavaScript(server.baseURL, await signUpBenchPerson(server.baseURL));
  else if (runs("core")) signedIn = { token: (await benchCore(server)).token, profilePath: "/bench_00010" };
  else if (PAGE_BENCHES.some(runs))
    signedIn = await seedPageBench(server.baseURL, STATE_DIR, await signUpBenchPerson(server.baseURL));
  if (runs("lighthouse"))
    await benchLighthouse(server.baseURL, {
      cookie: `__Host-session=${signedIn.token}`,
      profilePath: signedIn.profilePath,
    });
  if (runs("slow3g")) await benchSlow3G(server.baseURL, { cookie: `__Host-session=${signedIn.token}` });
  if (runs("load")) await benchLoad(server.baseURL, { token: signedIn.token });
  if (runs("roundtrips")) await benchRoundTrips(server.baseURL, STATE_DIR);
  if (runs("chat")) await benchChat(server.baseURL, STATE_DIR);
  if (runs("mass")) await benchMassMessages(server.baseURL, STATE_DIR);
  if (runs("money")) await benchMoney(server.baseURL, STATE_DIR);
  if (runs("offline")) await benchOffline(server.baseURL, STATE_DIR);
  if (runs("push")) await benchPush(server.baseURL, STATE_DIR);
  if (runs("live")) await benchLive(server.baseURL, STATE_DIR);
  if (runs("stories")) await benchStories(server.baseURL, STATE_DIR);
  if (runs("lists")) await benchFanLists(server.baseURL, STATE_DIR);
  if (runs("video")) await benchVideo(server.baseURL, STATE_DIR);
} finally {
  server?.stop();
}
if (runs("growth")) await benchGrowth();
