import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiAs as api,
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  seriousViolations,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fan: Account;
let tag: string;

/** A creator in New York: the schedule field is in their zone, the server stores UTC. */
const CREATOR_ZONE = "America/New_York";

beforeAll(async () => {
  tag = `po${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}.maker`, name: "Paula Poster" });
  fan = await createAccount({ username: `${tag}_fan`, name: "Fay Fan" });
  await sql(`UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}'`);
});

/** signedInPage, in the creator's time zone. */
async function creatorPage(b: Browser) {
  return signedInPage(b, creator, undefined, { timezoneId: CREATOR_ZONE });
}

const composer = (page: Page) => page.getByRole("form", { name: "New post" });

async function apiAs<T>(account: Account, path: string): Promise<T> {
  const response = await fetchWithin(`${baseURL()}/api${path}`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** The wall-clock minute `ms` from now in `zone`, as a datetime-local value, and that instant in UTC. */
function minuteAheadIn(zone: string, ms: number) {
  const at = new Date(Math.floor((Date.now() + ms) / 60_000) * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { local: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`, iso: at.toISOString() };
}

async function createPostAs(account: Account, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await fetchWithin(`${baseURL()}/api/posts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${account.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number };
}

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** Holds the page's upload parts (the file's bytes) until the returned function is called. */
async function holdUploadParts(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/uploads/*/parts/*", async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

describe("the composer", () => {
  it("refuses a post without an audience with the spec's message", async () => {
    const { page, context } = await creatorPage(browser());
    await page.goto("/home");
    await hydrated(page);
    await composer(page).getByRole("textbox", { name: "Post text" }).fill(`no audience ${tag}`);
    await composer(page).getByRole("button", { name: "Post now" }).click();
    const error = composer(page).getByRole("alert").filter({ hasText: "Who can see field is required!" });
    await error.waitFor();
    const audience = composer(page).getByRole("combobox", { name: "Who can see" });
    expect(await audience.getAttribute("aria-invalid")).toBe("true");

    // Choosing an audience answers the message: it goes, before anything is sent again.
    await audience.selectOption("followers");
    await expect.poll(() => error.count()).toBe(0);
    expect(await audience.getAttribute("aria-invalid")).toBeNull();
    await context.close();
  });

  it("posts a photo: the upload shows a progress bar, then the post is published with it", async () => {
    const { page, context } = await creatorPage(browser());
    // The file's bytes wait until the bar has been seen: on a fast loopback the whole upload can take less time
    // than one look at the page, and the bar would be gone before the test saw it.
    const releaseParts = await holdUploadParts(page);
    await page.goto("/home");
    await hydrated(page);
    await composer(page).getByRole("textbox", { name: "Post text" }).fill(`photo post ${tag}`);
    await page
      .locator('[data-testid="composer-files"]')
      .setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
    const progress = composer(page).getByRole("progressbar", { name: "Uploading dot.png" });
    await progress.waitFor();
    releaseParts();
    await composer(page).locator('[data-upload-state="ready"]').waitFor();
    // Done, it says so (not "Uploading … 100%").
    const done = composer(page).getByRole("progressbar", { name: "dot.png uploaded" });
    expect(await done.getAttribute("aria-valuenow")).toBe("100");
    expect(await progress.count()).toBe(0);
    expect(await composer(page).locator('[data-upload-state="ready"]').textContent()).not.toContain("%");

    await composer(page).getByRole("combobox", { name: "Who can see" }).selectOption("everyone");
    await composer(page).getByRole("button", { name: "Post now" }).click();
    await composer(page).getByText("Your post is published.").waitFor();
    // The timeline shows it first at once.
    await page.locator("[data-post-list] > li").first().getByText(`photo post ${tag}`).waitFor();
    await composer(page).getByRole("link", { name: "View post" }).click();
    await page.waitForURL(/\/post\/\d+$/);
    await page.getByText(`photo post ${tag}`).waitFor();
    const image = page.locator('article img[src^="/media/posts/"]');
    await expect.poll(() => image.count()).toBe(1);
    await context.close();
  });

  it("posting while a file still uploads makes a processing post that the upload then publishes", async () => {
    const { page, context } = await creatorPage(browser());
    // Hold the file's bytes back until the post is on its way.
    const releaseParts = await holdUploadParts(page);
    await page.goto("/home");
    await hydrated(page);
    const text = `processing post ${tag}`;
    await composer(page).getByRole("textbox", { name: "Post text" }).fill(text);
    await page
      .locator('[data-testid="composer-files"]')
      .setInputFiles({ name: "slow.png", mimeType: "image/png", buffer: PNG });
    await composer(page).getByRole("progressbar", { name: "Uploading slow.png" }).waitFor();
    await composer(page).getByRole("combobox", { name: "Who can see" }).selectOption("everyone");
    await composer(page).getByRole("button", { name: "Post now" }).click();
    await composer(page).getByText("Your post will be published when its uploads finish.", { exact: false }).waitFor();

    const { posts } = await apiAs<{ posts: { id: number; text: string; uploads: { status: string }[] }[] }>(
      creator,
      "/posts/processing",
    );
    const post = posts.find((p) => p.text === text)!;
    expect(post.uploads).toEqual([expect.objectContaining({ status: "uploading" })]);

    releaseParts();
    await expect
      .poll(
        async () =>
          (await apiAs<{ posts: { id: number }[] }>(creator, "/posts/processing")).posts.some((p) => p.id === post.id),
        { timeout: 15_000 },
      )
      .toBe(false);
    const visitor = await fetchWithin(`${baseURL()}/post/${post.id}`);
    expect(visitor.status).toBe(200);
    expect(await visitor.text()).toContain(text);
    await context.close();
  });

  it("schedules a post in the creator's time zone; the cron handler publishes it", async () => {
    const { page, context } = await creatorPage(browser());
    await page.goto("/home");
    await hydrated(page);
    const text = `scheduled post ${tag}`;
    const when = minuteAheadIn(CREATOR_ZONE, 2 * 60_000);
    await composer(page).getByRole("textbox", { name: "Post text" }).fill(text);
    await composer(page).getByRole("combobox", { name: "Who can see" }).selectOption("everyone");
    await composer(page).getByRole("radio", { name: "Schedule" }).check();
    await composer(page).getByText(`Time zone: ${CREATOR_ZONE}`).waitFor();
    await composer(page).getByLabel("Publish on").fill(when.local);
    await composer(page).getByRole("button", { name: "Schedule" }).click();
    await composer(page).getByText("Your post is scheduled.").waitFor();

    const { posts } = await apiAs<{ posts: { id: number; text: string; scheduledAt: string }[] }>(
      creator,
      "/posts/scheduled",
    );
    const post = posts.find((p) => p.text === text)!;
    expect(post.scheduledAt).toBe(when.iso);

    await page.goto("/scheduled");
    await hydrated(page);
    await page.getByText(text).waitFor();
    const fanView = await signedInPage(browser(), fan);
    expect((await fanView.page.goto(`/post/${post.id}`))!.status()).toBe(404);

    await sql(`UPDATE posts SET scheduled_at = '2000-01-01T00:00:00.000Z' WHERE id = ${post.id}`);
    expect((await context.request.get("/__scheduled")).status()).toBe(200);
    // The handler's work runs in waitUntil: the answer may come first.
    await expect
      .poll(async () => (await fanView.context.request.get(`/post/${post.id}`)).status(), { timeout: 10_000 })
      .toBe(200);

    await page.reload();
    await hydrated(page);
    await page.getByText("Nothing scheduled").waitFor();
    expect(await page.getByText(text).count()).toBe(0);
    expect((await fanView.page.goto(`/post/${post.id}`))!.status()).toBe(200);
    await fanView.page.getByText(text).waitFor();
    await fanView.context.close();
    await context.close();
  });
});

describe("the post menu on /home", () => {
  it("edits an own post in place (marked edited) and deletes it after confirming", async () => {
    const post = await createPostAs(creator, { text: `menu post ${tag}`, audience: "subscribers", priceCents: 450 });
    // Its author sees who sees it and its price; a fan sees the lock instead.
    const fanView = await signedInPage(browser(), fan);
    await fanView.page.goto(`/post/${post.id}`);
    await fanView.page.locator(`[data-post-id="${post.id}"]`).getByText("Subscribe to see this post.").waitFor();
    expect(await fanView.page.locator("[data-own-terms]").count()).toBe(0);
    await fanView.context.close();
    const { page, context } = await creatorPage(browser());
    await page.goto("/home");
    await hydrated(page);
    const card = page.locator(`[data-post-id="${post.id}"]`);
    await expect
      .poll(() => card.getByRole("list", { name: "Who can see it" }).getByRole("listitem").allTextContents())
      .toEqual(["Subscribers", "Price $4.50"]);
    await card.getByRole("button", { name: "Post options" }).click();
    await card.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit post" });
    await dialog.getByRole("textbox", { name: "Post text" }).fill(`menu post edited ${tag}`);
    await dialog.getByRole("button", { name: "Save" }).click();
    await card.getByText(`menu post edited ${tag}`).waitFor();
    await card.getByText("· edited").waitFor();

    await card.getByRole("button", { name: "Post options" }).click();
    page.once("dialog", (confirm) => void confirm.accept());
    await card.getByRole("menuitem", { name: "Delete" }).click();
    await expect.poll(() => card.count()).toBe(0);
    expect((await fetchWithin(`${baseURL()}/post/${post.id}`)).status).toBe(404);
    await context.close();
  });
});

describe("an own post on a phone", () => {
  it("keeps the author's avatar and name readable beside the audience, the price and the menu, left to right and right to left", async () => {
    const text = `Subscribers only ${tag}`;
    await api(creator, "POST", "/posts", { text, audience: "subscribers", priceCents: 1250, mediaIds: [] });
    const { page, context } = await signedInPage(browser(), creator, { width: 390, height: 844 });
    for (const language of ["en", "ar"]) {
      await context.addCookies([{ name: "i18nextLng", value: language, url: baseURL() }]);
      await page.goto("/home");
      await hydrated(page);
      const post = page.locator("article", { hasText: text });
      await post.locator("[data-own-terms]").waitFor();
      const name = (await post.getByText("Paula Poster", { exact: true }).boundingBox())!;
      const avatar = (await post.locator("header a").first().locator("img, span[aria-hidden]").first().boundingBox())!;
      expect(name.width, `${language}: the name's width`).toBeGreaterThan(60);
      expect(avatar.width, `${language}: the avatar's width`).toBeGreaterThanOrEqual(39);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
  });
});

describe("the post menu on /post/{id}", () => {
  it("edits the post in place, and deleting it leads home; others have no menu", async () => {
    const post = await createPostAs(creator, { text: `page post ${tag}`, audience: "everyone" });
    const fanView = await signedInPage(browser(), fan);
    await fanView.page.goto(`/post/${post.id}`);
    await hydrated(fanView.page);
    await fanView.page.getByText(`page post ${tag}`).waitFor();
    expect(await fanView.page.getByRole("button", { name: "Post options" }).count()).toBe(0);
    await fanView.context.close();

    const { page, context } = await creatorPage(browser());
    await page.goto(`/post/${post.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Post options" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit post" });
    await dialog.getByRole("textbox", { name: "Post text" }).fill(`page post edited ${tag}`);
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.locator("article").getByText(`page post edited ${tag}`).waitFor();

    await page.getByRole("button", { name: "Post options" }).click();
    page.once("dialog", (confirm) => void confirm.accept());
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.waitForURL(/\/home$/);
    expect((await fetchWithin(`${baseURL()}/post/${post.id}`)).status).toBe(404);
    await context.close();
  });
});

describe("/scheduled", () => {
  it("edits a scheduled post, publishes one now and cancels another; every screen passes axe in light and dark", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const inTwoHours = new Date(Date.now() + 7_200_000).toISOString();
    const edited = await createPostAs(creator, { text: `to edit ${tag}`, audience: "everyone", scheduledAt: inAnHour });
    const cancelled = await createPostAs(creator, {
      text: `to cancel ${tag}`,
      audience: "followers",
      scheduledAt: inTwoHours,
    });
    const { page, context } = await creatorPage(browser());
    await page.goto("/scheduled");
    await hydrated(page);
    const item = (text: string) => page.getByRole("listitem").filter({ hasText: text });

    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: "light" });

    await item(`to edit ${tag}`).getByRole("button", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit post" });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("textbox", { name: "Post text" }).fill(`edited ${tag}`);
    await dialog.getByRole("combobox", { name: "Who can see" }).selectOption("subscribers");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await item(`edited ${tag}`).waitFor();

    page.once("dialog", (confirm) => void confirm.accept());
    await item(`to cancel ${tag}`).getByRole("button", { name: "Cancel post" }).click();
    await expect.poll(() => item(`to cancel ${tag}`).count()).toBe(0);

    await item(`edited ${tag}`).getByRole("button", { name: "Publish now" }).click();
    await page.getByText("Your post is published.").waitFor();
    await page.getByText("Nothing scheduled").waitFor();

    const published = await fetchWithin(`${baseURL()}/api/posts/scheduled`, {
      headers: { Authorization: `Bearer ${creator.token}` },
    });
    expect(((await published.json()) as { posts: unknown[] }).posts).toEqual([]);
    const asVisitor = await fetchWithin(`${baseURL()}/post/${edited.id}`);
    expect(asVisitor.status).toBe(200);
    expect(await asVisitor.text()).toContain(`edited ${tag}`);
    expect((await fetchWithin(`${baseURL()}/post/${cancelled.id}`)).status).toBe(404);
    await context.close();
  });

  it("/processing and the creator's /home pass axe", async () => {
    const { page, context } = await creatorPage(browser());
    for (const path of ["/processing", "/home"]) {
      await page.goto(path);
      await hydrated(page);
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        expect(await seriousViolations(page), `${path} ${colorScheme}`).toEqual([]);
      }
    }
    await context.close();
  });
});
