import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  newContext,
  newPage,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

const WIDE = { width: 1440, height: 900 };
const BETWEEN = { width: 1100, height: 900 };
const PHONE = { width: 375, height: 812 };

type Account = Awaited<ReturnType<typeof createAccount>>;
let member: Account;
let creator: Account;
let tag: string;

beforeAll(async () => {
  tag = `sh${unique().slice(-8)}`;
  member = await createAccount({ username: `${tag}_fan`, name: "Fran Member" });
  creator = await createAccount({ username: `${tag}.star`, name: "Stella Creator" });
  await sql(`UPDATE users SET role = 'creator' WHERE username = '${creator.username}'`);
});

const sidebar = (page: Page) => page.locator('[data-shell="sidebar"] nav');
const bottomBar = (page: Page) => page.locator("nav.fixed");
const entryNames = (page: Page) =>
  sidebar(page)
    .getByRole("link")
    .evaluateAll((links) => links.map((l) => l.textContent?.trim()));

describe("layout by width (spec §2)", () => {
  it("wide: labelled sidebar 2/12, content 7/12, right column 3/12; content 10/12 without a right column", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.goto("/home");
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const [side, content, right] = [
      await box('[data-shell="sidebar"]'),
      await box('[data-shell="content"]'),
      await box('[data-shell="right-column"]'),
    ];
    expect(side.width / 1440).toBeGreaterThan(0.13);
    expect(side.width / 1440).toBeLessThan(0.18);
    expect(content.width / 1440).toBeGreaterThan(0.52);
    expect(content.width / 1440).toBeLessThan(0.6);
    expect(right.width / 1440).toBeGreaterThan(0.2);
    expect(
      await sidebar(page).getByRole("link", { name: "Home" }).locator("span.sr-only, span").last().isVisible(),
    ).toBe(true);
    await expect.poll(() => bottomBar(page).isVisible()).toBe(false);

    await page.goto("/settings");
    expect(await page.locator('[data-shell="right-column"]').count()).toBe(0);
    expect((await box('[data-shell="content"]')).width / 1440).toBeGreaterThan(0.75);
    await context.close();
  });

  it("in between: icons only, with the label as a tooltip after 1000 ms", async () => {
    const { page, context } = await signedInPage(browser(), member, BETWEEN);
    await page.goto("/home");
    await hydrated(page);
    const home = sidebar(page).getByRole("link", { name: "Home" });
    const label = home.getByText("Home", { exact: true });
    expect((await label.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    await home.hover();
    await page.waitForTimeout(600);
    expect(await page.getByRole("tooltip").count()).toBe(0);
    await page.getByRole("tooltip", { name: "Home" }).waitFor({ timeout: 1500 });
    await page.mouse.move(700, 400);
    await expect.poll(() => page.getByRole("tooltip").count()).toBe(0);
    await context.close();
  });

  it("mobile: a bottom bar instead of the sidebar, hidden inside a conversation", async () => {
    await sql(`INSERT INTO conversations (id, user_low, user_high, created_at)
           SELECT 900001, MIN(id), MAX(id), '2026-01-01T00:00:00Z' FROM users WHERE username IN ('${member.username}', '${creator.username}');
         INSERT INTO conversation_members (conversation_id, user_id) SELECT 900001, id FROM users WHERE username IN ('${member.username}', '${creator.username}')`);
    const { page, context } = await signedInPage(browser(), member, PHONE);
    await page.goto("/home");
    expect(await page.locator('[data-shell="sidebar"]').isVisible()).toBe(false);
    expect(await bottomBar(page).isVisible()).toBe(true);
    expect(await bottomBar(page).getByRole("link", { name: "Messages" }).isVisible()).toBe(true);
    await page.goto("/messages/900001");
    // The thread, with the other member in its header.
    await page.getByText("Stella Creator").first().waitFor();
    expect(await bottomBar(page).count()).toBe(0);
    await page.goto("/messages");
    expect(await bottomBar(page).isVisible()).toBe(true);
    await hydrated(page);
    // The rest of the navigation is one tap away in the menu.
    await bottomBar(page).getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menu").waitFor();
    const items = await page.getByRole("menuitem").allTextContents();
    expect(items).toEqual([
      "Bookmarks",
      "Wallet",
      "Live Streams",
      "My Profile",
      "Settings",
      "Become a creator",
      "Logout",
    ]);
    await context.close();
  });

  it("the stylesheet comes inside the page: laid out without JavaScript, no second request, and still after hydrating and moving on", async () => {
    const sidebarShare = async (page: Page) =>
      ((await page.locator('[data-shell="sidebar"]').boundingBox())?.width ?? 0) / WIDE.width;
    const noScript = await newContext(browser(), { viewport: WIDE, javaScriptEnabled: false });
    expect(
      (await noScript.request.post("/api/login", { data: { login: member.email, password: member.password } })).ok(),
    ).toBe(true);
    const bare = await noScript.newPage();
    const stylesheets: string[] = [];
    bare.on("request", (request) => {
      if (request.resourceType() === "stylesheet") stylesheets.push(request.url());
    });
    await bare.goto("/home");
    expect(await sidebarShare(bare)).toBeGreaterThan(0.13);
    expect(await sidebarShare(bare)).toBeLessThan(0.18);
    expect(stylesheets).toEqual([]);
    await noScript.close();

    // With JavaScript: React takes over the same <style> (app/lib/inline-styles.ts reads it back); a client-side
    // move to another page keeps it.
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.goto("/home");
    await hydrated(page);
    expect(await sidebarShare(page)).toBeGreaterThan(0.13);
    await sidebar(page).getByRole("link", { name: "Bookmarks" }).click();
    await page.waitForURL(/\/bookmarks$/);
    expect(await page.locator("#app-styles").evaluate((style) => style.textContent?.length ?? 0)).toBeGreaterThan(
      10_000,
    );
    expect(await sidebarShare(page)).toBeGreaterThan(0.13);
    await context.close();
  });

  it("the page names its modules to preload in its HTML (Remix's <Scripts>), and then hydrates", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    // The browser can fetch the modules while it still reads the HTML, before the first paint.
    const html = await (await context.request.get("/home")).text();
    expect(html).toContain(`data-shell="sidebar"`);
    expect(html.match(/<link rel="modulepreload"[^>]*>/g)?.length ?? 0).toBeGreaterThan(3);
    await page.goto("/home");
    await hydrated(page);
    await context.close();
  });

  it("the utilities' default variables go only to the elements whose classes use them, and a focused field still draws its ring", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.goto("/settings");
    await hydrated(page);
    // Tailwind's universal defaults (`*, ::before, ::after { --tw-…: … }`) would give every element and both its
    // pseudo-elements some forty variables to compute: a fifth of a feed's style recalculation.
    const universal = await page.evaluate(() =>
      [...(document.getElementById("app-styles") as HTMLStyleElement).sheet!.cssRules]
        .filter(
          (rule): rule is CSSStyleRule => rule instanceof CSSStyleRule && /(^|,)\s*\*\s*(,|$)/.test(rule.selectorText),
        )
        .filter((rule) => [...rule.style].some((property) => property.startsWith("--tw-")))
        .map((rule) => rule.selectorText),
    );
    expect(universal).toEqual([]);
    // The field's focus ring (`.input`: focus:ring-2) is drawn from those defaults, given now through its class.
    const field = page.locator("input.input").first();
    const ring = () => field.evaluate((input) => getComputedStyle(input).boxShadow);
    expect(await ring()).toBe("none");
    await field.focus();
    expect(await ring()).toMatch(/rgba?\(.+\) 0px 0px 0px 2px/);
    await context.close();
  });
});

describe("navigation by role (spec §2, §6)", () => {
  it("a visitor sees only Home", async () => {
    const { page, context } = await newPage(browser(), WIDE);
    await page.goto(`/${creator.username}`);
    expect(await entryNames(page)).toEqual(["Home"]);
    expect(await page.getByRole("button", { name: "Account menu" }).count()).toBe(0);
    await context.close();
  });

  it("a member has Live Streams and, in the avatar menu, Become a creator", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.goto("/home");
    await hydrated(page);
    expect(await entryNames(page)).toEqual([
      "Home",
      "Search",
      "Notifications",
      "Bookmarks",
      "Messages",
      "Wallet",
      "Live Streams",
      "My Profile",
    ]);
    expect(await sidebar(page).getByRole("link", { name: "My Profile" }).getAttribute("href")).toBe(
      `/${member.username}`,
    );
    const menuButton = page.getByRole("button", { name: "Account menu" });
    await menuButton.click();
    await page.getByRole("menu").waitFor();
    expect(await page.getByRole("menuitem").allTextContents()).toEqual(["Settings", "Become a creator", "Logout"]);
    await expect.poll(() => menuButton.getAttribute("aria-expanded")).toBe("true");
    // Keyboard: the first item has focus, arrows move, Escape closes and gives focus back.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Settings");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Become a creator");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("menu").count()).toBe(0);
    await expect.poll(() => menuButton.getAttribute("aria-expanded")).toBe("false");
    expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it("a creator has Go Live and Dashboard instead", async () => {
    const { page, context } = await signedInPage(browser(), creator, WIDE);
    await page.goto("/home");
    await hydrated(page);
    expect(await entryNames(page)).toEqual([
      "Home",
      "Search",
      "Notifications",
      "Bookmarks",
      "Messages",
      "Wallet",
      "My Profile",
      "Dashboard",
      "Vault",
      "New post",
      "Go Live",
    ]);
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menu").waitFor();
    expect(await page.getByRole("menuitem").allTextContents()).toEqual(["Settings", "Dashboard", "Logout"]);
    await page.getByRole("menuitem", { name: "Dashboard" }).click();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await context.close();
  });

  it("a creator reaches the Dashboard and a new post from the sidebar, from any screen", async () => {
    const { page, context } = await signedInPage(browser(), creator, WIDE);
    await page.goto("/search");
    await hydrated(page);
    await sidebar(page).getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    // New post: Home's composer, ready to write in; Home stays the current page.
    await sidebar(page).getByRole("link", { name: "New post" }).click();
    await page.waitForURL("**/home#compose");
    const text = page.getByRole("form", { name: "New post" }).getByRole("textbox", { name: "Post text" });
    await expect.poll(() => text.evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await sidebar(page).getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page");
    expect(await sidebar(page).getByRole("link", { name: "New post" }).getAttribute("aria-current")).not.toBe("page");
    // On a phone, both are in the bottom bar's menu, the Dashboard once.
    await page.setViewportSize(PHONE);
    await bottomBar(page).getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menu").waitFor();
    expect(await page.getByRole("menuitem").allTextContents()).toEqual([
      "Bookmarks",
      "Wallet",
      "My Profile",
      "Dashboard",
      "Vault",
      "New post",
      "Go Live",
      "Settings",
      "Logout",
    ]);
    await context.close();
  });

  it("members who open a creator screen are sent to Become a creator", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.goto("/dashboard");
    await page.waitForURL("**/becomeCreator");
    await page.getByRole("heading", { name: "Become a creator", level: 1 }).waitFor();
    await context.close();
  });

  it("every route of the spec answers with its screen", async () => {
    const { page, context } = await signedInPage(browser(), creator, WIDE);
    const screens: [string, string][] = [
      ["/search", "Search"],
      ["/bookmarks", "Bookmarks"],
      ["/notifications", "Notifications"],
      ["/messages", "Messages"],
      ["/wallet", "Wallet"],
      ["/settings/language", "Settings"],
      ["/dashboard/payouts", "Dashboard"],
      ["/live", "Live Streams"],
      ["/live/start", "Go Live"],
      ["/scheduled", "Scheduled posts"],
      ["/processing", "Processing"],
      ["/stories/create", "New story"],
      ["/stories", "No stories right now"],
      ["/live/12", "This live stream does not exist."],
      ["/live/12/join", "This live stream does not exist."],
      [`/${creator.username}`, "Stella Creator"],
      [`/${creator.username}/preview`, "Stella Creator"],
    ];
    for (const [path, heading] of screens) {
      await page.goto(path);
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor({ timeout: 5000 });
    }
    await context.close();
  });
});

describe("badges (spec §2, §7)", () => {
  it("a push on the user's channel brings the Notifications count at once", async () => {
    const fan = await createAccount();
    const { page, context } = await signedInPage(browser(), fan, WIDE);
    await page.goto("/home");
    await hydrated(page);
    const badge = page.locator('[data-shell="sidebar"] [data-badge="notifications"]');
    expect(await badge.count()).toBe(0);
    const sent = await fetchWithin(`${baseURL()}/api/notifications/test`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fan.token}` },
    });
    expect(sent.status).toBe(201);
    // Well before the 30 s poll: only the push can have brought it.
    await badge.waitFor({ timeout: 5000 });
    expect(await badge.locator('[aria-hidden="true"]').textContent()).toBe("1");

    // Opening the screen reads them; the badge goes.
    await sidebar(page)
      .getByRole("link", { name: /Notifications/ })
      .click();
    await page.getByText("This is a test notification. Notifications reach you here.").waitFor();
    await expect.poll(() => badge.count(), { timeout: 5000 }).toBe(0);
    // Rendered by the server too (times in UTC there, local after hydration), and now read.
    await page.reload();
    await page.getByText("This is a test notification. Notifications reach you here.").waitFor();
    expect(await badge.count()).toBe(0);
    await context.close();
  });

  it("asks for updates every 30 s while the tab is seen, not while it is hidden, and once when it is seen again", async () => {
    const fan = await createAccount();
    const { page, context } = await signedInPage(browser(), fan, WIDE);
    let asked = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/updates") asked++;
    });
    await page.clock.install();
    await page.goto("/home");
    await hydrated(page);
    // The channel's first open asks once; from here on the page's time moves only when the test moves it.
    await expect.poll(() => asked).toBe(1);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    // Time passes in steps of 5 s, with a moment between them for the channel's pings to be answered (an
    // unanswered one would reconnect it, and a reconnection asks for updates too).
    const pass = async (ms: number) => {
      for (let passed = 0; passed < ms; passed += 5000) {
        await page.clock.runFor(5000);
        await page.waitForTimeout(50);
      }
    };
    // What a browser says when another tab is in front or the screen is off, and the event it sends.
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
        Object.defineProperty(document, "visibilityState", {
          configurable: true,
          get: () => (value ? "hidden" : "visible"),
        });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);

    await pass(30_000);
    await expect.poll(() => asked).toBe(2);
    await setHidden(true);
    await pass(90_000);
    await page.waitForTimeout(300);
    expect(asked).toBe(2);
    // Seen again: the polls it skipped are made up by one request, at once.
    await setHidden(false);
    await expect.poll(() => asked).toBe(3);
    // Hidden and seen again between two polls: nothing was skipped, nothing is asked.
    await setHidden(true);
    await setHidden(false);
    await page.waitForTimeout(300);
    expect(asked).toBe(3);
    await pass(30_000);
    await expect.poll(() => asked).toBe(4);
    await context.close();
  });

  it("shows the Home dot, both counts (99+ past 99) and the Wallet mark, and nothing at 0", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    let updates = { home: true, notifications: 120, messages: 2, balance: true };
    await page.route("**/api/updates", (route) => route.fulfill({ json: { updates } }));
    await page.goto("/settings");
    const side = page.locator('[data-shell="sidebar"]');
    await side.locator('[data-badge="home"]').waitFor();
    expect(await side.locator('[data-badge="notifications"] [aria-hidden="true"]').textContent()).toBe("99+");
    expect(await side.locator('[data-badge="messages"] [aria-hidden="true"]').textContent()).toBe("2");
    expect(await side.locator('[data-badge="wallet"] [aria-hidden="true"]').textContent()).toBe("!");

    updates = { home: false, notifications: 0, messages: 0, balance: false };
    await page.reload();
    await hydrated(page);
    expect(await side.locator("[data-badge]").count()).toBe(0);
    await context.close();
  });
});

describe("right column (spec §2, §7)", () => {
  it("searches on a non-empty term, says No result, and clears", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    const searches: string[] = [];
    page.on(
      "request",
      (request) =>
        request.url().includes("/api/searchUsers") &&
        searches.push(new URL(request.url()).searchParams.get("searchTerm") ?? ""),
    );
    await page.clock.install();
    await page.goto("/home");
    // Typed before the hydration, the term would be the page's but not React's: no search would go.
    await hydrated(page);
    const box = page.locator('[data-shell="right-column"]').getByRole("searchbox", { name: "Search users" });
    await box.fill(`${tag.toUpperCase()}.ST`);
    await page.getByRole("link", { name: `@${creator.username}` }).waitFor();
    await box.fill(`${tag}zzz`);
    await page.getByText("No result").waitFor();
    await page.getByRole("button", { name: "Clear search" }).click();
    expect(await box.inputValue()).toBe("");
    // The results close with the next render, not within the click.
    await expect.poll(() => page.locator('[data-shell="right-column"]').getByText("No result").count()).toBe(0);
    // A blank term schedules no search: the page's clock runs well past the pause before a search, then a real
    // term goes out, and nothing was sent in between.
    const sent = searches.length;
    await box.fill("   ");
    await page.clock.runFor(1_000);
    await box.fill(`${tag}zzz`);
    await page.getByText("No result").waitFor();
    expect(searches.slice(sent)).toEqual([`${tag}zzz`]);
    await context.close();
  });

  it("shows Suggested only when isExist is true and the list has profiles; alerts api error on failures", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    let answer: (route: import("playwright-core").Route) => Promise<void> = (route) =>
      route.fulfill({
        json: { isExist: true, suggestedProfiles: [{ username: "ana.b", avatarUrl: "", fullname: "Ana B" }] },
      });
    await page.route("**/api/suggestedProfiles", (route) => answer(route));
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    const panel = page.getByRole("heading", { name: "Suggested" });

    await page.goto("/home");
    await panel.waitFor();
    expect(await page.getByRole("link", { name: /Ana B/ }).getAttribute("href")).toBe("/ana.b");

    for (const body of [
      { isExist: false, suggestedProfiles: [{ username: "ana.b", avatarUrl: "", fullname: "Ana B" }] },
      { isExist: true, suggestedProfiles: [] },
    ]) {
      answer = (route) => route.fulfill({ json: body });
      const loaded = page.waitForResponse("**/api/suggestedProfiles");
      await page.reload();
      await loaded;
      await hydrated(page);
      expect(await panel.count()).toBe(0);
    }

    answer = (route) => route.fulfill({ status: 500, json: { message: "boom", errors: {} } });
    await page.reload();
    await expect.poll(() => alerts).toEqual(["api error"]);
    answer = (route) => route.abort("connectionrefused");
    await page.reload();
    await expect.poll(() => alerts).toEqual(["api error", "api error."]);
    await context.close();
  });
});

describe("badges on a phone", () => {
  it("sit at the corner of the bell and the bubble without covering them", async () => {
    const { page, context } = await signedInPage(browser(), member, { width: 390, height: 844 });
    await page.route("**/api/updates", (route) =>
      route.fulfill({ json: { updates: { home: true, notifications: 120, messages: 7, balance: false } } }),
    );
    await page.goto("/settings");
    for (const entry of ["home", "notifications", "messages"]) {
      const link = bottomBar(page).locator(`[data-nav="${entry}"]`);
      const badge = link.locator(`[data-badge="${entry}"]`);
      await badge.waitFor();
      // The glyph's own box (the drawn path), not the 24 px square around it.
      const [glyph, mark, target] = [
        (await link.locator("svg path").boundingBox())!,
        (await badge.boundingBox())!,
        (await link.boundingBox())!,
      ];
      const overlapX = Math.min(glyph.x + glyph.width, mark.x + mark.width) - Math.max(glyph.x, mark.x);
      const overlapY = Math.min(glyph.y + glyph.height, mark.y + mark.height) - Math.max(glyph.y, mark.y);
      expect(overlapX <= 0 || overlapY <= 0, `${entry} badge over its icon`).toBe(true);
      // At the icon's top corner, inside the tap target.
      expect(mark.x).toBeGreaterThanOrEqual(glyph.x + glyph.width / 2);
      expect(mark.y).toBeLessThan(glyph.y + glyph.height / 2);
      expect(mark.y).toBeGreaterThanOrEqual(target.y);
    }
    await context.close();
  });
});

describe("the API client (spec §8)", () => {
  it("alerts server error. on a 500", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.route("**/api/notifications/test", (route) =>
      route.fulfill({ status: 500, json: { message: "server error.", errors: {} } }),
    );
    await page.goto("/settings/notifications");
    await hydrated(page);
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Send me a test notification" }).click();
    await expect.poll(() => alerts).toEqual(["server error."]);
    await context.close();
  });
});

describe("languages and theme", () => {
  const german = JSON.parse(readFileSync("app/locales/de.json", "utf8")) as Record<string, string>;
  const arabic = JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;

  it("long labels (German, Russian, Ukrainian) stay inside the sidebar at the smallest labelled width", async () => {
    const { page, context } = await signedInPage(browser(), creator, { width: 1280, height: 900 });
    for (const language of ["de", "ru", "uk"]) {
      await context.addCookies([{ name: "i18nextLng", value: language, url: baseURL() }]);
      await page.goto("/home");
      await hydrated(page);
      const column = (await page.locator('[data-shell="sidebar"]').boundingBox())!;
      for (const link of await sidebar(page).getByRole("link").all()) {
        const [label, box] = await link.evaluate((element) => {
          const text = element.lastElementChild!;
          const { left, right } = text.getBoundingClientRect();
          return [text.textContent, { left, right, overflows: text.scrollWidth > text.clientWidth + 1 }] as const;
        });
        expect(box.left, `${language}: ${label}`).toBeGreaterThanOrEqual(column.x);
        expect(box.right, `${language}: ${label}`).toBeLessThanOrEqual(column.x + column.width);
        expect(box.overflows, `${language}: ${label}`).toBe(false);
      }
    }
    await context.close();
  });

  it("switches language in Settings, right to left for Arabic, and remembers it", async () => {
    const { page, context } = await signedInPage(browser(), member, WIDE);
    await page.goto("/settings/language");
    await hydrated(page);
    await page.getByRole("combobox", { name: "Language" }).selectOption("de");
    await page.getByRole("heading", { name: german["Settings"], level: 1 }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await sidebar(page).getByRole("link", { name: german["Notifications"] }).count()).toBe(1);
    await page.getByRole("combobox", { name: german["Language"] }).selectOption("ar");
    await page.getByRole("heading", { name: arabic["Settings"], level: 1 }).waitFor();
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await page.goto("/home");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    // Right to left: the sidebar is on the right.
    expect((await page.locator('[data-shell="sidebar"]').boundingBox())!.x).toBeGreaterThan(1000);
    await context.close();
  });

  it("detects in the order of spec §9: ?lng, then cookie, then localStorage, then the browser", async () => {
    const context = await newContext(browser(), { locale: "de-DE" });
    const page = await context.newPage();
    await page.goto("/login?lng=es");
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    await page.goto("/login?lng=ja");
    expect(await page.locator("html").getAttribute("lang")).toBe("ja");
    // The page's i18next writes the cookie as it starts.
    await hydrated(page);
    // The cookie now says ja; it beats the browser's German.
    await page.goto("/login");
    expect(await page.locator("html").getAttribute("lang")).toBe("ja");
    // The page remembers its language (cookie and localStorage) once its i18next has started: let it finish,
    // or it writes the ja cookie again after the clearing below.
    await hydrated(page);
    // Only localStorage holds a choice (fr): the browser's German loses to it.
    await context.clearCookies();
    await page.evaluate(() => localStorage.setItem("i18nextLng", "fr"));
    await page.goto("/signup");
    await expect.poll(() => page.locator("html").getAttribute("lang"), { timeout: 10_000 }).toBe("fr");
    await hydrated(page);
    expect((await context.cookies()).find((c) => c.name === "i18nextLng")?.value).toBe("fr");
    // Nothing stored: the browser language.
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto("/signup");
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await context.close();
  });

  it("follows the system dark theme", async () => {
    for (const [scheme, background] of [
      ["dark", "rgb(2, 6, 23)"],
      ["light", "rgb(255, 255, 255)"],
    ] as const) {
      const { page, context } = await signedInPage(browser(), member, WIDE, { colorScheme: scheme });
      await page.goto("/home");
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(background);
      await context.close();
    }
  });
});

describe("a page that does not exist", () => {
  it("says so in the server's HTML and once hydrated, signed in or not, without a hydration error", async () => {
    for (const signedIn of [true, false]) {
      const { page, context } = signedIn ? await signedInPage(browser(), member) : await newPage(browser());
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const path = signedIn ? "/post/999999999" : `/${tag}_nobody`;
      // Before any script runs (or without JavaScript): the server's render said "You are offline" here, since
      // the Worker's navigator has no onLine, and the hydration then failed on the mismatch.
      const html = await (await context.request.get(path)).text();
      expect(html).toContain("Page not found");
      expect(html).not.toContain("You are offline");
      expect((await page.goto(path))!.status()).toBe(404);
      await hydrated(page);
      await page.getByRole("heading", { name: "Page not found" }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
