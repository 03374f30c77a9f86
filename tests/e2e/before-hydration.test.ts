import { readFileSync } from "node:fs";
import type { Locator, Page, Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAs as api,
  browserForThisFile,
  createAccount,
  hydrated,
  newContext,
  openPage,
  sql,
  sqlRows,
  unique,
} from "./support";

/**
 * A tap before the page's JavaScript has started is never lost: each primary action is a form the browser posts
 * itself (a route action does the work and redirects back), or it looks disabled and takes no tap until the page
 * has hydrated. The page's modules are held (every /assets/*.js request waits until the test releases it), so the
 * taps land on the server's HTML, whatever the build does to start its scripts; and without JavaScript at all.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let postId: number;

beforeAll(async () => {
  const tag = `bh${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Hana Host" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}'`,
  );
  await api(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 499 }] });
  postId = (await api(creator, "POST", "/posts", { text: "Before the hydration", audience: "everyone" })).id as number;
});

/** Holds every request for the page's modules until `release()`; requests made after it go through at once. */
async function holdScripts(page: Page): Promise<{ release(): void }> {
  const held: Route[] = [];
  let released = false;
  await page.route("**/assets/*.js", (route) => (released ? route.continue() : void held.push(route)));
  return {
    release() {
      released = true;
      for (const route of held.splice(0)) void route.continue().catch(() => undefined);
    },
  };
}

/** A signed-in page (the session cookie only, as after the sign-in form) whose modules are held. */
async function heldPage(account: Account, options: { javaScriptEnabled?: boolean; locale?: string } = {}) {
  const context = await newContext(browser(), { viewport: { width: 390, height: 844 }, ...options });
  const login = await context.request.post("/api/login", {
    data: { login: account.email, password: account.password },
  });
  if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
  const page = await openPage(context);
  return { page, scripts: await holdScripts(page) };
}

/** Opens `path` and stops at DOMContentLoaded, checking that the page has not hydrated (its modules are held). */
async function openUnhydrated(page: Page, path: string) {
  await page.goto(path, { waitUntil: "domcontentloaded" });
  expect(await page.locator("html[data-hydrated]").count(), `${path} hydrated with its modules held`).toBe(0);
}

/** Taps `control` and expects the browser itself to post a form for it (nothing else can act before the hydration). */
async function tapPosts(page: Page, control: Locator, what: string) {
  const posted = page
    .waitForRequest((request) => request.method() === "POST" && request.isNavigationRequest(), { timeout: 15_000 })
    .catch(() => null);
  await control.click();
  expect(await posted, `${what}: the browser posted no form for the tap`).not.toBeNull();
  await page.waitForLoadState("domcontentloaded");
}

/** A control that needs the page's JavaScript: visibly disabled (dimmed, deaf to taps) until the hydration. */
async function looksDisabled(control: Locator) {
  return control.evaluate((element) => {
    const style = getComputedStyle(element);
    return style.pointerEvents === "none" && Number(style.opacity) < 1;
  });
}

const likedBy = async (account: Account) =>
  (
    await sqlRows(
      `SELECT 1 FROM likes WHERE post_id = ${postId} AND user_id = (SELECT id FROM users WHERE username = '${account.username}')`,
    )
  )[0]!.length === 1;
const bookmarkedBy = async (account: Account) =>
  (
    await sqlRows(
      `SELECT 1 FROM bookmarks WHERE post_id = ${postId} AND user_id = (SELECT id FROM users WHERE username = '${account.username}')`,
    )
  )[0]!.length === 1;
const follows = async (account: Account) =>
  (
    await sqlRows(
      `SELECT 1 FROM follows WHERE follower_id = (SELECT id FROM users WHERE username = '${account.username}') AND creator_id = (SELECT id FROM users WHERE username = '${creator.username}')`,
    )
  )[0]!.length === 1;

describe("taps before the hydration", () => {
  it("Follow, Message and Send on a profile and a chat, tapped at DOMContentLoaded with the modules held, take effect; Subscribe, Tip and Share look disabled until they work", async () => {
    const member = await createAccount({ username: `bh${unique().slice(-8)}_m` });
    const { page, scripts } = await heldPage(member);

    await openUnhydrated(page, `/${creator.username}`);
    await tapPosts(page, page.getByRole("button", { name: "Follow", exact: true }), "Follow");
    // The server's answer shows the result, the modules still held.
    await page.getByRole("button", { name: "Following" }).waitFor();
    expect(await follows(member)).toBe(true);
    await tapPosts(page, page.getByRole("button", { name: "Message", exact: true }), "Message");
    await page.waitForURL(/\/messages\/\d+$/, { waitUntil: "domcontentloaded" });
    await page.getByTestId("composer-input").fill("Written before the scripts");
    await tapPosts(page, page.getByTestId("send-button"), "Send");
    await page
      .locator("[data-testid='message'][data-mine='true']", { hasText: "Written before the scripts" })
      .waitFor();
    const threadId = Number(new URL(page.url()).pathname.split("/").at(-1));
    expect(await sqlRows(`SELECT text FROM messages WHERE conversation_id = ${threadId}`)).toEqual([
      [{ text: "Written before the scripts" }],
    ]);

    // The controls that need the page's JavaScript look disabled until it has hydrated, then work.
    await openUnhydrated(page, `/${creator.username}`);
    const subscribe = page.getByRole("button", { name: /^Subscribe ·/ });
    const tip = page.getByRole("button", { name: "Tip", exact: true });
    // The profile's own Share comes before its posts' ones.
    const share = page.getByRole("button", { name: "Share", exact: true }).first();
    for (const [name, control] of Object.entries({ subscribe, tip, share }))
      expect(await looksDisabled(control), name).toBe(true);
    scripts.release();
    await hydrated(page);
    expect(await looksDisabled(subscribe)).toBe(false);
    await subscribe.click();
    await page.getByRole("dialog", { name: `Subscribe to ${creator.name}` }).waitFor();
  });

  it("Like and Bookmark on /home, tapped at DOMContentLoaded with the modules held, take effect and show", async () => {
    const reader = await createAccount({ username: `bh${unique().slice(-8)}_r` });
    await api(reader, "POST", `/users/${creator.username}/follow`);
    const { page, scripts } = await heldPage(reader);
    await openUnhydrated(page, "/home");
    const card = page.locator(`[data-post-id="${postId}"]`);
    await tapPosts(page, card.getByRole("button", { name: /^Like/ }), "Like");
    await card.getByRole("button", { name: /^Like/, pressed: true }).waitFor();
    await tapPosts(page, card.getByRole("button", { name: "Bookmark" }), "Bookmark");
    await card.getByRole("button", { name: "Bookmark", pressed: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/home");
    expect([await likedBy(reader), await bookmarkedBy(reader)]).toEqual([true, true]);
    // Back on /home, still before the hydration: a tip is a dialog of the page's code, disabled until then.
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    expect(await looksDisabled(card.getByRole("button", { name: "Send a tip" }))).toBe(true);

    // After the hydration, the same buttons go through the app's own path: unlike and unbookmark.
    scripts.release();
    await page.reload();
    await hydrated(page);
    await card.getByRole("button", { name: /^Like/, pressed: true }).click();
    await card.getByRole("button", { name: "Bookmark", pressed: true }).click();
    await card.getByRole("button", { name: "Bookmark", pressed: false }).waitFor();
    await expect.poll(async () => [await likedBy(reader), await bookmarkedBy(reader)]).toEqual([false, false]);
  });
});

describe("without JavaScript", () => {
  it("Follow, Like, Bookmark and Message work as forms; a refusal is shown in the reader's language", async () => {
    const reader = await createAccount({ username: `bh${unique().slice(-8)}_n` });
    const { page } = await heldPage(reader, { javaScriptEnabled: false, locale: "de-DE" });
    const de = JSON.parse(readFileSync("app/locales/de.json", "utf8")) as Record<string, string>;

    // Not following yet: Message is refused, in German, and nothing opens.
    await page.goto(`/${creator.username}`);
    await tapPosts(page, page.getByRole("button", { name: de["Message"], exact: true }), "Message");
    await page
      .getByRole("alert")
      .getByText(
        de["You can message creators you follow or subscribe to, your own fans, and people who follow you back."]!,
      )
      .waitFor();

    await tapPosts(page, page.getByRole("button", { name: de["Follow"], exact: true }), "Follow");
    await page.getByRole("button", { name: de["Following"] }).waitFor();
    expect(await follows(reader)).toBe(true);

    await page.goto("/home");
    const card = page.locator(`[data-post-id="${postId}"]`);
    await tapPosts(page, card.getByRole("button", { name: new RegExp(`^${de["Like"]}`) }), "Like");
    await card.getByRole("button", { name: new RegExp(`^${de["Like"]}`), pressed: true }).waitFor();
    await tapPosts(page, card.getByRole("button", { name: de["Bookmark"] }), "Bookmark");
    await card.getByRole("button", { name: de["Bookmark"], pressed: true }).waitFor();
    expect([await likedBy(reader), await bookmarkedBy(reader)]).toEqual([true, true]);

    await page.goto(`/${creator.username}`);
    await tapPosts(page, page.getByRole("button", { name: de["Message"], exact: true }), "Message");
    await page.waitForURL(/\/messages\/\d+$/, { waitUntil: "domcontentloaded" });
    await page.getByTestId("composer-input").waitFor();
  });
});
