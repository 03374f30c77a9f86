import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
import {
  apiAs as api,
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
let fan: Account;

beforeAll(async () => {
  const tag = `fn${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Cora Creator" });
  fan = await createAccount({ username: `${tag}_fan`, name: "Felix Fan" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';
     ${fundedFanSql(fan.username, 1000)}`,
  );
  // A real paid subscription: $4.99 a month, charged from the fan's wallet.
  await api(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 499 }] });
  await api(fan, "POST", `/users/${creator.username}/subscribe`, {
    period: "month",
    priceCents: 499,
    idempotencyKey: crypto.randomUUID(),
  });
});

describe("a creator's fans", () => {
  it("on a phone, the dashboard's row of tabs shows the tab it is on (left to right and right to left), the page not scrolled", async () => {
    const { page } = await signedInPage(browser(), creator, { width: 390, height: 844 });
    for (const language of ["en", "ar"]) {
      await page.goto(`/dashboard/fans?lng=${language}`);
      await hydrated(page);
      const row = page
        .getByRole("navigation", { name: language === "en" ? "Dashboard" : "لوحة التحكم" })
        .getByRole("list");
      const current = row.locator('a[aria-current="page"]');
      expect(await current.getAttribute("href")).toBe("/dashboard/fans");
      // The last tab starts beyond the phone's edge; once hydrated, the row has scrolled to it.
      await expect
        .poll(async () => {
          const [tab, frame] = await Promise.all([current.boundingBox(), row.boundingBox()]);
          return tab!.x >= frame!.x - 1 && tab!.x + tab!.width <= frame!.x + frame!.width + 1;
        })
        .toBe(true);
      expect(await row.evaluate((list) => list.scrollLeft)).not.toBe(0);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    }
  });

  it("a tab opens by its own address, its tab current; moving to another loads only that tab's data; the old earnings address leads to /dashboard", async () => {
    const { page } = await signedInPage(browser(), creator);
    await page.goto("/dashboard/fans");
    await hydrated(page);
    const tabs = page.getByRole("navigation", { name: "Dashboard" });
    expect(await tabs.locator('a[aria-current="page"]').textContent()).toBe("Fans");
    await page.getByTestId("fan-row").getByText("Felix Fan").waitFor();

    const dataRequests: URL[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith(".data")) dataRequests.push(url);
    });
    await tabs.getByRole("link", { name: "Payout history" }).click();
    await page.waitForURL("/dashboard/payouts");
    await page.getByRole("heading", { name: "Payout history", level: 2 }).waitFor({ state: "attached" });
    expect(dataRequests.map((url) => `${url.pathname} ${url.searchParams.get("_routes")}`)).toEqual([
      "/dashboard/payouts.data routes/_shell.dashboard.payouts",
    ]);

    await page.goto("/dashboard/earnings");
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    expect(await tabs.locator('a[aria-current="page"]').textContent()).toBe("Earnings");
  });

  it("the creator finds the subscriber under Dashboard → Fans, messages them, and the fan reads it in /messages", async () => {
    const creatorSide = await signedInPage(browser(), creator);
    const creatorPage = creatorSide.page;
    await creatorPage.goto("/dashboard");
    await hydrated(creatorPage);
    await creatorPage.getByRole("link", { name: "Fans", exact: true }).click();
    await creatorPage.waitForURL("/dashboard/fans");

    const row = creatorPage.getByTestId("fan-row");
    await row.getByText("Felix Fan").waitFor();
    expect(await row.count()).toBe(1);
    await row.getByText("Monthly · $4.99").waitFor();
    expect(await creatorPage.getByRole("link", { name: "Subscribers" }).getAttribute("aria-current")).toBe("page");
    expect(await seriousViolations(creatorPage)).toEqual([]);

    // Subscribing also followed: the Followers tab lists the fan too, without a plan.
    await creatorPage.getByRole("link", { name: "Followers" }).click();
    await creatorPage.waitForURL("/dashboard/fans?kind=followers");
    // The URL changes before the followers' page replaces the subscribers' row: wait for the row without a plan.
    await expect.poll(() => row.getByText("Monthly").count()).toBe(0);
    await row.getByText("Felix Fan").waitFor();
    await creatorPage.getByRole("link", { name: "Subscribers" }).click();
    await creatorPage.waitForURL("/dashboard/fans");
    await row.getByText("Monthly · $4.99").waitFor();

    await row.getByRole("button", { name: "Message", exact: true }).click();
    await creatorPage.waitForURL(/\/messages\/\d+$/);
    await hydrated(creatorPage);
    const threadPath = new URL(creatorPage.url()).pathname;
    await creatorPage.getByTestId("composer-input").fill("Thanks for subscribing, Felix!");
    await creatorPage.getByTestId("send-button").click();
    await creatorPage
      .locator("[data-testid='message'][data-mine='true'][data-seq]", { hasText: "Thanks for subscribing, Felix!" })
      .waitFor();

    const fanSide = await signedInPage(browser(), fan, { width: 390, height: 844 });
    const fanPage = fanSide.page;
    await fanPage.goto("/messages");
    await hydrated(fanPage);
    const conversation = fanPage.getByTestId("conversation-row");
    await conversation.getByText("Thanks for subscribing, Felix!").waitFor();
    await conversation.getByText("Cora Creator").waitFor();
    await conversation.getByRole("link").click();
    await fanPage.waitForURL(threadPath);
    await fanPage
      .locator("[data-testid='message'][data-mine='false']", { hasText: "Thanks for subscribing, Felix!" })
      .waitFor();
  });
});
