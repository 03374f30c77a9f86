import { describe, expect, it } from "vitest";
import { apiAs as api, browserForThisFile, createAccount, hydrated, seriousViolations, signedInPage, sql, unique } from "./support";

const browser = browserForThisFile();

describe("notifications", () => {
  it("lists twenty, then the rest on Load more; each line opens what it is about, its avatar the person", async () => {
    const tag = `nt${unique().slice(-8)}`;
    const creator = await createAccount({ username: `${tag}_star`, name: "Nora Notified" });
    const fan = await createAccount({ username: `${tag}_fan`, name: "Finn Follower" });
    await sql(`UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';`);
    // Older ones first (the list is newest first): 21 test notifications, then a follow and a like by the fan.
    await sql(
      `INSERT INTO notifications (user_id, kind, params, created_at, read_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 21)
       SELECT (SELECT id FROM users WHERE username = '${creator.username}'), 'test', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;`,
    );
    const post = (await api(creator, "POST", "/posts", { text: `Harbour at dawn ${tag}`, audience: "everyone", priceCents: 0, mediaIds: [] })) as { id: number };
    await api(fan, "POST", `/users/${creator.username}/follow`);
    await api(fan, "POST", `/posts/${post.id}/like`);

    const { page, context } = await signedInPage(browser(), creator, { width: 390, height: 844 });
    await page.goto("/notifications");
    await hydrated(page);
    const lines = page.locator("li[data-notification]");
    expect(await lines.count()).toBe(20);
    expect(await lines.first().textContent()).toContain("Finn Follower liked your post.");
    expect(await seriousViolations(page)).toEqual([]);
    // Offline, "Load more" says why nothing came and stays to try again; the list is as it was.
    await context.setOffline(true);
    await page.getByRole("button", { name: "Load more" }).click();
    await page.getByRole("alert").filter({ hasText: "You are offline" }).waitFor();
    expect(await lines.count()).toBe(20);
    await context.setOffline(false);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => lines.count()).toBe(23);
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
    await lines.first().getByRole("link", { name: `@${fan.username}` }).click();
    await page.waitForURL(`**/${fan.username}`);
    await context.close();
  });
});
