import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiAs, browserForThisFile, createAccount, hydrated, signedInPage, sql, unique, within } from "./support";

/**
 * A creator's video in the post composer, in Chromium under the app's own CSP: the browser makes its 360p and 720p
 * renditions with mediabunny (H.264, and AAC from the WASM encoder: this Chromium has no AAC encoder of its own),
 * shows the conversion's progress beside the upload's, sends the renditions before completing the original, and
 * the post, made while the video was still on its way, ends up with both renditions.
 */
const browser = browserForThisFile();

let creator: Awaited<ReturnType<typeof createAccount>>;

beforeAll(async () => {
  creator = await createAccount({ username: `vid${unique().slice(-8)}` });
  await sql(`UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}'`);
});

/**
 * A 3 s 1280×720 WebM with sound, recorded in the page as a phone would: a moving canvas and a 440 Hz tone through
 * MediaRecorder. Its bytes, base64.
 */
function recordVideo(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 1280;
    canvas.height = 720;
    const draw = canvas.getContext("2d")!;
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const sound = audio.createMediaStreamDestination();
    tone.connect(sound);
    tone.start();
    const stream = new MediaStream([...canvas.captureStream(30).getVideoTracks(), ...sound.stream.getAudioTracks()]);
    const recorder = new MediaRecorder(stream, { mimeType: "video/webm;codecs=vp8,opus" });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    const start = performance.now();
    // Recorded in real time: the length is the recording's, however fast the machine draws.
    while (performance.now() - start < 3000) {
      const seconds = (performance.now() - start) / 1000;
      draw.fillStyle = `hsl(${seconds * 120}, 70%, 45%)`;
      draw.fillRect(0, 0, 1280, 720);
      draw.fillStyle = "#fff";
      draw.fillRect(100 + seconds * 300, 300, 120, 120);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    recorder.stop();
    await stopped;
    tone.stop();
    await audio.close();
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
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
    await page.goto("/home");
    await hydrated(page);
    const video = Buffer.from(await within(recordVideo(page), "the page to record a 3 s video"), "base64");

    const text = `video post ${unique()}`;
    await composer(page).getByRole("textbox", { name: "Post text" }).fill(text);
    await page
      .locator('[data-testid="composer-files"]')
      .setInputFiles({ name: "clip.webm", mimeType: "video/webm", buffer: video });
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
});
