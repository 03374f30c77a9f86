import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Page, Request, Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
import {
  apiAs,
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  goOffline,
  hydrated,
  openPage,
  signedInPage,
  sql,
  unique,
  within,
} from "./support";

/**
 * A subscribers-only video post in the built app, as people meet it: the creator uploads through the API an 8 s
 * original and the 360p and 720p renditions a browser would make (made here with ffmpeg), and posts it; a subscriber
 * opens the post on Slow 3G (CDP's emulation, which navigator.connection reports too) and on a fast network, plays
 * it, changes its quality, has the 720p stall and plays on at 360p, and watches it again offline from the service
 * worker's cache; a follower and a visitor get nothing of it but the blurred preview.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
type Network = { offline: boolean; latency: number; downloadThroughput: number; uploadThroughput: number };
const SLOW_3G = { offline: false, latency: 2000, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };
const FAST = { offline: false, latency: 5, downloadThroughput: 50_000_000 / 8, uploadThroughput: 10_000_000 / 8 };
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1440, height: 900 };

let creator: Account;
let subscriber: Account;
let follower: Account;
let postId: number;
const tag = `vp${unique().slice(-8)}`;
const POST_TEXT = `Eight seconds for subscribers ${tag}`;
/** The post's addresses, as the subscriber's API answer gives them. */
const urls = { original: "", poster: "", preview: "", "360p": "", "720p": "" };
/** The 720p rendition's bytes, to stall it part way (the stall case). */
let highBytes: Buffer;

const run = promisify(execFile);
const ffmpeg = (...args: string[]) => run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);

/** An 8 s fast-start H.264 + AAC MP4 of a test pattern at this size, as the creator's browser would make it. */
const makeVideo = (path: string, size: string, bitrate: string) =>
  ffmpeg(
    ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=8`],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=8"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-b:v", bitrate, "-g", "25"],
    ...["-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", path],
  );

/** A raw-bytes call of the upload protocol as `account`. */
async function send(account: Account, method: string, path: string, bytes: Buffer) {
  const response = await fetchWithin(`${baseURL()}/api${path}`, {
    method,
    headers: { "Content-Type": "application/octet-stream", Authorization: `Bearer ${account.token}` },
    body: new Uint8Array(bytes),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

/** Sends `bytes` in the parts the server asked for to `path` (an upload or a rendition), then completes it. */
async function sendParts(
  path: string,
  bytes: Buffer,
  { partSize, partCount }: { partSize: number; partCount: number },
) {
  for (let n = 1; n <= partCount; n++)
    await send(creator, "PUT", `${path}/parts/${n}`, bytes.subarray((n - 1) * partSize, n * partSize));
  return apiAs(creator, "POST", `${path}/complete`);
}

beforeAll(async () => {
  creator = await createAccount({ username: `${tag}.maker`, name: "Vera Video" });
  subscriber = await createAccount({ username: `${tag}_sub`, name: "Sam Subscriber" });
  follower = await createAccount({ username: `${tag}_fol`, name: "Fred Follower" });
  const directory = mkdtempSync(join(tmpdir(), "video-playback-"));
  const file = (name: string) => join(directory, name);
  try {
    // ffmpeg's encodes run beside the accounts' set-up.
    await Promise.all([
      makeVideo(file("original.mp4"), "1280x720", "2500k"),
      makeVideo(file("360p.mp4"), "640x360", "400k"),
      makeVideo(file("720p.mp4"), "1280x720", "1500k"),
      ffmpeg("-f", "lavfi", "-i", "testsrc=size=1280x720", "-frames:v", "1", file("poster.jpg")),
      ffmpeg("-f", "lavfi", "-i", "testsrc=size=32x18", "-frames:v", "1", "-vf", "boxblur=4", file("preview.jpg")),
      sql(
        `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';
         ${fundedFanSql(subscriber.username, 1000)}`,
      ),
    ]);
    // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const original = readFileSync(file("original.mp4"));
    highBytes = readFileSync(file("720p.mp4"));

    // As the composer does it: poster and preview, the renditions, then the original's completion.
    const upload = (await apiAs(creator, "POST", "/uploads", {
      purpose: "post",
      fileName: "clip.mp4",
      contentType: "video/mp4",
      size: original.length,
    })) as { mediaId: number; partSize: number; partCount: number };
    const media = `/uploads/${upload.mediaId}`;
    await send(creator, "PUT", `${media}/poster`, readFileSync(file("poster.jpg")));
    await send(creator, "PUT", `${media}/preview`, readFileSync(file("preview.jpg")));
    for (const [name, bytes] of [
      ["360p", readFileSync(file("360p.mp4"))],
      ["720p", highBytes],
    ] as const) {
      const parts = (await apiAs(creator, "POST", `${media}/renditions/${name}`, {
        contentType: "video/mp4",
        size: bytes.length,
      })) as { partSize: number; partCount: number };
      await sendParts(`${media}/renditions/${name}`, bytes, parts);
    }
    await sendParts(media, original, upload);

    await apiAs(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 499 }] });
    postId = (
      (await apiAs(creator, "POST", "/posts", {
        text: POST_TEXT,
        audience: "subscribers",
        priceCents: 0,
        mediaIds: [upload.mediaId],
      })) as { id: number }
    ).id;
    await apiAs(subscriber, "POST", `/users/${creator.username}/subscribe`, {
      period: "month",
      priceCents: 499,
      idempotencyKey: crypto.randomUUID(),
    });
    await apiAs(follower, "POST", `/users/${creator.username}/follow`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }

  const opened = (await apiAs(subscriber, "GET", `/posts/${postId}`)) as unknown as {
    media: { url: string; posterUrl: string; renditions: { name: string; url: string }[] }[];
  };
  const locked = (await apiAs(follower, "GET", `/posts/${postId}`)) as unknown as {
    previews: { previewUrl: string }[];
  };
  const [video] = opened.media;
  Object.assign(urls, {
    original: video!.url,
    poster: video!.posterUrl,
    preview: locked.previews[0]!.previewUrl,
    ...Object.fromEntries(video!.renditions.map((rendition) => [rendition.name, rendition.url])),
  });
  expect(Object.values(urls).every((url) => url.startsWith("/media/"))).toBe(true);
});

/** The paths of the page's requests for the video's files and poster, in order. */
function mediaRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on("request", (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (Object.values(urls).includes(path)) asked.push(path);
  });
  return asked;
}

async function emulate(page: Page, network: Network & { connectionType: "cellular3g" | "wifi" }) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", network);
}

/** The subscriber's page of the post, hydrated, with its player's lazy half in (the quality menu shows). */
async function openPost(page: Page) {
  await page.goto(`/post/${postId}`);
  await hydrated(page);
  await qualityMenu(page).waitFor();
}

const post = (page: Page) => page.locator("article", { hasText: POST_TEXT });
const video = (page: Page) => post(page).locator("video");
const qualityMenu = (page: Page) => post(page).getByRole("combobox", { name: "Video quality" });
const rendition = (page: Page) => video(page).getAttribute("data-rendition");

/**
 * Plays the video from the keyboard, as a person who tabbed to it does: Space on the focused <video> (its controls
 * are the browser's own, in a shadow root no locator reaches; a click on the picture does not play on a desktop).
 */
async function pressPlay(page: Page) {
  await video(page).focus();
  await page.keyboard.press("Space");
}

/** Resolves once the player has chosen `name` (its <video>'s data-rendition). */
const chosen = (page: Page, name: string) =>
  page.waitForFunction(
    (wanted) => document.querySelector("article video")?.getAttribute("data-rendition") === wanted,
    name,
  );

/** Resolves once the video has played past `seconds` from `source`. */
const playedPast = (page: Page, seconds: number, source: string) =>
  page.waitForFunction(
    ([at, path]) => {
      const element = document.querySelector<HTMLVideoElement>("article video")!;
      return element.currentTime > at && new URL(element.currentSrc || "http://x/").pathname === path;
    },
    [seconds, source] as const,
    { timeout: 30_000 },
  );

/**
 * Where the video is when it first plays from `source` after this call (the position of its first "playing" or
 * "timeupdate" there): a source changed under it must go on from where the last one was, not from the start.
 */
function resumedAt(page: Page, source: string): Promise<number> {
  const first = page.evaluate(
    (path) =>
      new Promise<number>((resolve) => {
        const element = document.querySelector<HTMLVideoElement>("article video")!;
        const look = () => {
          if (new URL(element.currentSrc || "http://x/").pathname !== path || element.paused) return;
          element.removeEventListener("playing", look);
          element.removeEventListener("timeupdate", look);
          resolve(element.currentTime);
        };
        element.addEventListener("playing", look);
        element.addEventListener("timeupdate", look);
      }),
    source,
  );
  return within(first, `the video to play from ${source}`);
}

const currentTime = (page: Page) => video(page).evaluate((element: HTMLVideoElement) => element.currentTime);

describe("a subscriber's video post", () => {
  it("on Slow 3G shows the poster at once and starts playing at 360p, fetching nothing larger", async () => {
    // The screen of the next case, where a fast network plays the 720p.
    const { page } = await signedInPage(browser(), subscriber, LAPTOP, { deviceScaleFactor: 2 });
    const asked = mediaRequests(page);
    // The subscriber is on Slow 3G from the start: the page, then the post's video.
    await emulate(page, { ...SLOW_3G, connectionType: "cellular3g" });
    await openPost(page);
    expect(await video(page).getAttribute("poster")).toBe(urls.poster);
    await page.waitForFunction(
      (poster) => performance.getEntriesByType("resource").some((entry) => new URL(entry.name).pathname === poster),
      urls.poster,
    );
    await chosen(page, "360p");
    // An opened post's video starts loading its 360p before play; nothing larger, ever.
    await expect.poll(() => [...new Set(asked)]).toEqual([urls.poster, urls["360p"]]);
    await pressPlay(page);
    await playedPast(page, 0, urls["360p"]);
    expect(await rendition(page)).toBe("360p");
    expect([...new Set(asked)]).toEqual([urls.poster, urls["360p"]]);
  });

  it("on a fast network with a large screen plays the 720p", async () => {
    const { page } = await signedInPage(browser(), subscriber, LAPTOP, { deviceScaleFactor: 2 });
    const asked = mediaRequests(page);
    await openPost(page);
    await emulate(page, { ...FAST, connectionType: "wifi" });
    await chosen(page, "720p");
    await pressPlay(page);
    await playedPast(page, 0, urls["720p"]);
    // Before the network said what it carries, the opened post's video began loading the lowest rendition (the
    // choice when unsure); it plays the 720p, and never the original.
    expect([...new Set(asked)]).toEqual([urls.poster, urls["360p"], urls["720p"]]);
  });

  it("on a phone plays the 360p, and the quality menu switches to 720p and then the original where it was", async () => {
    const { page } = await signedInPage(browser(), subscriber, PHONE);
    await openPost(page);
    const menu = qualityMenu(page);
    expect(await menu.locator("option").allTextContents()).toEqual(["Auto", "360p", "720p", "Original"]);
    expect(await rendition(page)).toBe("360p");
    await pressPlay(page);
    await playedPast(page, 1, urls["360p"]);

    for (const [choice, source] of [
      ["720p", urls["720p"]],
      ["Original", urls.original],
    ] as const) {
      const before = await currentTime(page);
      const resumed = resumedAt(page, source);
      await menu.selectOption(choice);
      // Where it was (a second's slack for the frames between reading the time and choosing), and on it plays.
      expect(await resumed).toBeGreaterThan(before - 1);
      await playedPast(page, before + 0.5, source);
      expect(await rendition(page)).toBe(choice);
    }
  });

  it("steps down to 360p, where it was and playing, when the 720p stalls with nothing buffered ahead", async () => {
    const { page } = await signedInPage(browser(), subscriber, LAPTOP, { deviceScaleFactor: 2 });
    // The app serves the 720p up to a little before its middle; what lies beyond never comes.
    const cutAt = Math.floor(highBytes.length * 0.45);
    const held: Route[] = [];
    await page.route(`**${urls["720p"]}`, async (route) => {
      const response = await route.fetch();
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers()["content-range"] ?? "");
      const from = range ? Number(range[1]) : 0;
      if (from >= cutAt) return void held.push(route);
      const body = (await response.body()).subarray(0, cutAt - from);
      await route.fulfill({
        status: 206,
        headers: {
          ...response.headers(),
          "content-length": String(body.length),
          "content-range": `bytes ${from}-${from + body.length - 1}/${highBytes.length}`,
        },
        body,
      });
    });
    try {
      await openPost(page);
      await emulate(page, { ...FAST, connectionType: "wifi" });
      await chosen(page, "720p");
      const resumed = resumedAt(page, urls["360p"]);
      await pressPlay(page);
      await playedPast(page, 1, urls["720p"]);
      await chosen(page, "360p");
      const stalledAt = await currentTime(page);
      // About where the 720p's bytes ran out (45 % of 8 s), well past the second it was seen playing at.
      expect(stalledAt).toBeGreaterThan(2);
      expect(await resumed).toBeGreaterThan(stalledAt - 0.5);
      await playedPast(page, stalledAt + 0.5, urls["360p"]);
    } finally {
      await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
    }
  });
});

describe("watching again offline", () => {
  it("the 360p a subscriber watched on a phone plays again offline from the service worker's cache; the 720p and the original were never kept", async () => {
    const { context, page } = await signedInPage(browser(), subscriber, PHONE, { serviceWorkers: "allow" });
    await page.goto("/home");
    await hydrated(page);
    await qualityMenu(page).waitFor();
    // The service worker controls the page before the video is played: its bytes go through it.
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
      timeout: 30_000,
    });
    expect(await rendition(page)).toBe("360p");
    await pressPlay(page);
    await playedPast(page, 2, urls["360p"]);
    const kept = (on: Page) =>
      on.evaluate(async () =>
        (await (await caches.open("media")).keys()).map((request) => new URL(request.url).pathname),
      );
    await expect.poll(() => kept(page), { timeout: 30_000 }).toContain(urls["360p"]);
    // The larger ones are played too (the 720p through the worker): neither is kept (below, long after).
    for (const [choice, source] of [
      ["720p", urls["720p"]],
      ["Original", urls.original],
    ] as const) {
      await qualityMenu(page).selectOption(choice);
      await playedPast(page, (await currentTime(page)) + 0.5, source);
    }
    // The home page is kept for a launch offline.
    await expect
      .poll(
        () =>
          page.evaluate(async () =>
            (await (await caches.open("pages")).keys()).map((request) => new URL(request.url).pathname),
          ),
        { timeout: 15_000 },
      )
      .toContain("/home");

    // Offline, with nothing in the browser's own HTTP cache either: only the worker's copy can answer.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    await goOffline(context);
    const again = await openPage(context);
    const served: { path: string; byWorker: boolean; status: number }[] = [];
    again.on("response", (response) =>
      served.push({
        path: new URL(response.url()).pathname,
        byWorker: response.fromServiceWorker(),
        status: response.status(),
      }),
    );
    await again.goto("/home");
    await again.getByTestId("offline-notice").waitFor();
    await qualityMenu(again).waitFor();
    expect(await rendition(again)).toBe("360p");
    await pressPlay(again);
    await playedPast(again, 1, urls["360p"]);
    const answers = served.filter((answer) => answer.path === urls["360p"]);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((answer) => answer.byWorker && answer.status < 300)).toBe(true);
    const keptNow = await kept(again);
    expect(keptNow).toContain(urls["360p"]);
    expect(keptNow).not.toContain(urls["720p"]);
    expect(keptNow).not.toContain(urls.original);
  });
});

describe("what others get of it", () => {
  it("a follower sees only the blurred preview: no video, and no address of its files in the page or the API", async () => {
    const { page } = await signedInPage(browser(), follower, LAPTOP);
    const response = await page.goto(`/post/${postId}`);
    const html = (await response?.text()) ?? "";
    await hydrated(page);
    await post(page).getByText("Subscribe to see this post.").waitFor();
    expect(await post(page).locator("img.blur-xl").getAttribute("src")).toBe(urls.preview);
    expect(await post(page).locator("video").count()).toBe(0);
    const answer = JSON.stringify(await apiAs(follower, "GET", `/posts/${postId}`));
    for (const text of [html, await page.content(), answer])
      for (const url of [urls.original, urls.poster, urls["360p"], urls["720p"]]) expect(text).not.toContain(url);
  });

  it("a visitor or a follower asking for the renditions, poster or original directly gets 404", async () => {
    for (const url of [urls["360p"], urls["720p"], urls.poster, urls.original]) {
      expect((await fetchWithin(`${baseURL()}${url}`)).status).toBe(404);
      expect(
        (await fetchWithin(`${baseURL()}${url}`, { headers: { Authorization: `Bearer ${follower.token}` } })).status,
      ).toBe(404);
    }
    // The subscriber's own request is served: the 404 above is the rule's, not a wrong address.
    const own = await fetchWithin(`${baseURL()}${urls["360p"]}`, {
      headers: { Authorization: `Bearer ${subscriber.token}`, Range: "bytes=0-99" },
    });
    expect(own.status).toBe(206);
  });
});
