import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiAs, browserForThisFile, createAccount, hydrated, signedInPage, sql, unique, within } from "./support";

/**
 * A creator's video in the post composer, in Chromium under the app's own CSP: the browser makes its 360p and 720p
 * renditions with mediabunny (H.264, and AAC from the WASM encoder: this Chromium has no AAC encoder of its own),
 * shows the conversion's progress beside the upload's, sends the renditions before completing the original, and
 * the post, made while the video was still on its way, ends up with both renditions. An upload cut off resumes
 * after a reload with the renditions the browser kept, without converting again.
 */
const browser = browserForThisFile();

let creator: Awaited<ReturnType<typeof createAccount>>;

beforeAll(async () => {
  creator = await createAccount({ username: `vid${unique().slice(-8)}` });
  await sql(`UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}'`);
});

/**
 * A 3 s 1280×720 WebM with sound, as a phone's recording: a moving canvas (VP8) and a 440 Hz OscillatorNode
 * (Opus), encoded by the browser's WebCodecs through mediabunny on a page of the app's origin that the test serves
 * itself (the app's CSP refuses its inline script). Not MediaRecorder: on a busy machine its encoder drops most
 * frames of a real-time recording, and a video track much shorter than the sound is not a real phone's video.
 * The file's path.
 */
async function makeVideo(page: Page, name: string): Promise<string> {
  const maker = await build({
    stdin: {
      resolveDir: process.cwd(),
      contents: `
        import { AudioBufferSource, BufferTarget, CanvasSource, Output, Quality, WebMOutputFormat } from "mediabunny";
        window.makeClip = async () => {
          const seconds = 3;
          const canvas = new OffscreenCanvas(1280, 720);
          const draw = canvas.getContext("2d");
          const target = new BufferTarget();
          const output = new Output({ format: new WebMOutputFormat(), target });
          const video = new CanvasSource(canvas, { codec: "vp8", quality: new Quality({ bitrate: 2000000 }) });
          const sound = new AudioBufferSource({ codec: "opus", quality: new Quality({ bitrate: 96000 }) });
          output.addVideoTrack(video, { frameRate: 30 });
          output.addAudioTrack(sound);
          await output.start();
          for (let frame = 0; frame < seconds * 30; frame++) {
            draw.fillStyle = "hsl(" + frame * 4 + ", 70%, 45%)";
            draw.fillRect(0, 0, 1280, 720);
            draw.fillStyle = "#fff";
            draw.fillRect(100 + frame * 10, 300, 120, 120);
            await video.add(frame / 30, 1 / 30);
          }
          const tone = new OfflineAudioContext(2, 48000 * seconds, 48000);
          const oscillator = tone.createOscillator();
          oscillator.frequency.value = 440;
          oscillator.connect(tone.destination);
          oscillator.start();
          await sound.add(await tone.startRendering());
          await output.finalize();
          const bytes = new Uint8Array(target.buffer);
          let binary = "";
          for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          return btoa(binary);
        };`,
    },
    bundle: true,
    write: false,
    format: "iife",
  });
  await page.route("**/__video-maker", (route) =>
    route.fulfill({ contentType: "text/html", body: `<script>${maker.outputFiles[0]!.text}</script>` }),
  );
  await page.goto("/__video-maker");
  const base64 = await within(
    page.evaluate(() => (window as unknown as { makeClip: () => Promise<string> }).makeClip()),
    "the page to make a 3 s video",
  );
  // On disk, as a phone's file: picked again, it is the same file (name, size, time), which an upload resumes by.
  const path = join(mkdtempSync(join(tmpdir(), "video-upload-")), name);
  writeFileSync(path, Buffer.from(base64, "base64"));
  return path;
}

/** Every value the page's "Converting …" progress bars show, in order (a MutationObserver: none is missed). */
async function recordConversionBars(page: Page): Promise<() => Promise<number[]>> {
  await page.addInitScript(() => {
    const seen: number[] = [];
    Object.assign(window, { conversionValues: seen });
    const look = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"][aria-label^="Converting "]')) {
        const value = Number(bar.getAttribute("aria-valuenow"));
        if (seen.at(-1) !== value) seen.push(value);
      }
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-valuenow", "aria-label"],
    });
  });
  return () => page.evaluate(() => (window as unknown as { conversionValues: number[] }).conversionValues);
}

const composer = (page: Page) => page.getByRole("form", { name: "New post" });

interface PostAnswer {
  id: number;
  text: string;
  media: { kind: string; renditions: { name: string; type: string; width: number; height: number }[] }[] | null;
}

describe("a creator's video", () => {
  it("is converted in the browser with its own progress, uploaded with its renditions, and posted with them", async () => {
    const { page } = await signedInPage(browser(), creator);
    const conversionValues = await recordConversionBars(page);
    // The original's parts wait until the post is on its way: the post is made while the video still uploads.
    let releaseParts: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseParts = resolve));
    await page.route("**/api/uploads/*/parts/*", async (route) => {
      await held;
      await route.continue();
    });
    const completions: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === "POST" && /^\/api\/uploads\/\d+\/(renditions\/\w+\/)?complete$/.test(path))
        completions.push(path.replace(/^\/api\/uploads\/\d+\//, ""));
    });
    const video = await makeVideo(page, "clip.webm");
    await page.goto("/home");
    await hydrated(page);

    const text = `video post ${unique()}`;
    await composer(page).getByRole("textbox", { name: "Post text" }).fill(text);
    await page.locator('[data-testid="composer-files"]').setInputFiles(video);
    await composer(page).getByRole("progressbar", { name: "Converting clip.webm" }).waitFor();
    await composer(page).getByRole("progressbar", { name: "Uploading clip.webm" }).waitFor();
    // The conversion's bar moves: a value between none and all has been shown.
    await expect
      .poll(async () => (await conversionValues()).some((value) => value > 0 && value < 100), { timeout: 30_000 })
      .toBe(true);

    await composer(page).getByRole("combobox", { name: "Who can see" }).selectOption("subscribers");
    await composer(page).getByRole("button", { name: "Post now" }).click();
    await composer(page).getByText("Your post will be published when its uploads finish.", { exact: false }).waitFor();
    const { posts } = (await apiAs(creator, "GET", "/posts/processing")) as { posts: { id: number; text: string }[] };
    const postId = posts.find((post) => post.text === text)!.id;

    releaseParts();
    await expect
      .poll(
        async () =>
          ((await apiAs(creator, "GET", "/posts/processing")) as { posts: { id: number }[] }).posts.some(
            (post) => post.id === postId,
          ),
        { timeout: 50_000, interval: 500 },
      )
      .toBe(false);

    const post = (await apiAs(creator, "GET", `/posts/${postId}`)) as unknown as PostAnswer;
    expect(post.media).toHaveLength(1);
    expect(post.media![0]!.kind).toBe("video");
    expect(post.media![0]!.renditions).toEqual([
      expect.objectContaining({
        name: "360p",
        width: 640,
        height: 360,
        type: expect.stringMatching(/^video\/mp4; codecs="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/),
      }),
      expect.objectContaining({
        name: "720p",
        width: 1280,
        height: 720,
        type: expect.stringMatching(/^video\/mp4; codecs="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/),
      }),
    ]);
    // The original's completion, which publishes the post, comes after both renditions'.
    expect(completions).toEqual(["renditions/360p/complete", "renditions/720p/complete", "complete"]);
    // The bar went up only, from 0 (posting took the tile away, perhaps before the conversion's end).
    const shown = await conversionValues();
    expect(shown[0]).toBe(0);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  });

  it("resumes after a reload with the renditions kept in the browser: no second conversion, only missing parts", async () => {
    const { page } = await signedInPage(browser(), creator);
    const video = await makeVideo(page, "resumed.webm");
    // The 720p rendition's part never gets through: the upload gives up after its retries.
    await page.route("**/api/uploads/*/renditions/720p/parts/*", (route) =>
      route.fulfill({ status: 503, body: "busy" }),
    );
    await page.goto("/home");
    await hydrated(page);
    await page.locator('[data-testid="composer-files"]').setInputFiles(video);
    await composer(page).getByRole("progressbar", { name: "resumed.webm converted" }).waitFor({ timeout: 30_000 });
    await composer(page).getByText("Upload failed").waitFor({ timeout: 30_000 });

    await page.unrouteAll();
    const conversionValues = await recordConversionBars(page);
    await page.reload();
    await hydrated(page);
    const sent: string[] = [];
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (/^\/api\/uploads\/\d+\/(renditions|parts|complete)/.test(path))
        sent.push(`${request.method()} ${path.replace(/^\/api\/uploads\/\d+\//, "")}`);
    });
    await page.locator('[data-testid="composer-files"]').setInputFiles(video);
    await composer(page).getByRole("progressbar", { name: "resumed.webm uploaded" }).waitFor({ timeout: 30_000 });
    // Converted already: the bar says so at once and never showed a conversion running.
    expect(await composer(page).getByRole("progressbar", { name: "resumed.webm converted" }).count()).toBe(1);
    expect(await conversionValues()).toEqual([]);
    // The original's parts and the 360p rendition were all on the server; the 720p rendition had begun, without parts.
    expect(sent).toEqual(["PUT renditions/720p/parts/1", "POST renditions/720p/complete", "POST complete"]);
  });
});
