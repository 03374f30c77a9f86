import type { Page, Request, Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAs as api,
  browserForThisFile,
  createAccount,
  goOffline,
  hydrated,
  signedInPage,
  sql,
  unique,
} from "./support";

/**
 * The outbox (app/lib/outbox.ts): likes, bookmarks, comments and messages made offline are shown at once as
 * waiting, survive a reload, and reach the server once each, in order, when the network is back, even while it
 * flaps; what the server refuses is shown with its reason and can be discarded.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fan: Account;
let postId: number;
let doomedPostId: number;
let conversationId: number;
const tag = `ob${unique().slice(-6)}`;

const threadTexts = async () =>
  (
    (await api(creator, "GET", `/conversations/${conversationId}/messages`)) as { messages: { text: string }[] }
  ).messages.map((message) => message.text);

beforeAll(async () => {
  creator = await createAccount({ username: `${tag}_sam`, name: "Sam Outbox" });
  fan = await createAccount({ username: `${tag}_ivy`, name: "Ivy Outbox" });
  await sql(`UPDATE users SET role = 'creator' WHERE username = '${creator.username}';`);
  postId = (
    (await api(creator, "POST", "/posts", {
      text: `Morning light ${tag}`,
      audience: "everyone",
      priceCents: 0,
      mediaIds: [],
    })) as { id: number }
  ).id;
  doomedPostId = (
    (await api(creator, "POST", "/posts", {
      text: `Soon gone ${tag}`,
      audience: "everyone",
      priceCents: 0,
      mediaIds: [],
    })) as { id: number }
  ).id;
  await api(fan, "POST", `/users/${creator.username}/follow`);
  conversationId = (await api(fan, "POST", "/conversations", { username: creator.username })).id as number;
});

async function visitOnline(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
    timeout: 20_000,
  });
}

/**
 * A new post of the creator's with a comment of the fan's, open on the fan's page with the page's clock held: from
 * then on the page's time moves only when the test moves it (paused a few seconds ahead: the clock runs on
 * meanwhile, and cannot be paused in its past). Counts the like requests the server answered.
 */
async function postOnHeldClock(text: string, commentText: string) {
  const postId = (
    (await api(creator, "POST", "/posts", {
      text: `${text} ${tag}`,
      audience: "everyone",
      priceCents: 0,
      mediaIds: [],
    })) as { id: number }
  ).id;
  const commentId = (
    (await api(fan, "POST", `/posts/${postId}/comments`, { text: commentText })) as { comment: { id: number } }
  ).comment.id;
  const { page } = await signedInPage(browser(), fan);
  const likePath = `/api/posts/${postId}/like`;
  const isLike = (request: Request) => request.method() === "POST" && new URL(request.url()).pathname === likePath;
  let answeredLikes = 0;
  page.on("response", (response) => void (isLike(response.request()) && response.ok() && answeredLikes++));
  await page.clock.install();
  // The updates socket opens after the hydration, and its opening is evidence that the network works
  // (app/lib/network-answers.ts): it must come before the network dies, not in the middle of a case. It announces
  // itself by asking for /api/updates.
  const socketOpened = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/updates");
  await page.goto(`/post/${postId}`);
  await hydrated(page);
  await socketOpened;
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
  return { postId, commentId, page, isLike, answeredLikes: () => answeredLikes };
}

/** The fan deletes a comment (a request of the app's own that the server answers). */
async function deleteComment(page: Page, commentId: number) {
  page.once("dialog", (dialog) => void dialog.accept());
  const comment = page.locator(`[data-comment-id="${commentId}"]`);
  await comment.getByRole("button", { name: "Delete" }).click();
  await comment.waitFor({ state: "detached" });
}

/** The outbox is empty and the like reached the server once: one answered request, one like, one notification. */
async function likedOnce(page: Page, postId: number, answeredLikes: () => number) {
  await page.getByTestId("outbox-pending").waitFor({ state: "detached", timeout: 30_000 });
  // Playwright may tell of a response after the page has used it (it waits for the headers' extra info).
  await expect.poll(answeredLikes).toBe(1);
  expect((await api(fan, "GET", `/posts/${postId}`)) as { liked: boolean; likeCount: number }).toMatchObject({
    liked: true,
    likeCount: 1,
  });
  const notices = (await api(creator, "GET", "/notifications")) as {
    notifications: { kind: string; params?: { postId?: number } }[];
  };
  expect(
    notices.notifications.filter((notice) => notice.kind === "like" && notice.params?.postId === postId),
  ).toHaveLength(1);
}

describe("the outbox", () => {
  it("likes, bookmarks, a comment and two messages made offline wait, survive a reload, and reach the server once each, in order", async () => {
    const { context, page } = await signedInPage(browser(), fan, undefined, { serviceWorkers: "allow" });
    // Online once, so the pages open offline (the worker, in control from the first page on, keeps them).
    await visitOnline(page, `/messages/${conversationId}`);
    await visitOnline(page, `/post/${postId}`);

    await goOffline(context);
    const actions = page.locator("[data-post-actions]");
    await actions.getByRole("button", { name: /Like/ }).click();
    await actions.getByRole("button", { name: "Bookmark" }).click();
    await page.getByTestId("post-waiting").waitFor();
    await page.getByLabel("Write a comment").fill("Lovely, written offline");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.getByTestId("comment-waiting").getByText("Lovely, written offline").waitFor();

    await page.goto(`/messages/${conversationId}`);
    await hydrated(page);
    await page.getByTestId("offline-notice").waitFor();
    for (const text of ["First offline message", "Second offline message"]) {
      await page.getByTestId("composer-input").fill(text);
      await page.getByTestId("send-button").click();
      await page.locator('[data-outgoing="waiting"]').getByText(text).waitFor();
    }
    await expect.poll(() => page.getByTestId("outbox-pending").textContent()).toBe("5 actions wait for the network.");

    // The post's page opened again offline comes from the worker's copy, kept before the like: it still shows the
    // like and the bookmark that wait.
    await page.goto(`/post/${postId}`);
    await hydrated(page);
    const postActions = page.locator("[data-post-actions]");
    await expect
      .poll(() => postActions.getByRole("button", { name: /Like/ }).getAttribute("aria-pressed"))
      .toBe("true");
    await expect
      .poll(() => postActions.getByRole("button", { name: "Bookmark" }).getAttribute("aria-pressed"))
      .toBe("true");
    expect(await page.locator("[data-like-count]").first().textContent()).toBe("1");

    // A reload while still offline: the outbox is kept, and so is what it shows.
    await page.goto(`/messages/${conversationId}`);
    await hydrated(page);
    await page.reload();
    await page.locator('[data-outgoing="waiting"]').getByText("Second offline message").waitFor();
    expect(await page.getByTestId("outbox-pending").textContent()).toBe("5 actions wait for the network.");
    // Nothing reached the server.
    expect(await threadTexts()).toEqual([]);

    await context.setOffline(false);
    await page.getByTestId("outbox-tray").waitFor({ state: "detached", timeout: 40_000 });
    await page.getByText("Second offline message").waitFor();
    expect(await page.locator('[data-outgoing="waiting"]').count()).toBe(0);
    expect(await threadTexts()).toEqual(["First offline message", "Second offline message"]);
    const post = (await api(fan, "GET", `/posts/${postId}`)) as {
      liked: boolean;
      likeCount: number;
      bookmarked: boolean;
      commentCount: number;
    };
    expect(post).toMatchObject({ liked: true, likeCount: 1, bookmarked: true, commentCount: 1 });
    const comments = (await api(fan, "GET", `/posts/${postId}/comments`)) as { comments: { text: string }[] };
    expect(comments.comments.map((comment) => comment.text)).toEqual(["Lovely, written offline"]);
  });

  it("a flapping network still applies each message once, in order; a refused comment shows why and can be discarded", async () => {
    const { context, page } = await signedInPage(browser(), fan, undefined, { serviceWorkers: "allow" });
    await visitOnline(page, `/messages/${conversationId}`);
    await visitOnline(page, `/post/${doomedPostId}`);
    await page.goto(`/messages/${conversationId}`);
    await hydrated(page);
    const before = await threadTexts();

    await goOffline(context);
    const texts = Array.from({ length: 6 }, (_, i) => `Flap ${i + 1}`);
    for (const text of texts) {
      await page.getByTestId("composer-input").fill(text);
      await page.getByTestId("send-button").click();
      await page.locator('[data-outgoing="waiting"]').getByText(text).waitFor();
    }
    // A comment on a post its author deletes before the network comes back.
    await page.goto(`/post/${doomedPostId}`);
    await hydrated(page);
    await page.getByLabel("Write a comment").fill("Too late");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.getByTestId("comment-waiting").waitFor();
    await api(creator, "DELETE", `/posts/${doomedPostId}`);

    // Offline and online every 300 ms while the outbox is sent, then online for good.
    await page.goto(`/messages/${conversationId}`).catch(() => undefined);
    for (let flip = 0; flip < 12; flip++) {
      await context.setOffline(flip % 2 === 1);
      await page.waitForTimeout(300);
    }
    await context.setOffline(false);
    await page.reload();
    await hydrated(page);
    const failed = page.getByTestId("outbox-failed");
    await failed.waitFor({ timeout: 40_000 });
    expect(await failed.textContent()).toContain("Your comment could not be sent:");
    await expect.poll(() => page.getByTestId("outbox-pending").count(), { timeout: 40_000 }).toBe(0);
    expect((await threadTexts()).slice(before.length)).toEqual(texts);
    await failed.getByRole("button", { name: "Discard" }).click();
    await page.getByTestId("outbox-tray").waitFor({ state: "detached" });
  });

  it("where the browser refuses storage, says offline reading is off, and a like made offline still reaches the server while the tab stays open", async () => {
    const quietPostId = (
      (await api(creator, "POST", "/posts", {
        text: `Quiet hour ${tag}`,
        audience: "everyone",
        priceCents: 0,
        mediaIds: [],
      })) as { id: number }
    ).id;
    const { context, page } = await signedInPage(browser(), fan);
    // What private browsing in some browsers does: every IndexedDB database fails to open.
    await context.addInitScript(() => {
      IDBFactory.prototype.open = function () {
        const request = {
          result: undefined,
          error: new DOMException("IndexedDB is not available here.", "InvalidStateError"),
          onsuccess: null,
          onupgradeneeded: null,
          onerror: null as null | ((event: Event) => void),
        };
        setTimeout(() => request.onerror?.(new Event("error")));
        return request as unknown as IDBOpenDBRequest;
      };
    });
    await page.goto("/home");
    await hydrated(page);
    const card = page.locator(`[data-post-id="${quietPostId}"]`);
    await card.getByText(`Quiet hour ${tag}`).waitFor();
    expect(await page.getByTestId("offline-storage-off").textContent()).toContain(
      "Offline reading is off: this browser does not let Fanclub keep anything on this device.",
    );

    // The page has finished loading before the network goes.
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    await card.getByRole("button", { name: /Like/ }).click();
    await card.getByTestId("post-waiting").waitFor();
    expect(await page.getByTestId("outbox-pending").textContent()).toBe("1 action waits for the network.");
    expect(((await api(fan, "GET", `/posts/${quietPostId}`)) as { liked: boolean }).liked).toBe(false);

    await context.setOffline(false);
    await page.getByTestId("outbox-pending").waitFor({ state: "detached", timeout: 40_000 });
    expect((await api(fan, "GET", `/posts/${quietPostId}`)) as { liked: boolean; likeCount: number }).toMatchObject({
      liked: true,
      likeCount: 1,
    });
    expect(await card.getByRole("button", { name: /Like/ }).getAttribute("aria-pressed")).toBe("true");
  });
  it("a network back while the browser never noticed it gone is used at the server's first answer, not at the next timed try, and each action is applied once", async () => {
    const stillPostId = (
      (await api(creator, "POST", "/posts", {
        text: `Still online ${tag}`,
        audience: "everyone",
        priceCents: 0,
        mediaIds: [],
      })) as { id: number }
    ).id;
    // Two comments of the fan's to take back later: requests of the app's own that the server answers.
    const commentIds: number[] = [];
    for (const text of ["First thought", "Second thought"]) {
      commentIds.push(
        ((await api(fan, "POST", `/posts/${stillPostId}/comments`, { text })) as { comment: { id: number } }).comment
          .id,
      );
    }
    const { page } = await signedInPage(browser(), fan);
    // The requests that reach the server: counted where they leave the browser (the dead network, routed later,
    // takes precedence over this route while it is there).
    const applied = { like: 0, bookmark: 0 };
    await page.route(`**/api/posts/${stillPostId}/*`, (route) => {
      const { pathname } = new URL(route.request().url());
      if (route.request().method() === "POST" && pathname.endsWith("/like")) applied.like++;
      if (route.request().method() === "POST" && pathname.endsWith("/bookmark")) applied.bookmark++;
      return route.continue();
    });
    await page.clock.install();
    // The updates socket's opening is evidence that the network works: it comes before the network dies.
    const socketOpened = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/updates");
    await page.goto(`/post/${stillPostId}`);
    await hydrated(page);
    await socketOpened;
    // From here on the page's time moves only when the test moves it (never): no timed try can send anything.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
    // A network dead without the browser knowing (a dead Wi-Fi, a proxy dropping connections): every API request
    // fails while navigator.onLine stays true, so no "online" event will come.
    const dead = (route: Route) => route.abort("connectionreset");
    const actions = page.locator("[data-post-actions]");

    await page.route("**/api/**", dead);
    await actions.getByRole("button", { name: /Like/ }).click();
    await page.getByTestId("post-waiting").waitFor();
    expect(await page.getByTestId("outbox-pending").textContent()).toBe("1 action waits for the network.");
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    expect(((await api(fan, "GET", `/posts/${stillPostId}`)) as { liked: boolean }).liked).toBe(false);

    // The network is back; the fan takes a comment back, and the server's answer sends the like along.
    await page.unroute("**/api/**", dead);
    await deleteComment(page, commentIds[0]!);
    await page.getByTestId("outbox-pending").waitFor({ state: "detached", timeout: 20_000 });
    expect((await api(fan, "GET", `/posts/${stillPostId}`)) as { liked: boolean; likeCount: number }).toMatchObject({
      liked: true,
      likeCount: 1,
    });

    // Noticed twice at the same moment (the server's answer and the browser's online event): sent once.
    await page.route("**/api/**", dead);
    await actions.getByRole("button", { name: "Bookmark" }).click();
    await page.getByTestId("outbox-pending").waitFor();
    await page.unroute("**/api/**", dead);
    await Promise.all([
      deleteComment(page, commentIds[1]!),
      page.evaluate(() => window.dispatchEvent(new Event("online"))),
    ]);
    await page.getByTestId("outbox-pending").waitFor({ state: "detached", timeout: 20_000 });
    expect((await api(fan, "GET", `/posts/${stillPostId}`)) as { bookmarked: boolean }).toMatchObject({
      bookmarked: true,
    });
    expect(applied).toEqual({ like: 1, bookmark: 1 });
  });
  it("a request the dead network swallowed is given up as soon as the network is seen back: the like is sent again at once, and applied once", async () => {
    const { postId: hushPostId, commentId, page, isLike, answeredLikes } = await postOnHeldClock("Hush", "A thought");
    // The page's clock never reaches the outbox's 20 s timeout: the like can reach the server only by the request
    // being given up when the network is seen back.

    // The network dies without the browser knowing (navigator.onLine stays true): first requests fail at once, and
    // the like waits in the outbox. (One route throughout: unrouting would let the requests it holds through.)
    let network: "dead" | "swallowing" | "back" = "dead";
    const swallowed: Route[] = [];
    await page.route("**/api/**", async (route) => {
      if (network === "back") return route.continue();
      if (network === "dead") return route.abort("connectionreset");
      swallowed.push(route);
      // This one even reaches the server, and only its answer is lost (the worst case for "once").
      if (isLike(route.request())) await route.fetch();
    });
    await page.locator("[data-post-actions]").getByRole("button", { name: /Like/ }).click();
    await page.getByTestId("post-waiting").waitFor();
    expect(await page.getByTestId("outbox-pending").textContent()).toBe("1 action waits for the network.");
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);

    // Then it swallows requests: no answer, no error. The outbox's next try sends the like into it.
    network = "swallowing";
    await page.clock.runFor(1_000);
    await expect
      .poll(async () => ((await api(fan, "GET", `/posts/${hushPostId}`)) as { liked: boolean }).liked)
      .toBe(true);
    // The like's request has waited a while (page time) when the network comes back.
    await page.clock.runFor(1_000);
    expect(await page.getByTestId("outbox-pending").textContent()).toBe("1 action waits for the network.");

    // The network is back; the fan deletes a comment, and the server's answer has the like sent again at once.
    network = "back";
    await deleteComment(page, commentId);
    await likedOnce(page, hushPostId, answeredLikes);
    expect(
      await page.locator("[data-post-actions]").getByRole("button", { name: /Like/ }).getAttribute("aria-pressed"),
    ).toBe("true");
    expect(swallowed.filter((route) => isLike(route.request()))).toHaveLength(1);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
  it("a like whose own first request the network swallows is kept in the outbox after a bound, and applied once when the network is back", async () => {
    const {
      postId: mutePostId,
      commentId,
      page,
      isLike,
      answeredLikes,
    } = await postOnHeldClock("Mute", "A quiet thought");
    // The screen's own first request's bound (FIRST_TRY_TIMEOUT_MS in app/lib/outbox.ts).
    const FIRST_TRY_TIMEOUT_MS = 8_000;

    // The network swallows every request (no answer, no error) while navigator.onLine stays true.
    let swallowing = true;
    const held: Route[] = [];
    await page.route("**/api/**", (route) => (swallowing ? void held.push(route) : route.continue()));
    const likeButton = page.locator("[data-post-actions]").getByRole("button", { name: /Like/ });
    await likeButton.click();
    await expect.poll(() => held.filter((route) => isLike(route.request())).length).toBe(1);
    expect(await page.getByTestId("outbox-pending").count()).toBe(0);

    // The screen's own request gets a bound: past it, the like waits in the outbox, shown as waiting.
    await page.clock.runFor(FIRST_TRY_TIMEOUT_MS);
    await page.getByTestId("post-waiting").waitFor();
    expect(await page.getByTestId("outbox-pending").textContent()).toBe("1 action waits for the network.");
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    expect(await likeButton.getAttribute("aria-pressed")).toBe("true");

    // The outbox's own try is swallowed too; once it has waited a second, the network comes back and the fan
    // deletes a comment: the server's answer has the like sent again at once.
    await page.clock.runFor(1_000);
    swallowing = false;
    await deleteComment(page, commentId);
    await likedOnce(page, mutePostId, answeredLikes);
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
});
