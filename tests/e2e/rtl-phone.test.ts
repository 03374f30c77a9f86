import { readFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql, verifiedFanSql } from "./money-support";
import { apiAs, baseURL, browserForThisFile, createAccount, hydrated, signedInPage, sql, unique } from "./support";

const browser = browserForThisFile();

const PHONE = { width: 390, height: 844 };

/** Arabic's text for an English key; a missing key fails the test rather than matching anything. */
const arabic = (() => {
  const texts = JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;
  return (key: string): string => {
    const text = texts[key];
    if (text === undefined) throw new Error(`ar.json lacks ${key}`);
    return text;
  };
})();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fan: Account;
let latin: Account;

beforeAll(async () => {
  const tag = `rt${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Rania Creator" });
  fan = await createAccount({ username: `${tag}_fan`, name: "Fadi Fan" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';
     ${fundedFanSql(fan.username, 5000)} ${verifiedFanSql(fan.username)}`,
  );
  await apiAs(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 499 }] });
  // A post for subscribers with a price: its author sees the audience and price labels beside the menu.
  await apiAs(creator, "POST", "/posts", {
    text: "For my subscribers",
    audience: "subscribers",
    priceCents: 300,
    mediaIds: [],
  });
  await apiAs(fan, "POST", `/users/${creator.username}/follow`);
  // A long Latin name, in a conversation the creator reads in Arabic.
  latin = await createAccount({ username: `${tag}_max`, name: "Maximilian Alexander Hoffmann-Wolkenstein" });
  await apiAs(latin, "POST", `/users/${creator.username}/follow`);
  const { id } = (await apiAs(latin, "POST", "/conversations", { username: creator.username })) as { id: number };
  await apiAs(latin, "POST", `/conversations/${id}/messages`, {
    clientId: `${tag}-latin-1`,
    text: "Guten Morgen aus Wien, wie geht es dir heute?",
  });
});

/** An Arabic phone, signed in as `account`. */
async function arabicPhone(account: Account): Promise<Page> {
  const { context, page } = await signedInPage(browser(), account, PHONE);
  await context.addCookies([{ name: "i18nextLng", value: "ar", url: baseURL() }]);
  return page;
}

async function open(page: Page, path: string) {
  await page.goto(path);
  expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
  await hydrated(page);
}

/** The element's whole box lies on the screen (a pixel of rounding allowed), and the page does not scroll sideways. */
async function expectOnScreen(page: Page, what: string, element: Locator) {
  await element.waitFor();
  const box = (await element.boundingBox())!;
  const where = `${what}: x ${Math.round(box.x)}..${Math.round(box.x + box.width)}, y ${Math.round(box.y)}..${Math.round(box.y + box.height)}`;
  expect(box.width, where).toBeGreaterThan(0);
  expect(box.x, where).toBeGreaterThanOrEqual(-1);
  expect(box.y, where).toBeGreaterThanOrEqual(-1);
  expect(box.x + box.width, where).toBeLessThanOrEqual(PHONE.width + 1);
  expect(box.y + box.height, where).toBeLessThanOrEqual(PHONE.height + 1);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${what}: the page's width`,
  ).toBeLessThanOrEqual(PHONE.width);
}

/** Opens a dialog with the button named `opener`, checks it lies on the screen, and closes it with Escape. */
async function checkDialog(page: Page, opener: string | RegExp) {
  await page.getByRole("button", { name: opener, exact: true }).first().click();
  const dialog = page.locator("dialog[open]");
  await expectOnScreen(page, String(opener), dialog);
  await page.keyboard.press("Escape");
  await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);
}

async function checkAccountMenu(page: Page) {
  await page
    .getByRole("navigation", { name: arabic("Main") })
    .getByRole("button", { name: arabic("Account menu") })
    .click();
  await expectOnScreen(page, "the account menu", page.getByRole("menu", { name: arabic("Account menu") }));
  // Every entry can be read and tapped.
  for (const item of await page.getByRole("menuitem").all())
    await expectOnScreen(page, `the entry ${await item.textContent()}`, item);
  await page.keyboard.press("Escape");
}

describe("menus, popovers and dialogs on an Arabic phone (390 px, right to left)", () => {
  it("as a fan: the account menu, and a creator's share, subscribe, tip, report and block dialogs", async () => {
    const page = await arabicPhone(fan);
    await open(page, "/home");
    await checkAccountMenu(page);

    await open(page, `/${creator.username}`);
    for (const opener of ["Share", "Tip", "Report", "Block"]) await checkDialog(page, arabic(opener));
    // The Subscribe button says the price: "Subscribe · $4.99/month", in Arabic.
    const words = arabic("Subscribe · {{price}}")
      .split("{{price}}")
      .map((part) => part.trim())
      .sort((a, b) => b.length - a.length)[0]!;
    await checkDialog(page, new RegExp(words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));

    await open(page, "/notifications");
    await expectOnScreen(page, "the notifications", page.getByRole("main"));
  });

  it("as a creator: the account menu, the post's menu and its edit dialog, the share dialog and the language picker", async () => {
    const page = await arabicPhone(creator);
    await open(page, "/home");
    await checkAccountMenu(page);

    const post = page.locator("article", { hasText: "For my subscribers" });
    await post.getByRole("button", { name: arabic("Post options") }).click();
    await expectOnScreen(page, "the post's menu", page.getByRole("menu", { name: arabic("Post options") }));
    await page.getByRole("menuitem", { name: arabic("Edit") }).click();
    await expectOnScreen(page, "the edit dialog", page.locator("dialog[open]"));
    await page.keyboard.press("Escape");

    await open(page, `/${creator.username}`);
    await checkDialog(page, arabic("Share"));

    await open(page, "/settings/language");
    await expectOnScreen(page, "the language picker", page.getByRole("combobox", { name: arabic("Language") }));
  });
});

/** Whether the first and last characters of `element`'s own text are drawn inside its box (not cut by its edge). */
function endsShown(element: Locator) {
  return element.evaluate((node) => {
    const text = [...node.childNodes].find((child) => child.nodeType === Node.TEXT_NODE) as Text;
    const box = node.getBoundingClientRect();
    const inside = (start: number) => {
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + 1);
      const letter = range.getBoundingClientRect();
      return letter.left >= box.left - 0.5 && letter.right <= box.right + 0.5;
    };
    return { overflows: node.scrollWidth > node.clientWidth, first: inside(0), last: inside(text.length - 1) };
  });
}

describe("text and numbers of their own direction on an Arabic phone", () => {
  it("a Latin name too long for its row loses its end, not its beginning", async () => {
    const page = await arabicPhone(creator);
    await open(page, "/messages");
    const row = page.getByTestId("conversation-row").filter({ hasText: latin.name.slice(0, 10) });
    const name = row.getByText(latin.name, { exact: true });
    // Cut with an ellipsis, from its end: its first letter is on screen, its last is not.
    expect(await endsShown(name)).toEqual({ overflows: true, first: true, last: false });
    const preview = row.getByText("Guten Morgen aus Wien", { exact: false });
    expect((await endsShown(preview)).first).toBe(true);
  });

  it("the sandbox's test card numbers read left to right, in groups of four in order", async () => {
    const page = await arabicPhone(fan);
    const { redirectUrl } = (await apiAs(fan, "POST", "/wallet/top-ups", {
      amountCents: 1000,
      idempotencyKey: crypto.randomUUID(),
    })) as { redirectUrl: string };
    await open(page, redirectUrl);
    const number = page.locator("code", { hasText: "4000 0025 0000 3155" });
    const [first, last] = await number.evaluate((node) => {
      const text = node.firstChild as Text;
      const at = (start: number) => {
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + 4);
        return range.getBoundingClientRect().left;
      };
      return [at(0), at(text.length - 4)];
    });
    // "4000" stands left of "3155", as on the card.
    expect(first).toBeLessThan(last);
  });
});
