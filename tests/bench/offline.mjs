/* global localStorage, navigator, caches, window, document, MutationObserver, Event -- these run inside the page (page.evaluate, addInitScript). */
// The offline figures, in Chromium against the local server on loopback (figures, no assertions):
//   1. launch of /home to its first post shown, from a fresh page: online (the reference, same run) and offline
//      (the service worker's kept page, then the IndexedDB copy); p50/p95 of BENCH_LAUNCHES each (target offline
//      ≤ 1 s);
//   2. outbox replay: 200 likes and unlikes kept offline, then the network back: time until the outbox is empty
//      and the requests it took (one per action is the floor).
import { execFileSync } from "node:child_process";
import { chromium } from "playwright-core";
import { percentile } from "./measure.mjs";

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 10);
const ACTIONS = Number(process.env.BENCH_OUTBOX_ACTIONS ?? 200);
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

const ms = (value) => `${value.toFixed(0)} ms`;

async function json(baseURL, method, path, token, body) {
  const response = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

async function signUp(baseURL, name) {
  const tag = `${name}_${Date.now().toString(36)}`;
  const person = {
    username: tag,
    name,
    email: `${tag}@example.test`,
    password: "a long bench passphrase",
    dateOfBirth: "1990-01-01",
    accountType: "other",
  };
  const { token } = await json(baseURL, "POST", "/signup", null, person);
  return { ...person, token };
}

/**
 * Time from the start of a fresh page's navigation to its first post on screen (offline: with the offline notice
 * of its stored copy), read from the page's own clock: a MutationObserver installed before any script notes when
 * they first appear, so the figure does not depend on how often the test polls.
 */
async function launch(context, expectOffline) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen = (window.__launch = {});
    new MutationObserver(() => {
      seen.post ??= document.querySelector("[data-post-list] li") ? performance.now() : undefined;
      seen.notice ??= document.querySelector('[data-testid="offline-notice"]') ? performance.now() : undefined;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto("/home", { waitUntil: "commit" });
  await page.locator("[data-post-list] li").first().waitFor();
  if (expectOffline) await page.getByTestId("offline-notice").waitFor();
  const marks = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0];
    return { ...window.__launch, html: navigation.responseEnd, domContentLoaded: navigation.domContentLoadedEventEnd };
  });
  const elapsed = expectOffline ? Math.max(marks.post, marks.notice) : marks.post;
  if (process.env.BENCH_VERBOSE) {
    console.log(
      `    ${expectOffline ? "offline" : "online "} ${elapsed.toFixed(0)} ms: html ${marks.html.toFixed(0)}, first post ${marks.post.toFixed(0)}, ` +
        `DOMContentLoaded ${marks.domContentLoaded.toFixed(0)}${expectOffline ? `, notice ${marks.notice.toFixed(0)}` : ""}`,
    );
  }
  await page.close();
  return elapsed;
}

export async function benchOffline(baseURL, stateDir) {
  const creator = await signUp(baseURL, "offline_creator");
  const fan = await signUp(baseURL, "offline_fan");
  execFileSync(
    "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      stateDir,
      "--command",
      `UPDATE users SET role = 'creator' WHERE username = '${creator.username}'`,
    ],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdio: "pipe",
    },
  );
  await fetch(`${baseURL}/api/health`)
    .then((r) => r.arrayBuffer())
    .catch(() => {});
  const postIds = [];
  for (let i = 0; i < 20; i++)
    postIds.push(
      (
        await json(baseURL, "POST", "/posts", creator.token, {
          text: `Offline bench post ${i}`,
          audience: "everyone",
          priceCents: 0,
          mediaIds: [],
        })
      ).id,
    );
  await json(baseURL, "POST", `/users/${creator.username}/follow`, fan.token);

  const browser = await chromium.launch(CHROMIUM);
  try {
    const context = await browser.newContext({ baseURL, locale: "en-US", serviceWorkers: "allow" });
    await context.addInitScript((token) => localStorage.setItem("token", token), fan.token);
    await context.request.post("/api/login", { data: { login: fan.email, password: fan.password } });
    const page = await context.newPage();
    await page.goto("/home");
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
      timeout: 30_000,
    });
    await page.waitForFunction(
      async () =>
        (await (await caches.open("pages")).keys()).some((request) => new URL(request.url).pathname === "/home"),
      null,
      { timeout: 30_000 },
    );

    const online = [];
    const offline = [];
    for (let i = 0; i < LAUNCHES; i++) online.push(await launch(context, false));
    await context.setOffline(true);
    for (let i = 0; i < LAUNCHES; i++) offline.push(await launch(context, true));
    online.sort((a, b) => a - b);
    offline.sort((a, b) => a - b);

    // The outbox: ACTIONS likes and unlikes made offline on the open page, kept as the app keeps them.
    await page.reload();
    await page.locator("[data-post-list] li").first().waitFor();
    const likeButtons = page.locator("[data-post-actions]").getByRole("button", { name: /Like/ });
    const buttons = Math.min(await likeButtons.count(), postIds.length);
    for (let i = 0; i < ACTIONS; i++) await likeButtons.nth(i % buttons).click();
    await page.getByTestId("outbox-pending").waitFor();
    const requests = [];
    page.on(
      "request",
      (request) => /\/api\/posts\/\d+\/like$/.test(new URL(request.url()).pathname) && requests.push(request.url()),
    );
    const replayStarted = performance.now();
    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event("online")));
    await page.getByTestId("outbox-tray").waitFor({ state: "detached", timeout: 120_000 });
    const replay = performance.now() - replayStarted;
    const liked = await Promise.all(
      postIds.slice(0, buttons).map(async (id) => (await json(baseURL, "GET", `/posts/${id}`, fan.token)).liked),
    );

    console.log("\nOffline");
    console.log(
      `  launch of /home to the first post, online (reference)  p50 ${ms(percentile(online, 50))}   p95 ${ms(percentile(online, 95))}   (${LAUNCHES} fresh pages)`,
    );
    console.log(
      `  launch of /home to the first post, offline             p50 ${ms(percentile(offline, 50))}   p95 ${ms(percentile(offline, 95))}   ratio ${(percentile(offline, 50) / percentile(online, 50)).toFixed(2)}× (target ≤ 1 s)`,
    );
    console.log(
      `  outbox replay of ${ACTIONS} likes/unlikes                  ${ms(replay)}   ${(ACTIONS / (replay / 1000)).toFixed(0)} actions/s   ${requests.length} requests`,
    );
    console.log(
      `  likes after the replay, each post                        ${liked.filter(Boolean).length} of ${buttons} liked (${ACTIONS / buttons} toggles each: ${(ACTIONS / buttons) % 2 === 1 ? "liked" : "not liked"} expected)`,
    );
  } finally {
    await browser.close();
  }
}
