import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseByteRange } from "../../worker/domain/media/byte-range";
import type { PlayableVideo } from "../../app/components/media/video-player";
import { browserForThisFile, createAccount, newContext, openPage, signedInPage, sql, unique, within } from "./support";

/**
 * The video player (app/components/media/video-player.tsx) in Chromium with the network emulated through CDP: its
 * choice of rendition, the manual choice and the step down when the buffer runs dry, on a page of its own served
 * here with renditions made by ffmpeg at the test's start (Range answered as /media does); and, on the app, a
 * follower's view of a subscribers-only video post.
 */
const browser = browserForThisFile();

const SLOW_3G = { offline: false, latency: 2000, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };
const FAST = { offline: false, latency: 5, downloadThroughput: 50_000_000 / 8, uploadThroughput: 10_000_000 / 8 };
const LOW = "/media/renditions/low.mp4";
const HIGH = "/media/renditions/high.mp4";
const ORIGINAL = "/media/posts/original.mp4";

let directory: string;
let server: Server;
let origin: string;
let playerScript: string;
const files = new Map<string, { bytes: Buffer; type: string }>();
/** The paths of the media asked for, in order. */
let asked: string[] = [];
/** Serve only this many bytes of the 720p, then hold every answer for it open: its playback stalls there. */
let highCutAt: number | null = null;
const held: ServerResponse[] = [];

function ffmpeg(...args: string[]) {
  execFileSync("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);
}

/** An 8 s fast-start H.264 + AAC MP4 of a test pattern at this size. */
function makeVideo(path: string, size: string, bitrate: string) {
  ffmpeg(
    ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=8`],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=8"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", bitrate, "-g", "25"],
    ...["-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", path],
  );
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "video-playback-"));
  makeVideo(join(directory, "low.mp4"), "640x360", "400k");
  makeVideo(join(directory, "high.mp4"), "1280x720", "1500k");
  ffmpeg("-f", "lavfi", "-i", "testsrc=size=1280x720:duration=1", "-frames:v", "1", join(directory, "poster.jpg"));
  files.set(LOW, { bytes: readFileSync(join(directory, "low.mp4")), type: "video/mp4" });
  files.set(HIGH, { bytes: readFileSync(join(directory, "high.mp4")), type: "video/mp4" });
  files.set(ORIGINAL, files.get(HIGH)!);
  files.set("/media/posters/poster.jpg", { bytes: readFileSync(join(directory, "poster.jpg")), type: "image/jpeg" });

  const bundled = await build({
    entryPoints: [fileURLToPath(new URL("../support/video-player-page.tsx", import.meta.url))],
    bundle: true,
    write: false,
    minify: true,
    format: "iife",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  playerScript = bundled.outputFiles[0]!.text;

  server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === "/") {
      response.writeHead(200, { "Content-Type": "text/html" });
      return response.end(
        `<!doctype html><html lang="en"><body><div id="root"></div><script src="/player.js"></script>`,
      );
    }
    if (path === "/player.js") {
      response.writeHead(200, { "Content-Type": "text/javascript" });
      return response.end(playerScript);
    }
    const file = files.get(path);
    if (!file) return response.writeHead(404).end();
    asked.push(path);
    const range = parseByteRange(request.headers.range, file.bytes.length);
    if (range === "unsatisfiable") return response.writeHead(416).end();
    const { offset, length } = range ?? { offset: 0, length: file.bytes.length };
    response.writeHead(range ? 206 : 200, {
      "Content-Type": file.type,
      "Content-Length": String(length),
      "Accept-Ranges": "bytes",
      ...(range ? { "Content-Range": `bytes ${offset}-${offset + length - 1}/${file.bytes.length}` } : {}),
    });
    if (path === HIGH && highCutAt !== null) {
      response.write(file.bytes.subarray(offset, Math.max(offset, highCutAt)));
      held.push(response);
      return;
    }
    response.end(file.bytes.subarray(offset, offset + length));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  held.forEach((response) => response.destroy());
  server?.closeAllConnections();
  server?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

const VIDEO: PlayableVideo = {
  url: ORIGINAL,
  posterUrl: "/media/posters/poster.jpg",
  hlsUrl: null,
  renditions: [
    {
      name: "360p",
      url: LOW,
      type: 'video/mp4; codecs="avc1.42e01e,mp4a.40.2"',
      width: 640,
      height: 360,
      bitrate: 470_000,
    },
    {
      name: "720p",
      url: HIGH,
      type: 'video/mp4; codecs="avc1.42e01f,mp4a.40.2"',
      width: 1280,
      height: 720,
      bitrate: 1_570_000,
    },
  ],
};

/**
 * The player's page on a 1440 × 900 screen (the video as wide: 720p is not too large for it), on `network` (CDP's
 * emulation, which navigator.connection reports too), the player mounted once the page's script is in (it is
 * loaded before the emulation starts: only the video's bytes go through the slow network).
 */
async function playerOn(
  network: typeof FAST & { connectionType: "cellular3g" | "wifi" },
): Promise<{ context: BrowserContext; page: Page }> {
  asked = [];
  const context = await newContext(browser(), { viewport: { width: 1440, height: 900 } });
  const page = await openPage(context);
  await page.goto(origin);
  await page.waitForFunction(() => typeof window.mountPlayer === "function");
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", network);
  await page.evaluate((video) => window.mountPlayer(video), VIDEO);
  return { context, page };
}

/** The quality menu is there once the player's lazy half has made its choice. */
const qualityMenu = (page: Page) => page.getByRole("combobox", { name: "Video quality" });
const startMuted = (page: Page) =>
  page.locator("video").evaluate((video: HTMLVideoElement) => {
    video.muted = true;
    // A source changed meanwhile rejects this call's promise; the player goes on playing the new one.
    video.play().catch(() => undefined);
  });

describe("the video player", () => {
  it("on Slow 3G shows the poster at once and plays the 360p rendition", async () => {
    const { page } = await playerOn({ ...SLOW_3G, connectionType: "cellular3g" });
    const video = page.locator("video");
    expect(await video.getAttribute("poster")).toBe("/media/posters/poster.jpg");
    await qualityMenu(page).waitFor();
    expect(await video.getAttribute("data-rendition")).toBe("360p");
    // Nothing of the video is fetched before it is played (preload="none"), only its poster.
    expect(asked).toEqual(["/media/posters/poster.jpg"]);

    const request = page.waitForRequest((r) => r.url().includes("/media/renditions/"));
    await startMuted(page);
    expect(new URL((await within(request, "the page to ask for a rendition")).url()).pathname).toBe(LOW);
    await page.waitForFunction(() => document.querySelector("video")!.currentTime > 0.5, null, { timeout: 30_000 });
    expect(await video.evaluate((v: HTMLVideoElement) => new URL(v.currentSrc).pathname)).toBe(LOW);
    expect(asked).not.toContain(HIGH);
    expect(asked).not.toContain(ORIGINAL);
  });

  it("on a fast network with a large screen plays the 720p rendition", async () => {
    const { page } = await playerOn({ ...FAST, connectionType: "wifi" });
    const video = page.locator("video");
    await qualityMenu(page).waitFor();
    expect(await video.getAttribute("data-rendition")).toBe("720p");
    const request = page.waitForRequest((r) => r.url().includes("/media/renditions/"));
    await startMuted(page);
    expect(new URL((await within(request, "the page to ask for a rendition")).url()).pathname).toBe(HIGH);
    await page.waitForFunction(() => document.querySelector("video")!.currentTime > 0.5);
    expect(asked).not.toContain(LOW);
  });

  it("switches to the rendition chosen in the quality menu, by keyboard", async () => {
    const { page } = await playerOn({ ...SLOW_3G, connectionType: "cellular3g" });
    const video = page.locator("video");
    const menu = qualityMenu(page);
    await menu.waitFor();
    expect(await menu.locator("option").allTextContents()).toEqual(["Auto", "360p", "720p", "Original"]);
    expect(await video.evaluate((v: HTMLVideoElement) => v.src)).toBe(`${origin}${LOW}`);
    await menu.selectOption("720p");
    await page.waitForFunction(() => document.querySelector("video")!.dataset.rendition === "720p");
    expect(await video.evaluate((v: HTMLVideoElement) => v.src)).toBe(`${origin}${HIGH}`);
    await startMuted(page);
    await page.waitForFunction(
      (high) => new URL(document.querySelector("video")!.currentSrc || "http://x/").pathname === high,
      HIGH,
    );
    // Back to Auto with the keyboard: the choice for Slow 3G again.
    await menu.focus();
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.querySelector("video")!.dataset.rendition === "360p");
    expect(await menu.inputValue()).toBe("auto");
  });

  it("steps down to 360p, where it was and playing, when the 720p stalls with nothing buffered ahead", async () => {
    highCutAt = Math.floor(files.get(HIGH)!.bytes.length * 0.45);
    try {
      const { page } = await playerOn({ ...FAST, connectionType: "wifi" });
      await qualityMenu(page).waitFor();
      const video = page.locator("video");
      expect(await video.getAttribute("data-rendition")).toBe("720p");
      await startMuted(page);
      await page.waitForFunction(() => document.querySelector("video")!.currentTime > 1);
      await page.waitForFunction(() => document.querySelector("video")!.dataset.rendition === "360p");
      const stalledAt = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
      expect(stalledAt).toBeGreaterThan(1);
      await page.waitForFunction((at) => {
        const v = document.querySelector("video")!;
        return !v.paused && v.currentTime > at + 0.5 && v.currentSrc.endsWith("/low.mp4");
      }, stalledAt);
      expect(asked).toContain(LOW);
    } finally {
      highCutAt = null;
      held.splice(0).forEach((response) => response.destroy());
    }
  });
});

describe("a subscribers-only video post", () => {
  it("shows a follower only the blurred preview: no video, no rendition's address", async () => {
    const tag = `vp${unique().slice(-8)}`;
    const creator = await createAccount({ username: `${tag}.maker`, name: "Vera Video" });
    const follower = await createAccount({ username: `${tag}_fol`, name: "Fred Follower" });
    const at = new Date().toISOString();
    const author = `(SELECT id FROM users WHERE username = '${creator.username}')`;
    const hex = unique()
      .replace(/[^0-9a-f]/g, "")
      .padEnd(32, "0")
      .slice(0, 32);
    await sql(
      `UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}';
       INSERT INTO follows (follower_id, creator_id, created_at) SELECT id, ${author}, '${at}' FROM users WHERE username = '${follower.username}';
       INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at) VALUES (${author}, '${tag} video for subscribers', 'subscribers', 0, '${at}', '${at}');
       INSERT INTO media (user_id, post_id, kind, status, object_key, poster_key, preview_key, content_type, size_bytes, duration_ms, created_at)
         SELECT ${author}, id, 'video', 'ready', 'posts/${tag}.mp4', 'posters/${tag}.jpg', 'previews/${tag}.jpg', 'video/mp4', 1000, 8000, '${at}' FROM posts WHERE text = '${tag} video for subscribers';
       INSERT INTO media_renditions (media_id, name, status, object_key, content_type, size_bytes, codecs, width, height, duration_ms, created_at)
         SELECT id, '360p', 'ready', 'renditions/${hex}.mp4', 'video/mp4', 1000, 'avc1.42e01e,mp4a.40.2', 640, 360, 8000, '${at}' FROM media WHERE object_key = 'posts/${tag}.mp4';`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { page } = await signedInPage(browser(), follower);
    const response = await page.goto(`/${creator.username}`);
    const html = (await response?.text()) ?? "";
    const post = page.locator("article", { hasText: `${tag} video for subscribers` });
    await post.getByText("Subscribe to see this post.").waitFor();
    expect(await post.locator("img.blur-xl").getAttribute("src")).toBe(`/media/previews/${tag}.jpg`);
    expect(await post.locator("video").count()).toBe(0);
    for (const text of [html, await page.content()]) {
      expect(text).not.toContain("/media/renditions/");
      expect(text).not.toContain(`/media/posts/${tag}.mp4`);
      expect(text).not.toContain(`/media/posters/${tag}.jpg`);
    }
  });
});
