import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { browserForThisFile, createAccount, hydrated, newContext, signedInPage } from "./support";

/** A locale's text for an English key; a missing key fails the test rather than matching anything. */
const locale = (code: string) => {
  const texts = JSON.parse(readFileSync(`app/locales/${code}.json`, "utf8")) as Record<string, string>;
  return (key: string): string => {
    const text = texts[key];
    if (text === undefined) throw new Error(`${code}.json lacks ${key}`);
    return text;
  };
};

const browser = browserForThisFile();

describe("languages", () => {
  it("renders the browser's language on the server and keeps it after hydration", async () => {
    const context = await newContext(browser(), { locale: "de-DE" });
    const page = await context.newPage();
    await page.goto("/login");
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await page.getByRole("heading", { name: locale("de")("Sign in") }).waitFor();
    await hydrated(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(locale("de")("Sign in"));
    expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("de");
    await context.close();
  });

  it("?lng=ar renders Arabic right to left, and shows server errors in Arabic", async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    await page.goto("/login?lng=ar");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await hydrated(page);
    await page.getByLabel(locale("ar")("Email or username")).fill("nobody@example.test");
    await page.getByLabel(locale("ar")("Password")).fill("not a real password");
    await page.getByRole("button", { name: locale("ar")("Sign in") }).click();
    await page.getByText(locale("ar")("The provided credentials are incorrect")).waitFor();

    // The choice is remembered: the next page, without ?lng, is Arabic from the first byte.
    const html = await (await page.request.get("/signup")).text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    await context.close();
  });

  it("an address no route matches is answered in the person's language, right to left in Arabic, without a hydration error", async () => {
    const ar = locale("ar");
    const context = await newContext(browser(), { locale: "ar-EG" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (entry) => {
      if (entry.type() === "error" && !entry.text().startsWith("Failed to load resource")) errors.push(entry.text());
    });
    // Two segments: only the catch-all route matches (one segment would be a profile's 404).
    expect((await page.goto("/no-such-page/here"))!.status()).toBe(404);
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await hydrated(page);
    await page.getByRole("heading", { name: ar("Page not found") }).waitFor();
    await page.getByRole("link", { name: ar("Go to the home page") }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("titles each page in its language, in the server's HTML and after a client-side navigation", async () => {
    const de = locale("de");
    const fan = await createAccount();
    const { page, context } = await signedInPage(browser(), fan, { width: 1440, height: 900 }, { locale: "de-DE" });
    const html = await (await context.request.get("/home", { headers: { "Accept-Language": "de-DE" } })).text();
    expect(html).toContain(`<title>${de("Home")} · Fanclub</title>`);

    await page.goto("/home");
    await hydrated(page);
    expect(await page.title()).toBe(`${de("Home")} · Fanclub`);
    // A marker on window survives only a client-side navigation, not a new document.
    await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
    await page
      .locator('[data-shell="sidebar"]')
      .getByRole("link", { name: de("Notifications") })
      .click();
    await page.waitForURL(/\/notifications$/);
    await expect.poll(() => page.title()).toBe(`${de("Notifications")} · Fanclub`);
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
    await context.close();
  });

  it("titles Arabic pages in Arabic, signed out too", async () => {
    const ar = locale("ar");
    const context = await newContext(browser(), { locale: "en-US" });
    const page = await context.newPage();
    await page.goto("/login?lng=ar");
    expect(await page.title()).toBe(`${ar("Sign in")} · Fanclub`);
    await hydrated(page);
    await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
    await page.getByRole("link", { name: ar("Sign up"), exact: true }).click();
    await page.waitForURL(/\/signup$/);
    await expect.poll(() => page.title()).toBe(`${ar("Sign up")} · Fanclub`);
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
    await context.close();
  });
});
