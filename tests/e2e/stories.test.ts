import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAs as api,
  browserForThisFile,
  createAccount,
  hydrated,
  seriousViolations,
  signedInPage,
  sql,
  sqlRows,
  unique,
} from "./support";

/**
 * Stories end to end: a creator on a desktop posts a photo and a video story through /stories/create; a follower
 * on a phone sees the ring on Home, goes through the viewer with taps and keys, likes and replies; the ring turns
 * seen; the creator finds the follower in the viewers list and keeps a story in a highlight, which stays on the
 * profile after the cron expired the rest. A subscribers-only story never reaches the follower.
 */
const browser = browserForThisFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let second: Account;
let fan: Account;

beforeAll(async () => {
  const tag = `st${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_mia`, name: "Stella Stories" });
  second = await createAccount({ username: `${tag}_rita`, name: "Rita Second" });
  fan = await createAccount({ username: `${tag}_fan`, name: "Finn Follower" });
  await sql(
    `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username IN ('${creator.username}', '${second.username}');`,
  );
  await api(fan, "POST", `/users/${creator.username}/follow`);
  await api(fan, "POST", `/users/${second.username}/follow`);
});

/**
 * Picks a file for the composer: a photo drawn on a canvas (PNG), a short WebM recorded from one, or a text file
 * named like a picture (fake.png).
 */
async function pickStoryFile(page: Page, kind: "photo" | "video" | "fake") {
  await page.evaluate(async (what) => {
    const canvas = document.createElement("canvas");
    canvas.width = 180;
    canvas.height = 320;
    const draw = canvas.getContext("2d")!;
    let file: File;
    if (what === "photo") {
      draw.fillStyle = "#f59e0b";
      draw.fillRect(0, 0, 180, 320);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
      file = new File([blob], "beach.png", { type: "image/png", lastModified: Date.now() });
    } else if (what === "fake") {
      file = new File(["this is not a picture at all\n".repeat(20)], "fake.png", {
        type: "image/png",
        lastModified: Date.now(),
      });
    } else {
      const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: "video/webm" });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let frame = 0; frame < 40; frame++) {
        draw.fillStyle = `hsl(${frame * 9}, 80%, 50%)`;
        draw.fillRect(0, 0, 180, 320);
        await new Promise((resolve) => setTimeout(resolve, 33));
      }
      recorder.stop();
      await stopped;
      file = new File(chunks, "waves.webm", { type: "video/webm", lastModified: Date.now() });
    }
    const input = document.querySelector<HTMLInputElement>('[data-testid="story-file"]')!;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }, kind);
}

async function publishStory(page: Page, kind: "photo" | "video", text: string) {
  await page.goto("/stories/create");
  await hydrated(page);
  await pickStoryFile(page, kind);
  // Seen full screen as fans will, before publishing.
  await page.locator(`[data-story-preview] ${kind === "photo" ? "img" : "video"}`).waitFor();
  if (text) await page.getByLabel("Text on your story").fill(text);
  await page.getByRole("button", { name: "Publish story" }).click({ timeout: 20_000 });
  await page.waitForURL("**/home");
}

const storyIndex = (page: Page) => page.locator("main p[aria-live]").textContent();
const fillWidth = (page: Page) =>
  page
    .locator("[data-story-viewer] .bg-white")
    .nth(0)
    .evaluate((element: HTMLElement) => element.style.width);

/** Clicks the picture at a fraction of its width (a tap). */
async function tapStage(page: Page, fraction: number) {
  const box = (await page.locator("[data-story-stage]").boundingBox())!;
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

describe("stories", () => {
  it("a creator posts a photo and a video; a follower goes through them on a phone; the ring turns seen; the creator sees the viewer", async () => {
    const desk = await signedInPage(browser(), creator, DESKTOP);
    // A subscribers-only story, made as the API makes them (its file is never fetched here).
    const hex = "ab".repeat(16);
    await sql(
      `INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at)
         SELECT id, 'post', 'image', 'ready', 'stories/${hex}.png', 'image/png', 10, '${new Date().toISOString()}' FROM users WHERE username = '${creator.username}';
       INSERT INTO stories (creator_id, media_id, text, audience, created_at, expires_at)
         SELECT user_id, id, 'Only for subscribers', 'subscribers', '${new Date(Date.now() - 60_000).toISOString()}', '${new Date(Date.now() + 86_400_000).toISOString()}'
         FROM media WHERE object_key = 'stories/${hex}.png';`,
    );
    // A second creator's story, two hours old: after the first creator's in the tray.
    await sql(
      `INSERT INTO media (user_id, purpose, kind, status, object_key, content_type, size_bytes, created_at)
         SELECT id, 'post', 'image', 'ready', 'stories/${"cd".repeat(16)}.png', 'image/png', 10, '${new Date().toISOString()}' FROM users WHERE username = '${second.username}';
       INSERT INTO stories (creator_id, media_id, text, audience, created_at, expires_at)
         SELECT user_id, id, 'Rita on the road', 'everyone', '${new Date(Date.now() - 7_200_000).toISOString()}', '${new Date(Date.now() + 86_400_000).toISOString()}'
         FROM media WHERE object_key = 'stories/${"cd".repeat(16)}.png';`,
    );
    await publishStory(desk.page, "photo", "Hello from the beach");
    await publishStory(desk.page, "video", "");
    // Home's tray: "Your story" first.
    await desk.page.getByRole("navigation", { name: "Stories" }).getByRole("link", { name: "Your story" }).waitFor();

    const phone = await signedInPage(browser(), fan, PHONE);
    const page = phone.page;
    await page.goto("/home");
    await hydrated(page);
    const ring = page
      .getByRole("navigation", { name: "Stories" })
      .getByRole("link", { name: "Stella Stories New stories" });
    expect(await ring.getAttribute("data-story-ring")).toBe("unseen");
    expect(await seriousViolations(page), "/home with the stories tray").toEqual([]);
    await ring.click();
    await page.waitForURL(/\/stories\?user=/);
    // Two stories for a follower: the subscribers-only one is not there.
    expect(await storyIndex(page)).toBe("Story 1 of 2");
    expect(await page.locator("[data-story-viewer] .h-0\\.5").count()).toBe(2);
    await page.getByText("Hello from the beach").waitFor();
    await expect
      .poll(() => page.locator("[data-story-stage] img").evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(180);

    // Holding pauses: the progress does not move while held, and moves on once let go.
    const box = (await page.locator("[data-story-stage]").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.getByRole("button", { name: "Play" }).waitFor();
    const held = await fillWidth(page);
    await page.waitForTimeout(600);
    expect(await fillWidth(page)).toBe(held);
    await page.mouse.up();
    await page.getByRole("button", { name: "Pause" }).waitFor();
    await expect.poll(() => fillWidth(page)).not.toBe(held);
    expect(await storyIndex(page)).toBe("Story 1 of 2");

    // Paused (the photo would move on after 5 s), the follower likes it and replies.
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("button", { name: "Like" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Like" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByLabel("Reply to Stella Stories").fill("Love this view!");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("status").filter({ hasText: "Reply sent" }).waitFor();

    // A tap on the right goes on to the video, which plays muted until "Tap for sound".
    await tapStage(page, 0.85);
    await expect.poll(() => storyIndex(page)).toBe("Story 2 of 2");
    const video = page.locator("[data-story-stage] video");
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
    await page.getByRole("button", { name: "Tap for sound" }).click();
    expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(false);
    // Keys: back, then on; after the creator's last story comes the next creator of the tray, then the end.
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => storyIndex(page)).toBe("Story 1 of 2");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => storyIndex(page)).toBe("Story 2 of 2");
    await page.keyboard.press("ArrowRight");
    await page.getByRole("heading", { name: "Stories of Rita Second" }).waitFor();
    await page.getByText("Rita on the road").waitFor();
    expect(await storyIndex(page)).toBe("Story 1 of 1");
    await page.keyboard.press("ArrowRight");
    await page.waitForURL("**/home");
    await hydrated(page);
    const tray = page.getByRole("navigation", { name: "Stories" });
    expect(await tray.getByRole("link", { name: "Stella Stories", exact: true }).getAttribute("data-story-ring")).toBe(
      "seen",
    );
    expect(await tray.getByRole("link", { name: "Rita Second", exact: true }).getAttribute("data-story-ring")).toBe(
      "seen",
    );
    // The profile's avatar has the same ring, seen.
    await page.goto(`/${creator.username}`);
    expect(await page.locator("[data-story-ring]").getAttribute("data-story-ring")).toBe("seen");

    // A swipe down closes the viewer, back where it was opened.
    await page.locator("[data-story-ring]").click();
    await page.waitForURL(/\/stories\?user=/);
    await hydrated(page);
    const stage = (await page.locator("[data-story-stage]").boundingBox())!;
    await page.mouse.move(stage.x + stage.width / 2, stage.y + 200);
    await page.mouse.down();
    await page.mouse.move(stage.x + stage.width / 2, stage.y + 450, { steps: 5 });
    await page.mouse.up();
    await page.waitForURL(`**/${creator.username}`);

    const reply = await sqlRows<{ text: string }>(
      `SELECT m.text FROM messages m JOIN users u ON u.id = m.sender_id WHERE u.username = '${fan.username}' ORDER BY m.id DESC LIMIT 1`,
    );
    expect(reply[0]![0]!.text).toBe("Love this view!");

    // The creator's viewers list: the follower, who liked the photo.
    await desk.page.goto(`/stories?user=${creator.username}`);
    await hydrated(desk.page);
    // The creator's own stories start with the oldest: the subscribers-only one, nobody's seen; then the photo.
    await desk.page.getByRole("button", { name: "Pause" }).click();
    await desk.page.getByRole("button", { name: "Viewers: 0" }).waitFor();
    await desk.page.keyboard.press("ArrowRight");
    await desk.page.getByText("Hello from the beach").waitFor();
    await desk.page.getByRole("button", { name: "Pause" }).click();
    await desk.page.getByRole("button", { name: "Viewers: 1" }).click();
    const list = desk.page.locator("[data-story-viewer-list]");
    await list.getByText("Finn Follower").waitFor();
    await list.getByText("Liked").waitFor();
    await desk.page.getByRole("dialog").getByText("1 view · 1 like", { exact: true }).waitFor();
    await desk.page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    // Escape closes the viewer.
    await desk.page.keyboard.press("Escape");
    await desk.page.waitForURL("**/home");
    await Promise.all([desk.context.close(), phone.context.close()]);
  });

  it("a story kept in a highlight stays on the profile after the cron expires the rest", async () => {
    const desk = await signedInPage(browser(), creator, DESKTOP);
    const page = desk.page;
    await page.goto(`/stories?user=${creator.username}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Pause" }).click();
    // The creator sees all three, oldest first: the subscribers-only one, then the photo.
    expect(await storyIndex(page)).toBe("Story 1 of 3");
    await page.keyboard.press("ArrowRight");
    await page.getByText("Hello from the beach").waitFor();
    await page.getByRole("button", { name: "Pause" }).click();
    // The photo: into a new highlight.
    await page.getByRole("button", { name: "Add to highlight" }).click();
    await page.getByLabel("New highlight").fill("Beach days");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("button", { name: "Remove from highlight" }).waitFor();

    // A day later: every story of the creator has expired; the cron runs.
    await sql(
      `UPDATE stories SET expires_at = '${new Date(Date.now() - 1000).toISOString()}' WHERE creator_id = (SELECT id FROM users WHERE username = '${creator.username}');`,
    );
    expect((await desk.context.request.get("/__scheduled")).status()).toBe(200);
    const left = await sqlRows<{ n: number; kept: number }>(
      `SELECT COUNT(*) AS n, SUM(highlight_id IS NOT NULL) AS kept FROM stories WHERE creator_id = (SELECT id FROM users WHERE username = '${creator.username}')`,
    );
    expect(left[0]![0]).toEqual({ n: 1, kept: 1 });

    const phone = await signedInPage(browser(), fan, PHONE);
    await phone.page.goto("/home");
    await hydrated(phone.page);
    const tray = phone.page.getByRole("navigation", { name: "Stories" });
    await tray.getByRole("link", { name: "Rita Second", exact: true }).waitFor();
    expect(await tray.getByRole("link", { name: /Stella Stories/ }).count()).toBe(0);
    await phone.page.goto(`/${creator.username}`);
    expect(await phone.page.locator("[data-story-ring]").count()).toBe(0);
    const highlight = phone.page
      .getByRole("navigation", { name: "Highlights" })
      .getByRole("link", { name: "Beach days" });
    // Its cover is the photo's small poster, drawn by the creator's browser when the story was uploaded, not the photo.
    expect(await highlight.locator("img").getAttribute("src")).toMatch(
      /^\/media\/stories\/posters\/[a-f0-9]{32}\.jpg$/,
    );
    await highlight.click();
    await phone.page.waitForURL(/\/stories\?highlight=/);
    await phone.page.getByText("Hello from the beach").waitFor();
    expect(await storyIndex(phone.page)).toBe("Story 1 of 1");
    await Promise.all([desk.context.close(), phone.context.close()]);
  });

  it("a file that is not really a picture: the upload area says why instead of a broken preview, and another can be chosen", async () => {
    const phone = await signedInPage(browser(), creator, PHONE);
    const page = phone.page;
    await page.goto("/stories/create");
    await hydrated(page);
    await pickStoryFile(page, "fake");
    // Where the upload's progress was, on screen: the file's name and the server's reason.
    const refusal = page.getByRole("alert").filter({ hasText: "This file type is not supported." });
    await refusal.waitFor({ timeout: 20_000 });
    // No broken picture: the preview is back to its explanation, and nothing says it is still processing.
    expect(await page.locator("[data-story-preview] img").count()).toBe(0);
    await page
      .getByText("Stories are photos or short videos that disappear after 24 hours.", { exact: false })
      .waitFor();
    expect(await page.getByText("Processing fake.png…").count()).toBe(0);
    expect(await page.getByRole("progressbar").count()).toBe(0);
    expect(await refusal.textContent()).toContain("fake.png");
    // On screen, not under the phone's bottom bar.
    const uncovered = (element: Element) => {
      const box = element.getBoundingClientRect();
      return (
        box.bottom <= window.innerHeight &&
        element.contains(document.elementFromPoint(box.left + box.width / 2, box.bottom - 2))
      );
    };
    await expect.poll(() => refusal.evaluate(uncovered)).toBe(true);
    expect(await page.getByRole("button", { name: "Publish story" }).isDisabled()).toBe(true);

    // Another file: the refusal goes, the photo uploads and can be published.
    await page.getByRole("button", { name: "Choose a photo or video" }).waitFor();
    await pickStoryFile(page, "photo");
    await expect
      .poll(() => page.locator("[data-story-preview] img").evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(180);
    expect(await refusal.count()).toBe(0);
    await page.getByText("beach.png uploaded").waitFor({ timeout: 20_000 });
    expect(await page.getByRole("button", { name: "Publish story" }).isEnabled()).toBe(true);
    await phone.context.close();
  });

  it("the new screens pass axe in light, dark and Arabic", async () => {
    const desk = await signedInPage(browser(), creator, DESKTOP);
    const page = desk.page;
    const highlight = await highlightId();
    for (const [colorScheme, lng] of [
      ["light", "en"],
      ["dark", "en"],
      ["light", "ar"],
    ] as const) {
      await page.emulateMedia({ colorScheme });
      for (const path of [
        `/stories/create?lng=${lng}`,
        `/stories?highlight=${highlight}&lng=${lng}`,
        `/${creator.username}?lng=${lng}`,
      ]) {
        await page.goto(path);
        await hydrated(page);
        if (path.startsWith("/stories?")) await page.locator("[data-story-viewer]").waitFor();
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(lng === "ar" ? "rtl" : "ltr");
        expect(await seriousViolations(page), `${path} ${colorScheme}`).toEqual([]);
      }
    }
    await desk.context.close();
  });
});

async function highlightId(): Promise<number> {
  const rows = await sqlRows<{ id: number }>(
    `SELECT id FROM story_highlights WHERE creator_id = (SELECT id FROM users WHERE username = '${creator.username}')`,
  );
  return rows[0]![0]!.id;
}
