import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page, Response } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  recordFormattersBuilt,
  seriousViolations,
  signedInPage,
  sql,
  unique,
  within,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let fan: Account;
let creator: Account;
let tag: string;
const secretKey = `posts/${randomUUID().replace(/-/g, "")}.png`;

const idOf = (username: string) => `(SELECT id FROM users WHERE username = '${username}')`;

/** A published post by the creator, straight into D1 (published now, so it is newer than any /home visit). */
const insertPost = (text: string, audience = "everyone") =>
  `INSERT INTO posts (user_id, text, audience, status, published_at, created_at)
   VALUES (${idOf(creator.username)}, '${text}', '${audience}', 'published', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));`;

async function apiAs<T>(token: string, path: string): Promise<T> {
  const response = await fetchWithin(`${baseURL()}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return (await response.json()) as T;
}

const card = (page: Page, text: string) => page.locator("article", { hasText: text });

/**
 * The creator publishes `text` through the API while the fan reads /home in `page`: its announcement pushes
 * NewUpdate to the fan's channel, and the post waits behind "Show 1 new post" (the button, once shown).
 */
async function publishedWhileReading(page: Page, text: string) {
  const published = await fetchWithin(`${baseURL()}/api/posts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${creator.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ text, audience: "everyone" }),
  });
  expect(published.status).toBe(201);
  const show = page.getByRole("button", { name: "Show 1 new post" });
  await show.waitFor({ timeout: 15_000 });
  return show;
}

/** The parts of a React fiber that `renderProbe` reads. */
interface Fiber {
  tag: number;
  type: unknown;
  flags: number;
  memoizedProps: Record<string, unknown> | null;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  return: Fiber | null;
}

/**
 * Put in the page before React loads: React DOM (production builds too) reports every commit to a DevTools hook,
 * and this one records, per commit, the id of each post whose card rendered in it (`window.__postRenders`). It
 * walks only what the commit changed, as React's DevTools do (a subtree React skipped keeps its child fibers), and
 * counts a card when the component drawing its `<article data-post-id>` did work (PerformedWork, flag 1). Any
 * component inside a card that did work (a button with state of its own, the card itself) is recorded too, in
 * `window.__postPartRenders`. Mounted cards (a new post shown) are not counted: only renders of cards already there.
 */
function renderProbe() {
  const page = window as unknown as {
    __postRenders: number[];
    __postPartRenders: number[];
    __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown;
  };
  page.__postRenders = [];
  page.__postPartRenders = [];
  // Function, class, forwardRef and memo components: the fibers that run the app's code.
  const components = new Set([0, 1, 11, 14, 15]);
  const visit = (next: Fiber, previous: Fiber, inPost: number | undefined) => {
    const id = next.tag === 5 && next.type === "article" ? next.memoizedProps?.["data-post-id"] : undefined;
    if (id !== undefined && next.return && (next.return.flags & 1) === 1) page.__postRenders.push(Number(id));
    const post = id !== undefined ? Number(id) : inPost;
    if (post !== undefined && components.has(next.tag) && (next.flags & 1) === 1) page.__postPartRenders.push(post);
    if (next.child === previous.child) return;
    for (let child = next.child; child; child = child.sibling) if (child.alternate) visit(child, child.alternate, post);
  };
  page.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    inject: () => 1,
    onCommitFiberRoot: (_renderer: number, root: { current: Fiber }) => {
      if (root.current.alternate) visit(root.current, root.current.alternate, undefined);
    },
    onCommitFiberUnmount: () => {},
  };
}

beforeAll(async () => {
  tag = `tl${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan`, name: "Tim Fan" });
  creator = await createAccount({ username: `${tag}_star`, name: "Tara Creator" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, message_price_cents = 300 WHERE username = '${creator.username}';
     INSERT INTO follows (follower_id, creator_id, created_at) VALUES (${idOf(fan.username)}, ${idOf(creator.username)}, '2026-01-01T00:00:00.000Z');
     ${insertPost(`Paid set ${tag}`)}
     UPDATE posts SET price_cents = 700 WHERE text = 'Paid set ${tag}';
     ${insertPost(`Hello from ${tag}`)}
     ${insertPost(`Secret for subscribers ${tag}`, "subscribers")}
     INSERT INTO media (user_id, kind, status, object_key, preview_key, content_type, size_bytes, created_at)
       SELECT user_id, 'image', 'ready', '${secretKey}', NULL, 'image/png', 8, created_at
       FROM posts WHERE text = 'Secret for subscribers ${tag}';
     INSERT INTO post_media (post_id, media_id, position)
       SELECT p.id, m.id, 0 FROM posts p, media m WHERE p.text = 'Secret for subscribers ${tag}' AND m.object_key = '${secretKey}';`,
  );
});

describe("the home timeline", () => {
  it("a fan sees a followed creator's post, likes it, comments, bookmarks it, and gets new posts on demand", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await page.goto("/home");
    await hydrated(page);
    const post = card(page, `Hello from ${tag}`);
    await post.waitFor();
    expect(await page.getByText(`Secret for subscribers ${tag}`).count()).toBe(0);

    // Like: shown at once, kept by the server.
    const like = post.getByRole("button", { name: "Like" });
    expect(await like.getAttribute("aria-pressed")).toBe("false");
    // The icons are drawn by the stylesheet (.post-action in app/tailwind.css): an outline, filled once pressed.
    const heart = like.locator("svg path");
    const drawn = () =>
      heart.evaluate((path) => ({
        fill: getComputedStyle(path).fill,
        stroke: getComputedStyle(path).stroke,
        width: path.closest("svg")!.getBoundingClientRect().width,
      }));
    const color = await like.evaluate((button) => getComputedStyle(button).color);
    expect(await drawn()).toEqual({ fill: "none", stroke: color, width: 20 });
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
    const pressedColor = await like.evaluate((button) => getComputedStyle(button).color);
    expect(pressedColor).not.toBe(color);
    expect(await drawn()).toEqual({ fill: pressedColor, stroke: pressedColor, width: 20 });
    expect(await post.locator("[data-like-count]").textContent()).toBe("1");
    const { posts } = await apiAs<{ posts: { id: number; text: string; liked: boolean }[] }>(fan.token, "/timeline");
    const hello = posts.find((p) => p.text === `Hello from ${tag}`)!;
    await expect.poll(async () => (await apiAs<{ liked: boolean }>(fan.token, `/posts/${hello.id}`)).liked).toBe(true);

    // Bookmark, then it is on /bookmarks.
    const bookmark = post.getByRole("button", { name: "Bookmark" });
    await bookmark.click();
    await expect.poll(() => bookmark.getAttribute("aria-pressed")).toBe("true");
    await expect
      .poll(async () => (await apiAs<{ bookmarked: boolean }>(fan.token, `/posts/${hello.id}`)).bookmarked)
      .toBe(true);

    // Comment on /post/{id}.
    await post.getByRole("link", { name: "Comments" }).click();
    await page.waitForURL(`**/post/${hello.id}#comments`);
    await hydrated(page);
    await page.getByLabel("Write a comment").fill("What a view!");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    await page.locator("[data-comments]").getByText("What a view!").waitFor();
    await page.reload();
    await hydrated(page);
    await page.locator("[data-comments]").getByText("What a view!").waitFor();

    await page.goto("/bookmarks");
    await hydrated(page);
    await card(page, `Hello from ${tag}`).waitFor();

    // While the fan reads /home, the creator posts: held behind "Show 1 new post", then moved to the top.
    await page.goto("/home");
    await hydrated(page);
    await card(page, `Hello from ${tag}`).waitFor();
    const show = await publishedWhileReading(page, `Fresh news ${tag}`);
    expect(await page.getByText(`Fresh news ${tag}`).count()).toBe(0);
    await show.click();
    await expect
      .poll(() => page.locator("[data-post-list] article").first().textContent())
      .toContain(`Fresh news ${tag}`);
    expect(await show.count()).toBe(0);
    await context.close();
  });

  it("a change renders again only the post it concerns: nothing after the hydration, new posts announced and shown, the Home dot cleared, a like", async () => {
    // A returning reader, whose zone the server knows: its times need no switch to local time once the page is idle.
    const { page, context } = await signedInPage(browser(), fan, undefined, { timezoneId: "Europe/Paris" });
    await context.addCookies([{ name: "tz", value: "Europe/Paris", url: baseURL() }]);
    await context.addInitScript(renderProbe);
    // The posts whose cards rendered since the last call, and those with any part rendered (the card or inside it).
    const renders = () =>
      page.evaluate(() => {
        const probe = window as unknown as { __postRenders: number[]; __postPartRenders: number[] };
        return { cards: probe.__postRenders.splice(0), parts: [...new Set(probe.__postPartRenders.splice(0))] };
      });
    const seen = () => page.waitForResponse((response) => response.url().endsWith("/api/home/seen"));
    const firstSeen = seen();
    // The routes of the page's links, which Remix fetches once the page has hydrated (lazy route discovery).
    const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");
    await page.goto("/home");
    await hydrated(page);
    await card(page, `Hello from ${tag}`).waitFor();
    await firstSeen;
    await discovered;
    // Until the page is idle: whatever React was to render after those answers has been rendered.
    await within(
      page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve))),
      "the page to be idle (requestIdleCallback)",
    );
    // The routes discovered render the page once more (Remix's router.patchRoutes; see
    // docs/decisions/no-patched-dependencies.md): from here on, nothing renders a post but a change of that post.
    await renders();
    const shown = Number(await page.locator("[data-post-list] article").count());
    expect(shown).toBeGreaterThan(1);
    // The feed has a tip button on each post and an unlock button on the paid one (each with a payment attempt of
    // its own): nothing in any post renders again for the Home dot's clearing (the probe sees renders at all: a
    // like, below, is one).
    await card(page, `Paid set ${tag}`)
      .getByRole("button", { name: /^Unlock for/ })
      .waitFor();
    expect(await page.locator("[data-post-list]").getByRole("button", { name: "Send a tip" }).count()).toBeGreaterThan(
      0,
    );
    expect(await renders()).toEqual({ cards: [], parts: [] });

    // A new post lights the Home dot (the summary changes, Home renders) and waits behind "Show 1 new post".
    const show = await publishedWhileReading(page, `Quiet news ${tag}`);
    expect(await renders()).toEqual({ cards: [], parts: [] });

    // Shown at the top (a mount), and the dot cleared again: the posts that were there do not render again.
    const clearedAgain = seen();
    await show.click();
    await expect
      .poll(() => page.locator("[data-post-list] article").first().textContent())
      .toContain(`Quiet news ${tag}`);
    await clearedAgain;
    expect(await renders()).toEqual({ cards: [], parts: [] });

    // A like (or an unlike: the first test liked this post) renders its post, and only it.
    const hello = card(page, `Hello from ${tag}`);
    const helloId = Number(await hello.getAttribute("data-post-id"));
    const like = hello.getByRole("button", { name: "Like" });
    const liked = (await like.getAttribute("aria-pressed")) !== "true";
    await like.click();
    await expect.poll(() => like.getAttribute("aria-pressed")).toBe(String(liked));
    await expect.poll(async () => (await apiAs<{ liked: boolean }>(fan.token, `/posts/${helloId}`)).liked).toBe(liked);
    const rendered = await renders();
    expect(rendered.cards.length).toBeGreaterThan(0);
    expect(new Set(rendered.cards)).toEqual(new Set([helloId]));
    expect(rendered.parts).toEqual([helloId]);
    await context.close();
  });

  it("every script of a first /home, and every chunk loaded later, opens with V8's compile hint (its functions compiled off the main thread)", async () => {
    const hint = "//# allFunctionsCalledOnLoad\n";
    const { page, context } = await signedInPage(browser(), fan);
    const scripts: Promise<[string, string]>[] = [];
    const keep = (response: Response) => {
      if (response.request().resourceType() === "script")
        scripts.push(response.text().then((body) => [new URL(response.url()).pathname, body]));
    };
    page.on("response", keep);
    await page.goto("/home");
    await hydrated(page);
    await card(page, `Hello from ${tag}`).waitFor();
    // A script answered after this point would be read after the page closes: its body is not asked for.
    page.off("response", keep);
    const served = await Promise.all(scripts);
    // The entry, React's and the router's chunk, the root's and the shell's and Home's route modules at least.
    expect(served.length).toBeGreaterThanOrEqual(4);
    // V8 reads the hint only as the script's first line: nothing may come before it, nor after it on its line.
    expect(served.filter(([, body]) => !body.startsWith(hint)).map(([path]) => path)).toEqual([]);
    // Every chunk of the build, those loaded on demand (a dialog, chat, live) too; not Remix's manifest file, which
    // the build writes afterwards and no page loads (the page's manifest is inline, the rest comes from /__manifest).
    const chunks = readdirSync("build/client/assets").filter(
      (file) => file.endsWith(".js") && !/^manifest-[0-9a-f]+\.js$/.test(file),
    );
    expect(chunks.length).toBeGreaterThan(served.length);
    expect(chunks.filter((file) => !readFileSync(join("build/client/assets", file), "utf8").startsWith(hint))).toEqual(
      [],
    );
    await context.close();
  });

  it("dates: local after hydration (no formatter built: the zone from Temporal, the text from the page's patterns), then rendered by the server in the zone the browser named; an unknown zone is UTC; no formatter built while hydrating a feed or a profile", async () => {
    const { page, context } = await signedInPage(browser(), fan, undefined, { timezoneId: "Asia/Tokyo" });
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    const time = card(page, `Hello from ${tag}`).locator("time").first();
    // First visit: the server knows no zone yet and says UTC; the browser switches to Tokyo and names its zone,
    // without building a formatter (a browser's first one loads ICU's data, a long task on a phone).
    const first = await (await page.request.get("/home")).text();
    expect(first).toMatch(/UTC<\/time>/);
    const formattersBuilt = await recordFormattersBuilt(page);
    await page.goto("/home");
    await hydrated(page);
    await expect.poll(() => time.textContent()).not.toContain("UTC");
    const tokyo = await time.textContent();
    await expect
      .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "tz")?.value)
      .toBe("Asia/Tokyo");
    expect(await formattersBuilt()).toEqual([]);

    // Next page: the server renders Tokyo time itself, the very text the browser wrote with the page's pattern,
    // and hydration agrees.
    const html = await (await page.request.get("/home")).text();
    expect(html).toContain(`>${tokyo}</time>`);
    expect(html).not.toMatch(/UTC<\/time>/);
    // The hydration builds no date or currency formatter: it keeps the server's texts, the dates and the paid
    // post's price.
    await page.reload();
    await hydrated(page);
    expect(await time.textContent()).toBe(tokyo);
    const paid = card(page, `Paid set ${tag}`);
    await paid.getByText("Unlock this post for $7.00.").waitFor();
    expect(await formattersBuilt()).toEqual([]);
    expect(await time.textContent()).toBe(tokyo);
    // The unlock button kept the server's label too.
    expect(await paid.getByRole("button", { name: "Unlock for $7.00" }).count()).toBe(1);
    expect(problems.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);

    // The creator's profile, loaded as a document: its per-message price and the paid post's are the server's too.
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByText("Messages cost $3.00 each.").waitFor();
    await card(page, `Paid set ${tag}`).getByText("Unlock this post for $7.00.").waitFor();
    expect(await formattersBuilt()).toEqual([]);
    expect(problems.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);

    // A zone nobody has (or anything else in the cookie) is ignored: UTC again, no error.
    await context.addCookies([{ name: "tz", value: "Mars/Olympus_Mons", url: baseURL() }]);
    const unknown = await page.request.get("/home");
    expect(unknown.status()).toBe(200);
    expect(await unknown.text()).toMatch(/UTC<\/time>/);
    // A reader whose zone is UTC itself reads times as any reader in their own zone does: not marked.
    await context.addCookies([{ name: "tz", value: "UTC", url: baseURL() }]);
    const utc = await (await page.request.get("/home")).text();
    expect(utc).toMatch(/<time [^>]*>[^<]*\d{1,2}:\d{2}\s?[AP]M<\/time>/);
    expect(utc).not.toMatch(/UTC<\/time>/);
    await context.close();
  });

  it("dates in a browser without Temporal: the zone learnt with Intl once the page is idle, the same local text", async () => {
    const { page, context } = await signedInPage(browser(), fan, undefined, { timezoneId: "Asia/Tokyo" });
    await page.addInitScript(() => delete (globalThis as { Temporal?: unknown }).Temporal);
    const formattersBuilt = await recordFormattersBuilt(page);
    await page.goto("/home");
    await hydrated(page);
    const time = card(page, `Hello from ${tag}`).locator("time").first();
    await expect.poll(() => time.textContent()).not.toContain("UTC");
    await expect
      .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "tz")?.value)
      .toBe("Asia/Tokyo");
    // The one formatter: the zone's check, after the hydration; the dates themselves are the pattern's.
    expect(await formattersBuilt()).toEqual(["DateTimeFormat after"]);
    const html = await (await page.request.get("/home")).text();
    expect(html).toContain(`>${await time.textContent()}</time>`);
    await context.close();
  });

  it("the feed, with open and locked cards, and a post with comments pass axe in light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const { page, context } = await signedInPage(browser(), fan, { width: 1440, height: 900 }, { colorScheme });
      await page.goto("/home");
      await hydrated(page);
      await card(page, `Hello from ${tag}`).waitFor();
      await card(page, `Paid set ${tag}`).getByText("Unlock this post for $7.00.").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const id = await card(page, `Hello from ${tag}`).getAttribute("data-post-id");
      await page.goto(`/post/${id}`);
      await hydrated(page);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it("a locked post's page shows no media key and no text in its link preview; an open one describes itself", async () => {
    const { posts } = await apiAs<{ posts: { id: number; text: string }[] }>(creator.token, "/timeline");
    const secret = posts.find((p) => p.text === `Secret for subscribers ${tag}`)!;
    const html = await (await fetchWithin(`${baseURL()}/post/${secret.id}`)).text();
    expect(html).toContain(`Secret for subscribers ${tag}`);
    expect(html).not.toContain(secretKey);
    expect(html).not.toMatch(/og:description/);
    expect(html).not.toMatch(/og:image/);
    const hello = posts.find((p) => p.text === `Hello from ${tag}`)!;
    const open = await (await fetchWithin(`${baseURL()}/post/${hello.id}`)).text();
    expect(open).toMatch(new RegExp(`<meta property="og:description" content="Hello from ${tag}"`));
    expect(open).toMatch(new RegExp(`<meta property="og:url" content="${baseURL()}/post/${hello.id}"`));
    const missing = await fetchWithin(`${baseURL()}/post/99999999`);
    expect(missing.status).toBe(404);
  });
});
