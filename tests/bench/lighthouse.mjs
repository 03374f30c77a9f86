// Lighthouse figures (figures, no assertions): the `lighthouse` package run programmatically with its default
// config (the mobile preset: Moto G Power screen, simulated throttling of a slow 4G network and a 4× slower CPU)
// against the production build on the local server (Miniflare, loopback) in the Chromium of this machine (headless, its
// own empty profile, driven over the DevTools port). Three pages, each a first visit (the origin's storage of
// every kind cleared before it): / and a creator's profile as a visitor, then /home signed in, the session cookie
// put in the browser's cookie jar (Lighthouse itself clears caches and service workers, not cookies). Its
// extraHeaders flag would not do: Chromium adds an extra Cookie header to the navigation but not to the page's own
// fetches, whose 401 signs the page out to /login; the final URL is checked. Per page: the four category scores,
// LCP, TBT and CLS against the targets (performance ≥ 95, TBT ≤ 200 ms, LCP ≤ 1.5 s); BENCH_VERBOSE=1 adds the
// audits that cost points. The simulation scales what it observed on this CPU, so a busy machine makes TBT and
// performance worse than they are: the benchmark index Lighthouse measured is printed with them. Each page runs
// BENCH_LIGHTHOUSE_RUNS times (3) and the median run is reported, chosen as Lighthouse's own tooling does
// (computeMedianRun: the run nearest the median FCP and time to interactive); every run's performance score, TBT
// and FCP are printed beside it, so the spread is visible, with whether the run's scripts had loaded before the
// paint it observed (scriptsBeforePaint below: what makes the simulated FCP of `/` 1.8 s instead of 0.8 s).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { personSql, seed } from "./chat.mjs";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// chrome-launcher's defaults that matter here (Lighthouse's own launcher): no background traffic or throttled
// timers in a page nobody looks at.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-extensions",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--mute-audio",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
];
const CATEGORIES = [
  ["performance", "performance"],
  ["accessibility", "a11y"],
  ["best-practices", "best practices"],
  ["seo", "seo"],
];

/** Chromium with its DevTools port on a free port (it prints which); `close` stops it and removes its profile. */
async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), "bench-lighthouse-"));
  const chrome = spawn(CHROMIUM, [...FLAGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const port = await new Promise((resolve, reject) => {
    chrome.stderr.on("data", (chunk) => {
      stderr += chunk;
      const listening = /DevTools listening on ws:\/\/[^/]+:(\d+)\//.exec(stderr);
      if (listening) resolve(Number(listening[1]));
    });
    chrome.once("exit", (code) => reject(new Error(`Chromium exited (${code}) before it listened:\n${stderr}`)));
  });
  return {
    port,
    async close() {
      if (chrome.exitCode === null) {
        chrome.kill("SIGTERM");
        await once(chrome, "exit");
      }
      // Chromium's helper processes may still be writing the profile when the browser has exited.
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/**
 * Before a page: the origin's storage of every kind cleared (IndexedDB, localStorage, cookies: Lighthouse leaves
 * those), so that each page is a first visit, and `cookie` ("name=value"), if any, put in the jar. Over the
 * browser's DevTools socket, attached to the open tab (Storage.clearDataForOrigin needs a page's storage).
 */
async function prepareOrigin(port, baseURL, cookie) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error("the DevTools socket did not open")), { once: true });
  });
  const waiting = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    waiting.get(message.id)?.(message);
  });
  let lastId = 0;
  const send = async (method, params = {}, sessionId = undefined) => {
    const id = ++lastId;
    const answer = new Promise((resolve) => waiting.set(id, resolve));
    socket.send(JSON.stringify({ id, method, params, sessionId }));
    const { result, error } = await answer;
    if (error) throw new Error(`${method}: ${error.message}`);
    return result;
  };
  try {
    const { targetInfos } = await send("Target.getTargets");
    const tab = targetInfos.find((target) => target.type === "page");
    if (!tab) throw new Error("no open tab in Chromium");
    const { sessionId } = await send("Target.attachToTarget", { targetId: tab.targetId, flatten: true });
    await send("Storage.clearDataForOrigin", { origin: new URL(baseURL).origin, storageTypes: "all" }, sessionId);
    if (cookie) {
      const [name, ...value] = cookie.split("=");
      await send("Storage.setCookies", {
        cookies: [
          { name, value: value.join("="), url: baseURL, path: "/", secure: true, httpOnly: true, sameSite: "Lax" },
        ],
      });
    }
  } finally {
    socket.close();
  }
}

const seconds = (ms) => (ms === undefined || ms === null ? "n/a" : `${(ms / 1000).toFixed(2)} s`);

/**
 * The scripts of High priority that had finished loading before the paint Lighthouse observed, as "N scripts, X KB":
 * its simulation (Lantern's FirstContentfulPaint) counts each of them as render-blocking, since it cannot place a
 * module's evaluation after that paint, and the simulated first paint then waits for them on a slow 4G network. On
 * loopback that is a race between the local download and the first layout, so it is said per run. Empty when none had.
 */
function scriptsBeforePaint(lhr) {
  const observed = lhr.audits.metrics?.details?.items?.[0]?.observedFirstContentfulPaint;
  if (observed === undefined) return "";
  const loaded = (lhr.audits["network-requests"]?.details?.items ?? []).filter(
    (request) => request.resourceType === "Script" && request.priority === "High" && request.networkEndTime <= observed,
  );
  if (loaded.length === 0) return "";
  const bytes = loaded.reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  return `${loaded.length} script${loaded.length === 1 ? "" : "s"}, ${(bytes / 1024).toFixed(0)} KB, loaded before the paint`;
}

/** Why a score or metric is missing: the run's own error, else the first failing audit's message. */
function whyMissing(lhr, auditIds) {
  if (lhr.runtimeError) return `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
  for (const id of auditIds) {
    const audit = lhr.audits[id];
    if (audit && audit.score === null && (audit.errorMessage || audit.explanation))
      return `${id}: ${audit.errorMessage ?? audit.explanation}`;
  }
  return "no reason given";
}

function report(label, lhr, runScores) {
  const scores = CATEGORIES.map(([id, name]) => {
    const score = lhr.categories[id]?.score;
    return score === null || score === undefined ? `${name} n/a` : `${name} ${Math.round(score * 100)}`;
  });
  const metric = (id, format) => {
    const value = lhr.audits[id]?.numericValue;
    return value === undefined || value === null ? "n/a" : format(value);
  };
  const lcp = metric("largest-contentful-paint", (v) => `${(v / 1000).toFixed(2)} s`);
  const tbt = metric("total-blocking-time", (v) => `${v.toFixed(0)} ms`);
  const cls = metric("cumulative-layout-shift", (v) => v.toFixed(3));
  console.log(`${label.padEnd(30)} ${scores.join("   ")}`);
  console.log(
    `${"".padEnd(30)} LCP ${lcp}   TBT ${tbt}   CLS ${cls}   (targets: performance ≥ 95, TBT ≤ 200 ms, LCP ≤ 1.5 s)`,
  );
  if (runScores.length > 1) console.log(`${"".padEnd(30)} performance of each run: ${runScores.join(", ")}`);
  for (const [id, name] of CATEGORIES) {
    if (lhr.categories[id]?.score === null || lhr.categories[id]?.score === undefined) {
      console.log(
        `${"".padEnd(30)} ${name} has no score: ${whyMissing(lhr, lhr.categories[id]?.auditRefs.map((ref) => ref.id) ?? [])}`,
      );
    }
  }
  for (const [id, value] of [
    ["largest-contentful-paint", lcp],
    ["total-blocking-time", tbt],
    ["cumulative-layout-shift", cls],
  ]) {
    if (value === "n/a") console.log(`${"".padEnd(30)} ${id} has no value: ${whyMissing(lhr, [id])}`);
  }
  for (const warning of lhr.runWarnings)
    console.log(`${"".padEnd(30)} warning: ${warning.replace(/\s+/g, " ").slice(0, 200)}`);
  if (process.env.BENCH_VERBOSE) {
    // The element of the largest paint and where its time went (Lighthouse's phases: TTFB, load delay, load
    // time, render delay).
    const lcpElement = lhr.audits["largest-contentful-paint-element"]?.details?.items ?? [];
    const node = lcpElement[0]?.items?.[0]?.node;
    if (node) console.log(`${"".padEnd(32)}largest paint: ${node.snippet}`);
    for (const phase of lcpElement[1]?.items ?? [])
      console.log(`${"".padEnd(34)}${phase.phase} ${Math.round(phase.timing)} ms`);
    // What costs the points: every scored audit of a category below 0.9, with Lighthouse's own figure.
    for (const [id, name] of CATEGORIES) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 0.9)
          console.log(
            `${"".padEnd(32)}${name}: ${ref.id} ${audit.score}${audit.displayValue ? ` (${audit.displayValue})` : ""}`,
          );
      }
    }
  }
}

/**
 * For a run without the big seed (BENCH_ONLY=lighthouse, slow3g or load): a creator with a dozen public posts
 * that `fan` (signed up through the API: { token }) follows, so that /home and the profile have content. The
 * creator and its session are SQL (chat.mjs's helpers), the posts and the follow go through the API.
 */
export async function seedPageBench(baseURL, stateDir, fan) {
  const creator = {
    username: `page_creator_${randomBytes(3).toString("hex")}`,
    token: randomBytes(32).toString("base64url"),
  };
  await seed(baseURL, stateDir, personSql(creator.username, "creator", creator.token));
  const call = async (path, token, body) => {
    const response = await fetch(`${baseURL}/api${path}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  for (let i = 0; i < 12; i++) {
    const text = `Page bench post ${i}: an evening by the harbour, the boats coming in one after another while the light goes.`;
    await call("/posts", creator.token, { text, audience: "everyone", priceCents: 0, mediaIds: [] });
  }
  await call(`/users/${creator.username}/follow`, fan.token);
  return { token: fan.token, profilePath: `/${creator.username}` };
}

export async function benchLighthouse(baseURL, { cookie, profilePath }) {
  const chrome = await launchChromium();
  try {
    const pages = [
      ["/ (visitor)", "/", false],
      [`${profilePath} (visitor)`, profilePath, false],
      ["/home (signed in)", "/home", true],
    ];
    const results = [];
    for (const [label, path, signedIn] of pages) {
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        await prepareOrigin(chrome.port, baseURL, signedIn ? cookie : null);
        const runner = await lighthouse(`${baseURL}${path}`, { port: chrome.port, output: "json", logLevel: "error" });
        if (!runner) throw new Error(`Lighthouse returned nothing for ${path}`);
        const finalPath = new URL(runner.lhr.finalDisplayedUrl).pathname;
        if (finalPath !== path)
          throw new Error(
            `Lighthouse's ${path} ended on ${runner.lhr.finalDisplayedUrl}: ${path === "/home" ? "the session cookie did not sign in" : "a redirect"}`,
          );
        // A run Lighthouse could not complete (NO_FCP: no paint seen in time, on a busy machine) has no figures:
        // it is said and left out of the median, never silently counted.
        if (runner.lhr.runtimeError)
          console.log(
            `Lighthouse run ${run + 1} of ${path} failed: ${runner.lhr.runtimeError.code} ${runner.lhr.runtimeError.message}`,
          );
        else runs.push(runner.lhr);
      }
      if (runs.length === 0) throw new Error(`every Lighthouse run of ${path} failed`);
      const scores = runs.map(
        (lhr) =>
          `${Math.round((lhr.categories.performance?.score ?? NaN) * 100)} (TBT ${Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? NaN)} ms, FCP ${seconds(lhr.audits["first-contentful-paint"]?.numericValue)}` +
          `${scriptsBeforePaint(lhr) ? `; ${scriptsBeforePaint(lhr)}` : ""})`,
      );
      results.push([label, runs.length > 1 ? computeMedianRun(runs) : runs[0], scores]);
    }
    const [, first] = results[0];
    console.log(
      `\nLighthouse ${first.lighthouseVersion} (default mobile preset, simulated throttling, median of ${RUNS} runs a page; ${first.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "Chromium"} headless; ` +
        `benchmark index ${results.map(([, lhr]) => lhr.environment.benchmarkIndex.toFixed(0)).join("/")}, a busy CPU lowers it and the scores)\n`,
    );
    for (const [label, lhr, scores] of results) report(label, lhr, scores);
  } finally {
    await chrome.close();
  }
}
