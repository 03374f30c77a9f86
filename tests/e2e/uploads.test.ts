import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { exifPayload, segment } from "../support/media-fixtures";
import { browserForThisFile, createAccount, hydrated, signedInPage, sql, sqlRows, unique, within } from "./support";

/**
 * The browser half of uploads (app/lib/uploads.ts) in Chromium against the real server: progress, the blurred
 * preview and the video poster drawn on a canvas, a retried part, and a resumed upload. The module is bundled
 * on its own and put in a page, so the test does not depend on which screen uses it.
 */
const browser = browserForThisFile();

let creator: Awaited<ReturnType<typeof createAccount>>;
let uploadsBundle: string;

beforeAll(async () => {
  creator = await createAccount({ username: `up${unique().slice(-8)}` });
  // Photos unmarked: what every upload gets, the creator's own view alike (watermarks.test.ts: marked photos).
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, watermark = 0 WHERE username = '${creator.username}'`,
  );
  const app = fileURLToPath(new URL("../../app/", import.meta.url));
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL("../../app/lib/uploads.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "uploads",
    plugins: [
      {
        name: "app-alias",
        setup: (b) => b.onResolve({ filter: /^~\// }, (args) => ({ path: `${app}${args.path.slice(2)}.ts` })),
      },
    ],
  });
  uploadsBundle = bundled.outputFiles[0]!.text;
});

/** A signed-in page (Bearer token stored) with the upload module loaded as `window.uploads`. */
async function uploaderPage(): Promise<{ context: BrowserContext; page: Page }> {
  // The module is injected as an inline script, which the app's CSP (nonces only) would rightly refuse.
  const { context, page } = await signedInPage(browser(), creator, undefined, { bypassCSP: true });
  await page.goto("/home");
  await hydrated(page);
  await page.addScriptTag({ content: uploadsBundle });
  return { context, page };
}

declare global {
  interface Window {
    uploads: typeof import("../../app/lib/uploads");
  }
}

describe("uploads in the browser", () => {
  it("uploads a photo with progress; the server keeps it without GPS, the browser made its blurred preview", async () => {
    const { context, page } = await uploaderPage();
    const exif = segment(0xe1, exifPayload({ gps: true }));
    const uploaded = page.evaluate(async (exifSegment) => {
      const canvas = document.createElement("canvas");
      canvas.width = 320;
      canvas.height = 200;
      const draw = canvas.getContext("2d")!;
      draw.fillStyle = "#c0392b";
      draw.fillRect(0, 0, 320, 200);
      const jpeg = new Uint8Array(
        await (await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/jpeg"))).arrayBuffer(),
      );
      // A camera's photo: the same picture with an Exif segment holding a GPS position, right after SOI.
      const withGps = new Uint8Array([...jpeg.subarray(0, 2), ...exifSegment, ...jpeg.subarray(2)]);
      const file = new File([withGps], "holiday.jpg", { type: "image/jpeg", lastModified: 1 });
      const progress: number[] = [];
      const media = await window.uploads.uploadFile(file, {
        purpose: "post",
        csrfToken: null,
        onProgress: (f) => progress.push(f),
      });
      const stored = new Uint8Array(await (await fetch(media.url)).arrayBuffer());
      const bitmap = await createImageBitmap(new Blob([stored], { type: "image/jpeg" }));
      const text = String.fromCharCode(...stored.subarray(0, 4096));
      return {
        ...media,
        progress,
        hasExif: text.includes("Exif"),
        width: bitmap.width,
        hadExif: String.fromCharCode(...withGps.subarray(0, 64)).includes("Exif"),
      };
    }, exif);
    const result = await within(uploaded, "the page to upload holiday.jpg and read it back");
    expect(result.hadExif).toBe(true);
    expect(result).toMatchObject({ kind: "image", hasExif: false, width: 320 });
    expect(result.progress.at(-1)).toBe(1);
    const row = (
      await sqlRows<{ preview_key: string | null; width: number; height: number }>(
        `SELECT preview_key, width, height FROM media WHERE id = ${result.id}`,
      )
    )[0]?.[0];
    expect(row).toMatchObject({
      width: 320,
      height: 200,
      preview_key: expect.stringMatching(/^previews\/[a-f0-9]{32}\.jpg$/),
    });
    // Narrower than 640 pixels: no copies, the page shows the original.
    expect(await sqlRows(`SELECT w640_key, w1280_key FROM media WHERE id = ${result.id}`)).toEqual([
      [{ w640_key: null, w1280_key: null }],
    ]);
    const previewWidth = await within(
      page.evaluate(
        async (key) => (await createImageBitmap(await (await fetch(`/media/${key}`)).blob())).width,
        row!.preview_key!,
      ),
      "the page to load the photo's preview",
    );
    expect(previewWidth).toBeLessThanOrEqual(24);
    await context.close();
  });

  it("makes copies 640 and 1280 pixels wide of a wide photo; a phone's feed loads the copy its screen needs, not the original", async () => {
    const { context, page } = await uploaderPage();
    const uploaded = page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 2400;
      canvas.height = 1600;
      const draw = canvas.getContext("2d")!;
      draw.fillStyle = "#2e86c1";
      draw.fillRect(0, 0, 2400, 1600);
      const jpeg = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/jpeg"));
      return window.uploads.uploadFile(new File([jpeg], "wide.jpg", { type: "image/jpeg", lastModified: 2 }), {
        purpose: "post",
        csrfToken: null,
      });
    });
    const media = await within(uploaded, "the page to upload wide.jpg");
    const row = (
      await sqlRows<{ w640_key: string; w1280_key: string; width: number }>(
        `SELECT w640_key, w1280_key, width FROM media WHERE id = ${media.id}`,
      )
    )[0]?.[0];
    // Chromium writes WebP.
    expect(row).toMatchObject({
      width: 2400,
      w640_key: expect.stringMatching(/^scaled\/640\/[a-f0-9]{32}\.webp$/),
      w1280_key: expect.stringMatching(/^scaled\/1280\/[a-f0-9]{32}\.webp$/),
    });
    const widths = await within(
      page.evaluate(
        async (keys) =>
          Promise.all(
            keys.map(async (key) => (await createImageBitmap(await (await fetch(`/media/${key}`)).blob())).width),
          ),
        [row!.w640_key, row!.w1280_key],
      ),
      "the page to load the copies 640 and 1280 wide",
    );
    expect(widths).toEqual([640, 1280]);
    const posted = page.evaluate(async (mediaId) => {
      const response = await fetch("/api/posts", {
        method: "POST",
        headers: { Authorization: `Bearer ${localStorage.getItem("token")}`, "Content-Type": "application/json" },
        body: JSON.stringify({ text: "wide", audience: "everyone", mediaIds: [mediaId] }),
      });
      return ((await response.json()) as { id: number }).id;
    }, media.id);
    const postId = await within(posted, "the page to publish the post of wide.jpg");
    await context.close();

    // The post's page on a phone 412 pixels wide: at density 1 the copy 640 wide, at density 2 the one 1280 wide.
    for (const [deviceScaleFactor, key] of [
      [1, row!.w640_key],
      [2, row!.w1280_key],
    ] as const) {
      const phone = await signedInPage(browser(), creator, { width: 412, height: 823 }, { deviceScaleFactor });
      await phone.page.goto(`/post/${postId}`);
      const photo = phone.page.locator(`[data-post-id="${postId}"] img[srcset]`);
      await expect
        .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      expect(await photo.evaluate((img: HTMLImageElement) => img.currentSrc), `density ${deviceScaleFactor}`).toContain(
        `/media/${key}`,
      );
      await phone.context.close();
    }
  });

  it("draws a camera's avatar 400 pixels on its longer side, a cover 1920 wide and a story 1920 high before they leave the browser; smaller ones go as they are", async () => {
    const { context, page } = await uploaderPage();
    const sent = page.evaluate(async () => {
      const picture = async (width: number, height: number, type: string) => {
        const canvas = document.createElement("canvas");
        canvas.width = width;
        canvas.height = height;
        const draw = canvas.getContext("2d")!;
        draw.fillStyle = "#8e44ad";
        draw.fillRect(0, 0, width, height);
        return new File(
          [await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), type))],
          `p.${type.slice(6)}`,
          { type, lastModified: width },
        );
      };
      const sizeOf = async (url: string) => {
        const bitmap = await createImageBitmap(await (await fetch(url)).blob());
        return { url, width: bitmap.width, height: bitmap.height };
      };
      const send = async (file: File, purpose: "avatar" | "cover" | "story") =>
        sizeOf((await window.uploads.uploadFile(file, { purpose, csrfToken: null })).url);
      return {
        avatar: await send(await picture(2400, 3200, "image/jpeg"), "avatar"),
        cover: await send(await picture(3000, 1000, "image/jpeg"), "cover"),
        story: await send(await picture(2160, 3840, "image/jpeg"), "story"),
        smallAvatar: await send(await picture(200, 200, "image/png"), "avatar"),
      };
    });
    const stored = await within(sent, "the page to upload an avatar, a cover, a story and a small avatar");
    expect(stored.avatar).toMatchObject({ width: 300, height: 400, url: expect.stringMatching(/\.webp$/) });
    expect(stored.cover).toMatchObject({ width: 1920, height: 640 });
    expect(stored.story).toMatchObject({ width: 1080, height: 1920 });
    expect(stored.smallAvatar).toMatchObject({ width: 200, height: 200, url: expect.stringMatching(/\.png$/) });
    await context.close();
  });

  it("captures a video's poster frame and preview in the browser", async () => {
    const { context, page } = await uploaderPage();
    const uploaded = page.evaluate(async () => {
      // A short WebM recorded from a canvas: a real video Chromium can decode and seek.
      const canvas = document.createElement("canvas");
      canvas.width = 160;
      canvas.height = 120;
      const draw = canvas.getContext("2d")!;
      const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: "video/webm" });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let frame = 0; frame < 15; frame++) {
        draw.fillStyle = `hsl(${frame * 20}, 80%, 50%)`;
        draw.fillRect(0, 0, 160, 120);
        await new Promise((resolve) => setTimeout(resolve, 33));
      }
      recorder.stop();
      await stopped;
      const file = new File(chunks, "clip.webm", { type: "video/webm", lastModified: 2 });
      return window.uploads.uploadFile(file, { purpose: "post", csrfToken: null });
    });
    const media = await within(uploaded, "the page to record clip.webm and upload it");
    expect(media.kind).toBe("video");
    const row = (
      await sqlRows<{ poster_key: string | null; preview_key: string | null }>(
        `SELECT poster_key, preview_key FROM media WHERE id = ${media.id}`,
      )
    )[0]?.[0];
    expect(row!.poster_key).toMatch(/^posters\/[a-f0-9]{32}\.jpg$/);
    expect(row!.preview_key).toMatch(/^previews\/[a-f0-9]{32}\.jpg$/);
    const posterWidth = await within(
      page.evaluate(
        async (key) => (await createImageBitmap(await (await fetch(`/media/${key}`)).blob())).width,
        row!.poster_key!,
      ),
      "the page to load the video's poster",
    );
    expect(posterWidth).toBe(160);
    await context.close();
  });

  it("retries a failed part, and resumes an interrupted upload with only the missing parts", async () => {
    const { context, page } = await uploaderPage();
    const partsSent: string[] = [];
    let failuresLeft = 1;
    await page.route("**/api/uploads/*/parts/*", async (route) => {
      const part = route.request().url().split("/").at(-1)!;
      partsSent.push(part);
      if (part === "2" && failuresLeft-- > 0) return route.fulfill({ status: 503, body: "busy" });
      return route.continue();
    });
    // 8 MiB and a bit: two parts. An MP4 by its magic bytes (the server checks no more of a video).
    const makeVideo = (name: string, lastModified: number) =>
      page.evaluate(
        ({ name, lastModified }) => {
          const bytes = new Uint8Array(8 * 1024 * 1024 + 4096);
          bytes.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")]);
          (window as unknown as { video: File }).video = new File([bytes], name, { type: "video/mp4", lastModified });
        },
        { name, lastModified },
      );
    const upload = () =>
      within(
        page.evaluate(() =>
          window.uploads
            .uploadFile((window as unknown as { video: File }).video, { purpose: "post", csrfToken: null })
            .then(
              (m) => m.kind,
              (e: Error) => `failed: ${e.message}`,
            ),
        ),
        "the page's upload of the 8 MiB video to end",
      );

    await makeVideo("retried.mp4", 3);
    expect(await upload()).toBe("video");
    expect(partsSent).toEqual(["1", "2", "2"]);

    // Part 2 never gets through: the upload gives up after its retries, keeping part 1 on the server.
    await makeVideo("resumed.mp4", 4);
    partsSent.length = 0;
    failuresLeft = 100;
    expect(await upload()).toMatch(/^failed/);
    expect(partsSent).toEqual(["1", "2", "2", "2", "2"]);

    // The same file again (after a reload, say): the server says part 1 is there, so only part 2 goes.
    await page.reload();
    await hydrated(page);
    await page.addScriptTag({ content: uploadsBundle });
    await makeVideo("resumed.mp4", 4);
    partsSent.length = 0;
    failuresLeft = 0;
    expect(await upload()).toBe("video");
    expect(partsSent).toEqual(["2"]);
    await context.close();
  });
});
