/* global window, document, localStorage, MutationObserver, PerformanceObserver, requestAnimationFrame -- these run inside the page (addInitScript, evaluate). */
// A signed-in first visit of /home on a slow mobile network (figures, no assertions): a fresh Chromium context each
// time (empty cache, no service worker installed yet, a phone-sized window), the session cookie and stored token
// of a signed-in person, and Chrome DevTools' "Slow 3G" preset applied to the page over CDP
// (Network.emulateNetworkConditions) before the navigation. The preset, as Chromium defines it (puppeteer-core's
// PredefinedNetworkConditions["Slow 3G"], node_modules/puppeteer-core/lib/esm/puppeteer/cdp/
// PredefinedNetworkConditions.js, the same numbers as chrome-devtools-frontend's Slow3GConditions):
//   latency 2,000 ms added to every request (400 ms × 5), download and upload 50,000 bytes/s each
//   (500 kbit/s × 0.8 = 400 kbit/s).
// Read from the page's own clock (0 = the navigation's start): the first post of the timeline ([data-post-id],
// server-rendered) visible, i.e. the first frame painted after it entered the DOM (render-blocking CSS holds
// frames back, so this is when a person sees it); LCP; DOMContentLoaded; the load event; hydration (the
// root's effect sets <html data-hydrated>, app/root.tsx, after every child's effects ran). Bytes: the sum of
// encodedDataLength of the page's Network.loadingFinished until the network is idle (what the service worker
// fetches for itself, its precache, is another target and is not counted). Median of BENCH_SLOW3G_LOADS loads.
// Target: the first /home on slow 3G ≤ 4 s (the first post visible).
import { chromium } from "playwright-core";

const LOADS = Number(process.env.BENCH_SLOW3G_LOADS ?? 3);
const SLOW_3G = {
  offline: false,
  latency: 400 * 5,
  downloadThroughput: ((500 * 1000) / 8) * 0.8,
  uploadThroughput: ((500 * 1000) / 8) * 0.8,
  connectionType: "cellular3g",
};
const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => (ms === undefined ? "n/a" : `${(ms / 1000).toFixed(2)} s`);

async function load(browser, baseURL, cookie) {
  const [name, ...value] = cookie.split("=");
  const token = value.join("=");
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 }, locale: "en-US" });
  try {
    // As the app sets it (worker/http/cookies.ts); Chromium keeps a Secure cookie for http://localhost.
    await context.addCookies([
      {
        name,
        value: token,
        domain: new URL(baseURL).hostname,
        path: "/",
        secure: true,
        httpOnly: true,
        sameSite: "Lax",
      },
    ]);
    await context.addInitScript((stored) => localStorage.setItem("token", stored), token);
    await context.addInitScript(() => {
      const marks = (window.__slow3g = {});
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) marks.lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
      new MutationObserver(() => {
        if (marks.postInDom === undefined && document.querySelector("[data-post-id]")) {
          marks.postInDom = performance.now();
          // The first frame after this one: a rAF callback runs only once the document may render (not while
          // stylesheets in <head> still load), the timeout fires after that frame is painted.
          requestAnimationFrame(() => setTimeout(() => (marks.postVisible = performance.now())));
        }
        if (marks.hydrated === undefined && document.documentElement?.dataset.hydrated !== undefined)
          marks.hydrated = performance.now();
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-hydrated"] });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", SLOW_3G);
    let bytes = 0;
    let requests = 0;
    const types = new Map();
    const byType = {};
    cdp.on("Network.responseReceived", (event) => types.set(event.requestId, event.type));
    cdp.on("Network.loadingFinished", (event) => {
      bytes += event.encodedDataLength;
      requests++;
      const type = types.get(event.requestId) ?? "Other";
      byType[type] = (byType[type] ?? 0) + event.encodedDataLength;
    });

    await page.goto("/home", { waitUntil: "load", timeout: 180_000 });
    if (new URL(page.url()).pathname !== "/home")
      throw new Error(`slow 3G /home ended on ${page.url()}: the session did not sign in`);
    await page.waitForFunction(
      () => window.__slow3g.hydrated !== undefined && window.__slow3g.postVisible !== undefined,
      null,
      { timeout: 180_000 },
    );
    await page.waitForLoadState("networkidle", { timeout: 180_000 });
    const marks = await page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0];
      const post = document.querySelector("[data-post-id]")?.getBoundingClientRect();
      return {
        ...window.__slow3g,
        firstByte: navigation.responseStart,
        domContentLoaded: navigation.domContentLoadedEventStart,
        load: navigation.loadEventStart,
        aboveFold: post !== undefined && post.top < window.innerHeight,
        posts: document.querySelectorAll("[data-post-id]").length,
      };
    });
    return { ...marks, bytes, requests, byType };
  } finally {
    await context.close();
  }
}

export async function benchSlow3G(baseURL, { cookie }) {
  const browser = await chromium.launch(CHROMIUM);
  try {
    const runs = [];
    for (let i = 0; i < LOADS; i++) {
      const run = await load(browser, baseURL, cookie);
      runs.push(run);
      if (process.env.BENCH_VERBOSE) {
        console.log(
          `    load ${i + 1}: first byte ${seconds(run.firstByte)}, post in DOM ${seconds(run.postInDom)}, visible ${seconds(run.postVisible)}, LCP ${seconds(run.lcp)}, ` +
            `DOMContentLoaded ${seconds(run.domContentLoaded)}, load ${seconds(run.load)}, hydrated ${seconds(run.hydrated)}; ` +
            Object.entries(run.byType)
              .map(([type, size]) => `${type} ${(size / 1024).toFixed(1)} KB`)
              .join(", "),
        );
      }
    }
    const figure = (key) => median(runs.map((run) => run[key]));
    const last = runs[runs.length - 1];
    console.log(
      `\nSlow 3G, a signed-in first /home (DevTools preset: +2,000 ms a request, 400 kbit/s down and up; fresh context, no cache, no service worker; ` +
        `412×823; median of ${LOADS})\n`,
    );
    console.log(
      `first post visible             ${seconds(figure("postVisible")).padStart(8)}   (target ≤ 4 s; in the DOM at ${seconds(figure("postInDom"))}; ${last.posts} posts${last.aboveFold ? "" : ", the first BELOW the fold"})`,
    );
    console.log(`largest contentful paint       ${seconds(figure("lcp")).padStart(8)}`);
    console.log(`DOMContentLoaded               ${seconds(figure("domContentLoaded")).padStart(8)}`);
    console.log(`load event                     ${seconds(figure("load")).padStart(8)}`);
    console.log(`hydrated (<html data-hydrated>) ${seconds(figure("hydrated")).padStart(7)}`);
    console.log(
      `transferred until network idle ${`${(figure("bytes") / 1024).toFixed(1)} KB`.padStart(8)}   (${last.requests} requests)`,
    );
  } finally {
    await browser.close();
  }
}
