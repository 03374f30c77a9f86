/* global window, document, MutationObserver -- these run inside the page (addInitScript, evaluate). */
// Video on a flaky phone (figures, no assertions), in Chromium against the local server:
//   1. conversion: a creator picks a 60 s 1080p phone-like recording (H.264 at about 8 Mbit/s with AAC, its index at
//      the end, made with ffmpeg once and kept in the system's temporary directory) in the post composer; the
//      browser makes its 360p and 720p renditions (app/lib/video-renditions.ts). Seconds of conversion per second of
//      video, on this machine, and the renditions' sizes;
//   2. playback of that post's video at /post/{id}, the network emulated through CDP from before the page opens
//      (DevTools' presets: "Slow 3G" +2,000 ms a request and 400 kbit/s; "Fast 4G" +165 ms and 8.1 Mbit/s down),
//      the original (chosen in the player's menu) against the player's own choice, pressed as soon as the player is
//      there and 3 s later (the opened post's video starts loading meanwhile): time
//      from pressing play to the first frame on screen (requestVideoFrameCallback), bytes of video received until
//      10 s have played, and how often playback stalled (the `waiting` events after it started). Goal: first frame
//      ≤ 3 s on Slow 3G.
// Needs ffmpeg (apt-get install ffmpeg); without it this part says so and measures nothing.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { seed } from "./chat.mjs";

/** The source's length (BENCH_VIDEO_SECONDS for a quicker look; the figures are for 60). */
const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);
const PLAYED_SECONDS = 10;
/** The longest one playback is watched for: the original on Slow 3G does not reach 10 s in any sensible time. */
const WATCH_LIMIT_MS = Number(process.env.BENCH_VIDEO_WATCH_MS ?? 90_000);
const NETWORKS = {
  "Slow 3G": {
    offline: false,
    latency: 2000,
    downloadThroughput: 50_000,
    uploadThroughput: 50_000,
    connectionType: "cellular3g",
  },
  "Fast 4G": {
    offline: false,
    latency: 165,
    downloadThroughput: (9_000_000 / 8) * 0.9,
    uploadThroughput: (1_500_000 / 8) * 0.9,
    connectionType: "cellular4g",
  },
};
const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"],
};

const seconds = (ms) => (ms === null ? "n/a" : `${(ms / 1000).toFixed(2)} s`);
const megabytes = (bytes) => `${(bytes / 1_000_000).toFixed(2)} MB`;

/** The 60 s 1080p source, made once per machine (about a minute of ffmpeg); null without ffmpeg. */
function source() {
  const directory = join(tmpdir(), "fanclub-bench-video");
  const path = join(directory, `phone-1080p-${SECONDS}s.mp4`);
  if (existsSync(path)) return path;
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
  } catch {
    return null;
  }
  mkdirSync(directory, { recursive: true });
  execFileSync("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-y"],
    ...["-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=30:duration=${SECONDS}`],
    ...["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-b:v", "8M", "-maxrate", "8M", "-bufsize", "16M"],
    ...["-pix_fmt", "yuv420p", "-g", "60", "-c:a", "aac", "-b:a", "128k", path],
  ]);
  return path;
}

/** A person signed up through the API (a real session), then made a creator: their token and username. */
async function signUpCreator(baseURL, stateDir) {
  const username = `video_bench_${randomBytes(3).toString("hex")}`;
  const signup = await fetch(`${baseURL}/api/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username,
      name: "Video bench",
      email: `${username}@example.test`,
      password: "a long bench passphrase",
      dateOfBirth: "1990-01-01",
      accountType: "other",
    }),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { token } = await signup.json();
  await seed(
    baseURL,
    stateDir,
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '2026-01-01T00:00:00.000Z' WHERE username = '${username}';`,
  );
  return { token, username };
}

async function signedIn(browser, baseURL, token, options = {}) {
  const context = await browser.newContext({ baseURL, locale: "en-US", ...options });
  await context.addCookies([
    {
      name: "__Host-session",
      value: token,
      domain: new URL(baseURL).hostname,
      path: "/",
      secure: true,
      httpOnly: true,
      sameSite: "Lax",
    },
  ]);
  await context.addInitScript((stored) => window.localStorage.setItem("token", stored), token);
  return context;
}

const api = async (baseURL, token, path) => {
  const response = await fetch(`${baseURL}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.json();
};

/** The creator posts the source from the composer; the conversion's time and the published post's id. */
async function convertAndPost(browser, baseURL, { token, username }, file) {
  const context = await signedIn(browser, baseURL, token, { viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    page.on("response", (response) => {
      if (response.status() >= 400) console.log(`  (page) ${response.status()} ${response.url()}`);
    });
    // When a "Converting …" bar first shows and when a "… converted" one does (the tile may move on quickly).
    await page.addInitScript(() => {
      const marks = (window.__conversion = { start: null, end: null });
      new MutationObserver(() => {
        for (const bar of document.querySelectorAll('[role="progressbar"]')) {
          const label = bar.getAttribute("aria-label") ?? "";
          if (marks.start === null && label.startsWith("Converting ")) marks.start = performance.now();
          if (marks.end === null && label.endsWith(" converted")) marks.end = performance.now();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
    });
    await page.goto("/home");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const composer = page.getByRole("form", { name: "New post" });
    const text = `bench video ${randomBytes(4).toString("hex")}`;
    await composer.getByRole("textbox", { name: "Post text" }).fill(text);
    await page.locator('[data-testid="composer-files"]').setInputFiles(file);
    await page.waitForFunction(() => window.__conversion.end !== null, null, { timeout: 30 * 60_000, polling: 500 });
    const { start, end } = await page.evaluate(() => window.__conversion);
    const conversionMs = end - start;
    await composer.getByRole("combobox", { name: "Who can see" }).selectOption("everyone");
    await composer.getByRole("button", { name: "Post now" }).click();
    // Published once the original, sent last, is complete (at once, if it already was).
    let postId = null;
    for (const deadline = Date.now() + 10 * 60_000; !postId;) {
      if (Date.now() > deadline)
        throw new Error(
          `the bench's video post was not published within 10 minutes: ${JSON.stringify(await api(baseURL, token, "/posts/processing"))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { posts } = await api(baseURL, token, `/users/${username}/posts`);
      postId = posts.find((post) => post.text === text)?.id ?? null;
    }
    return { conversionMs, postId };
  } finally {
    await context.close();
  }
}

/**
 * One playback: the page opened on the emulated network, `quality` chosen ("Auto" leaves the player's choice;
 * "Auto, 3 s later" also waits for the page's network to be quiet before pressing play).
 */
async function play(browser, baseURL, token, postId, network, quality) {
  const context = await signedIn(browser, baseURL, token, { viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", NETWORKS[network]);
    const videoRequests = new Set();
    let bytes = 0;
    let counting = true;
    cdp.on("Network.requestWillBeSent", (event) => {
      if (/\/media\/(renditions|posts)\//.test(event.request.url)) videoRequests.add(event.requestId);
    });
    cdp.on("Network.dataReceived", (event) => {
      if (counting && videoRequests.has(event.requestId)) bytes += event.encodedDataLength || event.dataLength;
    });
    await page.goto(`/post/${postId}`, { timeout: 180_000 });
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 180_000 });
    const menu = page.getByRole("combobox", { name: "Video quality" });
    await menu.waitFor({ timeout: 180_000 });
    if (quality === "Original") await menu.selectOption(quality);
    // "Auto, 3 s later": a person who looks at the poster for 3 s (the opened post's video starts loading meanwhile)
    // before pressing play; the others press it as soon as the player is there. A scenario, not a wait for the page.
    if (quality === "Auto, 3 s later") await page.waitForTimeout(3000);
    const video = page.locator("video").first();
    await video.evaluate((element, limit) => {
      const marks = { stalls: 0, firstFrame: null, reached: null };
      window.__video = marks;
      element.addEventListener("waiting", () => {
        if (marks.firstFrame !== null) marks.stalls++;
      });
      element.addEventListener("timeupdate", () => {
        if (marks.reached === null && element.currentTime >= limit) marks.reached = performance.now();
      });
      element.requestVideoFrameCallback((now) => (marks.firstFrame = now - marks.pressed));
      marks.pressed = performance.now();
      void element.play();
    }, PLAYED_SECONDS);
    await page
      .waitForFunction(() => window.__video.reached !== null, null, { timeout: WATCH_LIMIT_MS, polling: 250 })
      .catch(() => null);
    counting = false;
    const marks = await video.evaluate((element) => ({
      ...window.__video,
      currentTime: element.currentTime,
      rendition: element.dataset.rendition,
    }));
    return { ...marks, bytes };
  } finally {
    await context.close();
  }
}

export async function benchVideo(baseURL, stateDir) {
  console.log(`\nVideo: a ${SECONDS} s 1080p recording (H.264 8 Mbit/s + AAC, index at the end) posted and played\n`);
  const file = source();
  if (!file) {
    console.log("skipped: ffmpeg is not installed (apt-get install ffmpeg)");
    return;
  }
  const creator = await signUpCreator(baseURL, stateDir);
  const { token } = creator;
  const browser = await chromium.launch(CHROMIUM);
  try {
    const { conversionMs, postId } = await convertAndPost(browser, baseURL, creator, file);
    const post = await api(baseURL, token, `/posts/${postId}`);
    const renditions = post.media?.[0]?.renditions ?? [];
    console.log(
      `conversion in the browser      ${seconds(conversionMs).padStart(9)}   (${(conversionMs / 1000 / SECONDS).toFixed(2)} s per second of video; ` +
        `${renditions.map((r) => `${r.name} ${r.width}×${r.height} ${(r.bitrate / 1e6).toFixed(2)} Mbit/s`).join(", ") || "no renditions"})`,
    );
    console.log(
      `\n${"network".padEnd(9)} ${"source".padEnd(16)} ${"plays".padEnd(9)} ${"first frame".padStart(11)} ${"bytes to 10 s".padStart(15)} ${"stalls".padStart(6)}`,
    );
    for (const network of Object.keys(NETWORKS)) {
      for (const quality of ["Original", "Auto", "Auto, 3 s later"]) {
        const run = await play(browser, baseURL, token, postId, network, quality);
        const tenSeconds =
          run.reached === null ? `(${run.currentTime.toFixed(1)} s in ${WATCH_LIMIT_MS / 1000} s)` : "";
        console.log(
          `${network.padEnd(9)} ${quality.padEnd(16)} ${String(run.rendition).padEnd(9)} ${seconds(run.firstFrame).padStart(11)} ` +
            `${megabytes(run.bytes).padStart(15)} ${String(run.stalls).padStart(6)} ${tenSeconds}`,
        );
      }
    }
    console.log("(goal: first frame ≤ 3 s on Slow 3G)");
  } finally {
    await browser.close();
  }
}
