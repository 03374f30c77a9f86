import { beforeAll, describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

/** A phone in portrait: no right column, the bottom bar. */
const PHONE = { width: 390, height: 844 };

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let tag: string;

beforeAll(async () => {
  tag = `dc${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}.lens`, name: "Lena Lens" });
  // The most followed creator of this server, so she is among the five suggestions whatever other files made.
  await sql(`UPDATE users SET role = 'creator', follower_count = 1000000 WHERE username = '${creator.username}'`);
  const posted = await fetchWithin(`${baseURL()}/api/posts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${creator.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ text: `first light ${tag}`, audience: "everyone", priceCents: 0, mediaIds: [] }),
  });
  expect(posted.status).toBe(201);
});

describe("a new fan on a phone finds creators", () => {
  it("sees suggestions on the empty home feed, follows one there, and gets her posts", async () => {
    const fan = await createAccount();
    const { page, context } = await signedInPage(browser(), fan, PHONE);
    await page.goto("/home");
    await page.getByRole("heading", { name: "Your feed is empty" }).waitFor();
    const suggestions = page.locator('[data-shell="content"] [data-suggestions]');
    expect(await suggestions.isVisible()).toBe(true);
    await hydrated(page);

    const follow = suggestions.getByRole("button", { name: "Follow Lena Lens" });
    expect(await follow.getAttribute("aria-pressed")).toBe("false");
    await follow.click();
    // Her post fills the feed at once, in place of the empty state and its suggestions.
    await page.locator("[data-post-list] > li").first().getByText(`first light ${tag}`).waitFor();
    expect(await suggestions.count()).toBe(0);

    // The server agrees: the fan follows her, so her post is in the next server render of the feed.
    const home = await (await context.request.get("/home")).text();
    expect(home).toContain(`first light ${tag}`);
    await context.close();
  });

  it("sees suggestions on /search before typing, and the search results instead once a term is typed", async () => {
    const fan = await createAccount();
    const { page, context } = await signedInPage(browser(), fan, PHONE);
    await page.goto("/search");
    const suggestions = page.locator('[data-shell="content"] [data-suggestions]');
    await suggestions.getByRole("link", { name: /Lena Lens/ }).waitFor();
    expect(await suggestions.getByRole("link", { name: /Lena Lens/ }).getAttribute("href")).toBe(
      `/${creator.username}`,
    );
    await hydrated(page);
    await page.getByRole("searchbox", { name: "Search users" }).fill(tag);
    // Each result is the person's name with the handle under it.
    const result = page
      .getByRole("list", { name: "Search results" })
      .getByRole("link", { name: `Lena Lens @${creator.username}`, exact: true });
    await result.waitFor();
    const [name, handle] = [
      (await result.getByText("Lena Lens").boundingBox())!,
      (await result.getByText(`@${creator.username}`).boundingBox())!,
    ];
    expect(name.width).toBeGreaterThan(0);
    expect(handle.y).toBeGreaterThanOrEqual(name.y + name.height - 1);
    expect(await suggestions.count()).toBe(0);

    // A link with the term searches it at once.
    await page.goto(`/search?q=${tag}`);
    await page
      .getByRole("list", { name: "Search results" })
      .getByRole("link", { name: `@${creator.username}` })
      .waitFor();
    expect(await page.getByRole("searchbox", { name: "Search users" }).inputValue()).toBe(tag);
    await context.close();
  });
});
