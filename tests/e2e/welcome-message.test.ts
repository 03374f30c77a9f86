import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { verifiedFanSql } from "./money-support";
import {
  apiAs as api,
  baseURL,
  browserForThisFile,
  createAccount,
  hydrated,
  seriousViolations,
  signedInPage,
  sql,
  unique,
} from "./support";

/**
 * The welcome message: the creator turns it on beside the mass message, a new subscriber gets it live in their
 * messages (two browser contexts); the section has no serious axe finding in light, dark and Arabic.
 */
const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let fan: Account;

const WELCOME = "Welcome to the club! So glad you are here.";
/** The Arabic texts; a key the translators have not reached yet shows in English, as the page shows it. */
const ARABIC = JSON.parse(readFileSync("app/locales/ar.json", "utf8")) as Record<string, string>;

beforeAll(async () => {
  const tag = `wm${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Wren Welcome" });
  fan = await createAccount({ username: `${tag}_fan`, name: "Finn Fan" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';
     ${verifiedFanSql(fan.username)}`,
  );
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await api(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 0 }] });
});

describe("the welcome message", () => {
  it("the creator turns it on; a fan who subscribes sees it arrive in their messages live", async () => {
    const { page: creatorPage } = await signedInPage(browser(), creator);
    await creatorPage.goto("/messages?view=mass");
    await hydrated(creatorPage);
    const section = creatorPage.getByRole("region", { name: "Welcome message" });
    const enabled = section.getByRole("checkbox", { name: "Send a welcome message to new subscribers" });
    await enabled.waitFor();
    expect(await enabled.isChecked()).toBe(false);
    // On with nothing to say: the server's translated refusal, announced.
    await enabled.check();
    await section.getByRole("button", { name: "Save welcome message" }).click();
    await section.getByRole("alert").getByText("Write a message or attach a photo or video.").waitFor();
    await section.getByLabel("Welcome message text").fill(WELCOME);
    await section.getByRole("button", { name: "Save welcome message" }).click();
    await section.getByRole("status").getByText("Saved: new subscribers get this message.").waitFor();
    expect(await section.getByRole("alert").count()).toBe(0);
    // Read again from the server.
    await creatorPage.reload();
    await hydrated(creatorPage);
    await expectChecked(creatorPage.getByRole("checkbox", { name: "Send a welcome message to new subscribers" }));
    expect(await creatorPage.getByLabel("Welcome message text").inputValue()).toBe(WELCOME);

    // The fan's messages are open, with no conversation yet; they subscribe from the creator's profile in another tab.
    const fanSide = await signedInPage(browser(), fan, { width: 390, height: 844 });
    const inbox = fanSide.page;
    await inbox.goto("/messages");
    await hydrated(inbox);
    expect(await inbox.getByTestId("conversation-row").count()).toBe(0);
    const profile = await fanSide.context.newPage();
    await profile.goto(`/${creator.username}`);
    await hydrated(profile);
    await profile.getByRole("button", { name: "Subscribe for free" }).click();
    const dialog = profile.getByRole("dialog", { name: `Subscribe to ${creator.name}` });
    await dialog.getByRole("list", { name: "Subscription plans" }).getByRole("button").first().click();

    const row = inbox.getByTestId("conversation-row").filter({ hasText: creator.name });
    await row.getByText(WELCOME).waitFor();
    await row.click();
    await inbox.getByTestId("message").filter({ hasText: WELCOME }).waitFor();
    const conversations = (await api(fan, "GET", "/conversations")) as {
      conversations: { id: number; other: { username: string } }[];
    };
    expect(conversations.conversations.map((c) => c.other.username)).toEqual([creator.username]);
  });

  for (const variant of [
    { name: "light", colorScheme: "light" as const, language: "en" },
    { name: "dark", colorScheme: "dark" as const, language: "en" },
    { name: "Arabic", colorScheme: "light" as const, language: "ar" },
  ]) {
    it(`the section has no serious or critical axe finding (${variant.name}), with its status and an error`, async () => {
      const tr = (key: string) => (variant.language === "ar" ? (ARABIC[key] ?? key) : key);
      const { context, page } = await signedInPage(browser(), creator, undefined, {
        colorScheme: variant.colorScheme,
      });
      if (variant.language === "ar") await context.addCookies([{ name: "i18nextLng", value: "ar", url: baseURL() }]);
      await page.goto("/messages?view=mass");
      expect(await page.locator("html").getAttribute("dir")).toBe(variant.language === "ar" ? "rtl" : "ltr");
      await hydrated(page);
      const section = page.getByRole("region", { name: tr("Welcome message") });
      await section.getByLabel(tr("Welcome message text")).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await section.getByRole("button", { name: tr("Save welcome message") }).click();
      await section.getByRole("status").getByText(tr("Saved: new subscribers get this message.")).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await section.getByLabel(tr("Welcome message text")).fill("");
      await section.getByRole("button", { name: tr("Save welcome message") }).click();
      await section.getByRole("alert").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});

async function expectChecked(checkbox: ReturnType<import("playwright-core").Page["getByRole"]>) {
  await checkbox.waitFor();
  expect(await checkbox.isChecked()).toBe(true);
}
