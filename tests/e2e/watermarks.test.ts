import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  hydrated,
  LOOKS,
  openIn,
  seriousViolations,
  signedInPage,
  signedInPageIn,
  sql,
  sqlRows,
  textIn,
  unique,
  within,
} from "./support";

/**
 * A creator's photo, marked by their browser as it uploads (app/lib/uploads.ts, app/lib/watermark.ts): a follower's
 * page shows the mark in the photo's bottom right corner, the creator's own page the original. The pictures are
 * compared by their pixels, decoded in the page.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let follower: Account;

/** The photo: 1600×1000, one grey (a PNG, so the original decodes to exactly that grey everywhere). */
const WIDTH = 1600;
const HEIGHT = 1000;

beforeAll(async () => {
  const tag = `wm${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_maker`, name: "Mara Marked" });
  follower = await createAccount({ username: `${tag}_fan`, name: "Finn Follower" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}';
     INSERT INTO follows (follower_id, creator_id, created_at)
       SELECT f.id, c.id, '${new Date().toISOString()}' FROM users f, users c
       WHERE f.username = '${follower.username}' AND c.username = '${creator.username}';`,
  );
});

/** The grey photo as PNG bytes, drawn by the page's canvas. */
async function greyPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ width, height }) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const draw = canvas.getContext("2d")!;
      draw.fillStyle = "#6b7280";
      draw.fillRect(0, 0, width, height);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
      const bytes = new Uint8Array(await blob.arrayBuffer());
      return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
    },
    { width: WIDTH, height: HEIGHT },
  );
  return Buffer.from(base64, "base64");
}

/**
 * How far the post's photo, as this page loaded it (whichever srcset candidate), is from the original, in two
 * regions of the picture: the mark's (bottom right) and the top left, which no mark touches. Both pictures are
 * drawn at 400×250, so a copy 640 wide compares with the original; the answer is the mean difference per channel.
 */
async function differenceFromOriginal(page: Page, postId: number, original: Buffer) {
  const photo = page.locator(
    `[data-post-id="${postId}"] img[src^="/media/posts/"], [data-post-id="${postId}"] img[src^="/media/marked/"]`,
  );
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 })
    .toBe(true);
  return within(
    photo.evaluate(async (img: HTMLImageElement, originalBase64: string) => {
      const pixels = async (blob: Blob) => {
        const canvas = document.createElement("canvas");
        canvas.width = 400;
        canvas.height = 250;
        const draw = canvas.getContext("2d", { willReadFrequently: true })!;
        draw.drawImage(await createImageBitmap(blob), 0, 0, 400, 250);
        return draw;
      };
      const shown = await pixels(await (await fetch(img.currentSrc)).blob());
      const bytes = Uint8Array.from(atob(originalBase64), (c) => c.charCodeAt(0));
      const source = await pixels(new Blob([bytes], { type: "image/png" }));
      const meanDifference = (x: number, y: number, width: number, height: number) => {
        const a = shown.getImageData(x, y, width, height).data;
        const b = source.getImageData(x, y, width, height).data;
        let total = 0;
        for (let i = 0; i < a.length; i += 4) for (let c = 0; c < 3; c++) total += Math.abs(a[i + c]! - b[i + c]!);
        return total / ((a.length / 4) * 3);
      };
      return {
        src: img.currentSrc,
        srcset: img.srcset,
        // The mark: its text ends 3% from the right and bottom edges, at most 60% of the width, 4.5% of the height.
        markCorner: meanDifference(160, 220, 230, 24),
        topLeft: meanDifference(0, 0, 200, 100),
      };
    }, original.toString("base64")),
    "the page to compare the post's photo with the original",
  );
}

describe("watermarks", () => {
  it("a creator's new photo shows their mark to a follower, and the original to the creator", async () => {
    const { context, page } = await signedInPage(browser(), creator);
    await page.goto("/home");
    await hydrated(page);
    const original = await greyPhoto(page);
    const composer = page.getByRole("form", { name: "New post" });
    await composer.getByRole("textbox", { name: "Post text" }).fill("a grey day");
    await page
      .locator('[data-testid="composer-files"]')
      .setInputFiles({ name: "grey.png", mimeType: "image/png", buffer: original });
    await composer.locator('[data-upload-state="ready"]').waitFor({ timeout: 30_000 });
    await composer.getByRole("combobox", { name: "Who can see" }).selectOption("everyone");
    await composer.getByRole("button", { name: "Post now" }).click();
    await composer.getByText("Your post is published.").waitFor();
    await composer.getByRole("link", { name: "View post" }).click();
    await page.waitForURL(/\/post\/\d+$/);
    const postId = Number(new URL(page.url()).pathname.split("/").pop());

    const row = (
      await sqlRows<{ object_key: string; marked_key: string; watermark: string }>(
        `SELECT m.object_key, m.marked_key, m.watermark FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = ${postId}`,
      )
    )[0]?.[0];
    expect(row).toMatchObject({
      watermark: `${new URL(baseURL()).host}/${creator.username}`,
      marked_key: expect.stringMatching(/^marked\//),
    });

    const own = await differenceFromOriginal(page, postId, original);
    expect(own.src).toContain(`/media/${row!.object_key}`);
    expect(own.markCorner).toBeLessThan(1);
    await context.close();

    const fan = await signedInPage(browser(), follower);
    await fan.page.goto(`/post/${postId}`);
    const seen = await differenceFromOriginal(fan.page, postId, original);
    expect(`${seen.src} ${seen.srcset}`).not.toContain(row!.object_key);
    // The same photo (lossy copies differ by a shade at most), with the mark in its corner.
    expect(seen.topLeft).toBeLessThan(3);
    expect(seen.markCorner).toBeGreaterThan(8);
    // Asked for directly, the original does not exist for the follower.
    const direct = await fan.page.evaluate(async (key) => (await fetch(`/media/${key}`)).status, row!.object_key);
    expect(direct).toBe(404);
    await fan.context.close();
  });

  for (const variant of LOOKS) {
    it(`Settings → Privacy and data's watermark section passes axe (${variant.name})`, async () => {
      const { context, page } = await signedInPageIn(browser(), creator, variant);
      await openIn(page, "/settings/privacy", variant);
      const section = page.getByRole("region", { name: textIn(variant)("Watermark"), exact: true });
      await section.waitFor();
      await section.getByRole("img", { name: new RegExp(`${creator.username}`) }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it("is turned off from Settings, for photos uploaded afterwards", async () => {
    const { context, page } = await signedInPage(browser(), creator);
    await page.goto("/settings/privacy");
    await hydrated(page);
    const section = page.getByRole("region", { name: "Watermark", exact: true });
    const checkbox = section.getByRole("checkbox", { name: "Mark my photos with my profile address" });
    expect(await checkbox.isChecked()).toBe(true);
    await checkbox.uncheck();
    await section.getByRole("button", { name: "Save" }).click();
    await section.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await sqlRows(`SELECT watermark FROM users WHERE username = '${creator.username}'`)).toEqual([
      [{ watermark: 0 }],
    ]);
    await page.reload();
    await hydrated(page);
    expect(await page.getByRole("checkbox", { name: "Mark my photos with my profile address" }).isChecked()).toBe(
      false,
    );
    await context.close();
  });
});
