import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
import {
  apiAs as api,
  baseURL,
  browserForThisFile,
  createAccount,
  goOffline,
  hydrated,
  openPage,
  signedInPage,
  sql,
  unique,
  within,
  loginPageLoad,
} from "./support";

/**
 * Offline reading (app/lib/offline-copies.ts, app/sw/service-worker.ts): screens visited online open offline
 * from a fresh page with their newest saved copy and say so; moving between them offline works; offline is
 * never an alert; signing out leaves nothing behind.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fan: Account;
let conversationId: number;
const tag = `off${unique().slice(-6)}`;
const POST_TEXT = `Sunrise over the bay ${tag}`;

beforeAll(async () => {
  creator = await createAccount({ username: `${tag}_mia`, name: "Mia Offline" });
  fan = await createAccount({ username: `${tag}_dana`, name: "Dana Offline" });
  await sql(
    `UPDATE users SET role = 'creator', email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';\n${fundedFanSql(fan.username, 2000)}`,
  );
  const post = (await api(creator, "POST", "/posts", {
    text: POST_TEXT,
    audience: "everyone",
    priceCents: 0,
    mediaIds: [],
  })) as { id: number };
  await api(fan, "POST", `/users/${creator.username}/follow`);
  await api(fan, "POST", `/posts/${post.id}/bookmark`);
  conversationId = (await api(fan, "POST", "/conversations", { username: creator.username })).id as number;
  await api(fan, "POST", `/conversations/${conversationId}/messages`, {
    clientId: `${tag}-hello-1`,
    text: "Hello from Dana",
  });
  await api(fan, "POST", `/users/${creator.username}/tips`, { amountCents: 500, idempotencyKey: `${tag}-tip-0001` });
  await api(fan, "POST", "/notifications/test");
  // A trial link, for Dashboard → Promotions read offline.
  await api(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 999 }] });
  await api(creator, "POST", "/me/trial-links", {
    days: 7,
    code: `${tag}-offline`
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")
      .slice(0, 32),
    endsAt: new Date(Date.now() + 10 * 86_400_000).toISOString(),
  });
});

/** The service worker controls the page, and keeps a copy of `path`'s page. */
async function pageKept(page: Page, path: string) {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
    timeout: 20_000,
  });
  await expect
    .poll(
      () =>
        page.evaluate(
          async (wanted) =>
            (await (await caches.open("pages")).keys()).some((request) => new URL(request.url).pathname === wanted),
          path,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
}

/**
 * The offline copy stored under `key` (app/lib/offline-copies.ts), read straight from idb-keyval's database; null
 * while the app has not made that database yet (this read never makes it: an empty one would have no store).
 */
function storedCopy(page: Page, key: string) {
  const read = page.evaluate(
    (name) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open("keyval-store");
        open.onupgradeneeded = () => {
          open.transaction!.abort();
          resolve(null);
        };
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          try {
            const read = open.result.transaction("keyval").objectStore("keyval").get(`offline:${name}`);
            read.onsuccess = () => resolve(read.result ?? null);
            read.onerror = () => reject(read.error);
          } catch (error) {
            reject(error);
          }
        };
      }),
    key,
  );
  return within(read, `the page's IndexedDB to read its offline copy "${key}"`);
}

/** Alerts seen offline (none may appear: offline is not an error). */
const alerts: string[] = [];

/** A fresh page, as a launch from the home-screen icon opens one, at `path`, that must show a saved copy. */
async function launch(context: BrowserContext, path: string) {
  const page = await openPage(context);
  page.on("dialog", (dialog) => {
    alerts.push(`${path}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(path);
  await page.getByTestId("offline-notice").waitFor();
  expect(await page.getByTestId("offline-notice").textContent()).toMatch(/^Offline — showing what was saved at /);
  return page;
}

describe("offline reading", () => {
  it("a fan's home, bookmarks, thread, wallet and notifications open offline from a fresh page with what was saved last", async () => {
    const { context, page } = await signedInPage(browser(), fan, undefined, { serviceWorkers: "allow" });
    // The very first visit counts: the service worker is installed by this load and keeps the page afterwards.
    await page.goto("/home");
    await hydrated(page);
    await page.getByText(POST_TEXT).waitFor();
    await pageKept(page, "/home");
    // The other screens, reached by client-side navigation (data only): their pages are kept too.
    const sidebar = page.locator('[data-shell="sidebar"]');
    for (const [link, path, seen] of [
      ["Bookmarks", "/bookmarks", POST_TEXT],
      ["Wallet", "/wallet", "$15.00"],
      ["Notifications", "/notifications", "This is a test notification. Notifications reach you here."],
      ["Messages", "/messages", "Mia Offline"],
    ] as const) {
      await sidebar.getByRole("link", { name: new RegExp(link) }).click();
      await page.waitForURL(path);
      await page.getByText(seen).first().waitFor();
      await pageKept(page, path);
    }
    await page.getByTestId("conversation-row").getByRole("link").first().click();
    await page.waitForURL(`/messages/${conversationId}`);
    await page.getByText("Hello from Dana").waitFor();
    await pageKept(page, `/messages/${conversationId}`);
    // A message arriving live after the thread's page was kept: only the saved copy has it.
    await api(creator, "POST", `/conversations/${conversationId}/messages`, {
      clientId: `${tag}-fresh-1`,
      text: "Fresh from Mia",
    });
    await page.getByText("Fresh from Mia").waitFor();
    await expect
      .poll(async () => JSON.stringify(await storedCopy(page, `thread:${conversationId}`)))
      .toContain("Fresh from Mia");

    await goOffline(context);
    const home = await launch(context, "/home");
    await home.getByText(POST_TEXT).waitFor();
    const bookmarks = await launch(context, "/bookmarks");
    await bookmarks.getByText(POST_TEXT).waitFor();
    const wallet = await launch(context, "/wallet");
    expect(await wallet.locator("[data-balance]").textContent()).toBe("$15.00");
    const notifications = await launch(context, "/notifications");
    await notifications.getByText("This is a test notification. Notifications reach you here.").waitFor();
    const thread = await launch(context, `/messages/${conversationId}`);
    await thread.getByText("Fresh from Mia").waitFor();
    await thread.getByText("Hello from Dana").waitFor();

    // Moving between kept screens offline works like a launch; a screen not kept is a calm offline state.
    const homeSidebar = home.locator('[data-shell="sidebar"]');
    await homeSidebar.getByRole("link", { name: /Messages/ }).click();
    await home.waitForURL("/messages");
    await home.getByTestId("offline-notice").waitFor();
    await home.getByText("Mia Offline").waitFor();
    await homeSidebar.getByRole("link", { name: /Live Streams/ }).click();
    await home.getByRole("heading", { name: "You are offline" }).waitFor();
    expect(await home.getByText("Something went wrong").count()).toBe(0);
    expect(alerts).toEqual([]);

    // The first tab, open all along, reloaded offline shows its copy; back online, it asks the server again and
    // the notice goes.
    await page.reload();
    await page.getByTestId("offline-notice").waitFor();
    await page.getByText("Fresh from Mia").waitFor();
    await context.setOffline(false);
    await page.getByTestId("offline-notice").waitFor({ state: "detached" });
    await page.getByText("Fresh from Mia").waitFor();
  });

  it("a creator's earnings, payout history and promotions open offline, the tabs switch offline, and signing out leaves nothing behind", async () => {
    const { context, page } = await signedInPage(browser(), creator, undefined, { serviceWorkers: "allow" });
    await page.goto("/dashboard");
    await hydrated(page);
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    await pageKept(page, "/dashboard");
    await page.getByRole("link", { name: "Payout history" }).click();
    await page.waitForURL("/dashboard/payouts");
    await pageKept(page, "/dashboard/payouts");
    await page.getByRole("link", { name: "Promotions" }).click();
    await page.waitForURL("/dashboard/promotions");
    await page.getByTestId("trial-link").waitFor();
    await pageKept(page, "/dashboard/promotions");
    await page.getByRole("link", { name: "Earnings" }).click();
    await page.waitForURL("/dashboard");
    await page.getByText("$4.00").first().waitFor();

    await goOffline(context);
    const launched = await launch(context, "/dashboard");
    await launched.getByText("$4.00").first().waitFor();
    // The tab was never opened offline: its saved copy, not "Something went wrong".
    await launched.getByRole("link", { name: "Payout history" }).click();
    await launched.waitForURL("/dashboard/payouts");
    await launched.getByTestId("offline-notice").waitFor();
    expect(await launched.getByText("Something went wrong").count()).toBe(0);
    // Promotions, kept too: the trial link and its figures from the saved copy.
    const promotions = await launch(context, "/dashboard/promotions");
    await promotions.getByTestId("offline-notice").waitFor();
    await promotions.getByTestId("trial-link").getByText("7 days free").waitFor();

    await context.setOffline(false);
    await page.goto("/home");
    await hydrated(page);
    const loginLoaded = loginPageLoad(page);
    await page.locator('[data-shell="sidebar"]').getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await loginLoaded;
    const cdp = await context.newCDPSession(page);
    const origin = new URL(baseURL()).origin;
    // The login page that loaded after signing out may start the page cache again: nothing private is in it.
    const { caches: cacheList } = (await cdp.send("CacheStorage.requestCacheNames", { securityOrigin: origin })) as {
      caches: { cacheId: string; cacheName: string }[];
    };
    expect(cacheList.map((cache) => cache.cacheName)).not.toContain("media");
    const pagesCache = cacheList.find((cache) => cache.cacheName === "pages");
    const kept = pagesCache
      ? (
          (await cdp.send("CacheStorage.requestEntries", {
            cacheId: pagesCache.cacheId,
            skipCount: 0,
            pageSize: 100,
          })) as { cacheDataEntries: { requestURL: string }[] }
        ).cacheDataEntries.map((entry) => new URL(entry.requestURL).pathname)
      : [];
    expect(kept.filter((path) => /^\/(?:home|dashboard|wallet|messages|bookmarks|notifications)/.test(path))).toEqual(
      [],
    );
    // The screens' copies (idb-keyval's store) are gone too.
    const { entriesCount } = await cdp.send("IndexedDB.getMetadata", {
      securityOrigin: origin,
      databaseName: "keyval-store",
      objectStoreName: "keyval",
    });
    expect(entriesCount).toBe(0);
  });

  it("a conversation read online is read in the list's offline copy too", async () => {
    const reader = await createAccount({ username: `${tag}_rhea`, name: "Rhea Reader" });
    await api(reader, "POST", `/users/${creator.username}/follow`);
    const id = (await api(reader, "POST", "/conversations", { username: creator.username })).id as number;
    await api(creator, "POST", `/conversations/${id}/messages`, {
      clientId: `${tag}-unread-1`,
      text: "Unread until opened",
    });
    const { context, page } = await signedInPage(browser(), reader, undefined, { serviceWorkers: "allow" });
    await page.goto("/messages");
    await hydrated(page);
    const row = page.locator(`[data-conversation-id="${id}"]`);
    await row.locator("[data-unread='1']").waitFor();
    await pageKept(page, "/messages");
    await expect.poll(async () => JSON.stringify(await storedCopy(page, "conversations"))).toContain('"unreadCount":1');

    // Opened straight from its address (a notification, a push): the list is not shown again before going offline.
    await page.goto(`/messages/${id}`);
    await page.getByText("Unread until opened").waitFor();
    await expect
      .poll(async () => ((await api(reader, "GET", "/updates")).updates as { messages: number }).messages)
      .toBe(0);
    await expect
      .poll(async () => JSON.stringify(await storedCopy(page, "conversations")), { timeout: 10_000 })
      .toContain('"unreadCount":0');

    await goOffline(context);
    const list = await launch(context, "/messages");
    await list.locator(`[data-conversation-id="${id}"]`).getByText("Mia Offline").waitFor();
    expect(await list.locator(`[data-conversation-id="${id}"] [data-unread]`).count()).toBe(0);
  });
});
