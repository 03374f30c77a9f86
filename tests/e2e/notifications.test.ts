import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  apiAs as api,
  browserForThisFile,
  createAccount,
  hydrated,
  seriousViolations,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

/** The row lies within the phone's width, and nothing on the page reaches beyond it (no sideways scrolling). */
async function fitsThePhone(page: Page, row: Locator) {
  const box = (await row.boundingBox())!;
  const width = await page.evaluate(() => window.innerWidth);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  expect(await row.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("notifications", () => {
  it("lists twenty, then the rest on Load more; each line opens what it is about, its avatar the person; long words wrap on a phone", async () => {
    const tag = `nt${unique().slice(-8)}`;
    const creator = await createAccount({ username: `${tag}_star`, name: "Nora Notified" });
    const fan = await createAccount({ username: `${tag}_fan`, name: "Finn Follower" });
    // People's own text with a long word and no space: a 60-letter name, a 100-letter stream title.
    const streamer = await createAccount({ username: `${tag}_long`, name: "W".repeat(60) });
    const longTitle = "T".repeat(100);
    await sql(
      `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username IN ('${creator.username}', '${streamer.username}');`,
    );
    // Older ones first (the list is newest first): 21 test notifications, the long one, then a follow and a like by the fan.
    await sql(
      `INSERT INTO notifications (user_id, kind, params, created_at, read_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 21)
       SELECT (SELECT id FROM users WHERE username = '${creator.username}'), 'test', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
       INSERT INTO notifications (user_id, kind, actor_id, params, created_at)
       SELECT (SELECT id FROM users WHERE username = '${creator.username}'), 'live', id, json_object('streamId', 0, 'title', '${longTitle}'), '2026-01-02T00:00:00.000Z'
       FROM users WHERE username = '${streamer.username}';`,
    );
    const post = (await api(creator, "POST", "/posts", {
      text: `Harbour at dawn ${tag}`,
      audience: "everyone",
      priceCents: 0,
      mediaIds: [],
    })) as { id: number };
    await api(fan, "POST", `/users/${creator.username}/follow`);
    await api(fan, "POST", `/posts/${post.id}/like`);

    const { page, context } = await signedInPage(browser(), creator, { width: 390, height: 844 });
    await page.goto("/notifications");
    await hydrated(page);
    const lines = page.locator("li[data-notification]");
    expect(await lines.count()).toBe(20);
    expect(await lines.first().textContent()).toContain("Finn Follower liked your post.");
    expect(await seriousViolations(page)).toEqual([]);
    // On a 390 px phone the long words wrap inside their row: the row stays on the screen, the page does not scroll sideways.
    const longLine = lines.filter({ hasText: longTitle });
    expect(await longLine.textContent()).toContain(`${"W".repeat(60)} was live: ${longTitle}`);
    await fitsThePhone(page, longLine);
    // Offline, "Load more" says why nothing came and stays to try again; the list is as it was.
    await context.setOffline(true);
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByRole("alert").filter({ hasText: "You are offline" }).waitFor();
    expect(await lines.count()).toBe(20);
    await context.setOffline(false);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => lines.count()).toBe(24);
    expect(await page.getByRole("alert").filter({ hasText: "You are offline" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    // A test notification has nowhere else to go: no link.
    expect(await lines.last().getByRole("link").count()).toBe(0);

    // The like opens the post; the follow, the follower's profile; the avatar, the person's profile.
    await page.getByRole("link", { name: "Finn Follower liked your post." }).click();
    await page.waitForURL(`**/post/${post.id}`);
    await page.getByText(`Harbour at dawn ${tag}`).first().waitFor();
    await page.goBack();
    await page.getByRole("link", { name: "Finn Follower started following you." }).click();
    await page.waitForURL(`**/${fan.username}`);
    await page.goBack();
    await lines
      .first()
      .getByRole("link", { name: `@${fan.username}` })
      .click();
    await page.waitForURL(`**/${fan.username}`);

    // Right to left, the same: the list is not pushed off the screen by the long words.
    await page.goto("/notifications?lng=ar");
    await hydrated(page);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await fitsThePhone(page, longLine);
    await context.close();
  });
});
