import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
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

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let creator: Account;
let subscriber: Account;
let chatter: Account;

beforeAll(async () => {
  const tag = `fl${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Lia Lists" });
  subscriber = await createAccount({ username: `${tag}_sub`, name: "Sam Subscriber" });
  chatter = await createAccount({ username: `${tag}_chat`, name: "Cleo Chatter" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';
     ${fundedFanSql(subscriber.username, 5000)}`,
  );
  // A real paid subscription ($4.99, from the fan's wallet) and a follower who writes to the creator.
  await api(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 499 }] });
  await api(subscriber, "POST", `/users/${creator.username}/subscribe`, {
    period: "month",
    priceCents: 499,
    idempotencyKey: crypto.randomUUID(),
  });
  await api(chatter, "POST", `/users/${creator.username}/follow`);
  await api(chatter, "POST", "/conversations", { username: creator.username });
});

/** Opens the "Add to list" menu and ticks `list`, waiting for the server's word. */
async function addToList(page: Page, list: string) {
  await page.getByText("Add to list", { exact: true }).click();
  // The box follows the server's answer, not the click: it is ticked once the fan is in the list.
  const box = page.getByRole("checkbox", { name: list });
  await box.click();
  await page.getByRole("status").getByText(`Added to ${list}`).waitFor();
  expect(await box.isChecked()).toBe(true);
}

describe("fan lists", () => {
  it("the creator makes a list, adds a fan from their profile and one from a chat, and sees them with their spending", async () => {
    const { page } = await signedInPage(browser(), creator);
    await page.goto("/dashboard/fans");
    await hydrated(page);
    await page.getByRole("link", { name: /^Lists:/ }).click();
    await page.waitForURL("/lists");
    await page.getByLabel("New list").fill("Regulars");
    await page.getByRole("button", { name: "Create list" }).click();
    const line = page.getByTestId("list-line").filter({ hasText: "Regulars" });
    await line.getByText("Fans: 0").waitFor();

    await page.goto(`/${subscriber.username}`);
    await hydrated(page);
    await addToList(page, "Regulars");

    const { id: conversationId } = (await api(chatter, "POST", "/conversations", { username: creator.username })) as {
      id: number;
    };
    await page.goto(`/messages/${conversationId}`);
    await hydrated(page);
    await addToList(page, "Regulars");

    await page.goto("/lists");
    await hydrated(page);
    await line.getByText("Fans: 2").waitFor();
    await line.getByRole("link", { name: "Regulars" }).click();
    await page.waitForURL(/\/lists\/custom:\d+$/);
    const fans = page.getByTestId("listed-fan");
    await fans.filter({ hasText: "Cleo Chatter" }).waitFor();
    expect(await fans.filter({ hasText: "Sam Subscriber" }).getByTestId("spent").textContent()).toBe("$4.99");
    expect(await fans.filter({ hasText: "Cleo Chatter" }).getByTestId("spent").textContent()).toBe("$0.00");

    // The search narrows the list; the fan's page shows the subscription, the spending and the chat.
    await page.getByLabel("Search fans by username or name").fill("sam sub");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => fans.count()).toBe(1);
    await fans.getByRole("link", { name: /Sam Subscriber/ }).click();
    await page.waitForURL(`/lists/fan/${subscriber.username}`);
    expect(await page.getByTestId("subscription-status").textContent()).toBe("Active");
    expect(await page.getByTestId("spent-total").textContent()).toBe("$4.99");

    // Taken out of the list from its page.
    await page.goto("/lists");
    await hydrated(page);
    await line.getByRole("link", { name: "Regulars" }).click();
    await hydrated(page);
    await fans.filter({ hasText: "Cleo Chatter" }).getByRole("button", { name: "Remove Cleo Chatter" }).click();
    await expect.poll(() => fans.count()).toBe(1);
  });

  it("a fan sees no Add to list, and /lists is not theirs", async () => {
    const { page } = await signedInPage(browser(), subscriber);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    expect(await page.getByText("Add to list", { exact: true }).count()).toBe(0);
    await page.goto("/lists");
    await page.waitForURL("/becomeCreator");
  });

  for (const variant of [
    { name: "light", colorScheme: "light", language: "en" },
    { name: "dark", colorScheme: "dark", language: "en" },
    { name: "Arabic", colorScheme: "light", language: "ar" },
  ] as const) {
    it(`/lists and a list's page have no serious accessibility violations (${variant.name})`, async () => {
      const { context, page } = await signedInPage(browser(), creator, undefined, { colorScheme: variant.colorScheme });
      if (variant.language === "ar") await context.addCookies([{ name: "i18nextLng", value: "ar", url: baseURL() }]);
      for (const path of ["/lists", "/lists/subscribers"]) {
        await page.goto(path);
        expect(await page.locator("html").getAttribute("dir")).toBe(variant.language === "ar" ? "rtl" : "ltr");
        await hydrated(page);
        expect(await seriousViolations(page), path).toEqual([]);
      }
    });
  }
});
