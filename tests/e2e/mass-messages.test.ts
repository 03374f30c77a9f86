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
let subscriber: Account;
let follower: Account;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PHONE = { width: 390, height: 844 };
const TEXT = "Only for my insiders";

beforeAll(async () => {
  const tag = `ms${unique().slice(-8)}`;
  creator = await createAccount({ username: `${tag}_star`, name: "Mia Star" });
  subscriber = await createAccount({ username: `${tag}_sub`, name: "Sub Fan" });
  follower = await createAccount({ username: `${tag}_fol`, name: "Follow Fan" });
  const now = new Date();
  const inAMonth = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  await sql(
    `UPDATE users SET role = 'creator', email_verified_at = '${now.toISOString()}' WHERE username = '${creator.username}';
     ${fundedFanSql(subscriber.username, 2000)}
     INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end)
       VALUES ((SELECT id FROM users WHERE username = '${subscriber.username}'), (SELECT id FROM users WHERE username = '${creator.username}'), 'month', 0, 'active', '${now.toISOString()}', '${inAMonth}');`,
  );
  for (const fan of [subscriber, follower]) await api(fan, "POST", `/users/${creator.username}/follow`);
});

describe("mass messages", () => {
  it("the creator makes a list and sends it a priced mass message: the fan in it gets it live and unlocks it; the fan outside gets nothing; the results show it", async () => {
    const fanSide = await signedInPage(browser(), subscriber, PHONE);
    await fanSide.page.goto("/messages");
    await hydrated(fanSide.page);
    const followerSide = await signedInPage(browser(), follower, PHONE);
    await followerSide.page.goto("/messages");
    await hydrated(followerSide.page);

    // The list, made on /lists, and the subscriber put in it from their profile.
    const { page } = await signedInPage(browser(), creator);
    await page.goto("/lists");
    await hydrated(page);
    await page.getByLabel("New list").fill("Insiders");
    await page.getByRole("button", { name: "Create list" }).click();
    await page.getByTestId("list-line").filter({ hasText: "Insiders" }).getByText("Fans: 0").waitFor();
    await page.goto(`/${subscriber.username}`);
    await hydrated(page);
    await page.getByText("Add to list", { exact: true }).click();
    await page.getByRole("checkbox", { name: "Insiders" }).click();
    await page.getByRole("status").getByText("Added to Insiders").waitFor();
    const { lists } = (await api(creator, "GET", "/lists")) as { lists: { ref: string; name: string | null }[] };
    const insiders = lists.find((list) => list.name === "Insiders")!.ref;

    await page.goto("/messages?view=mass");
    await hydrated(page);
    // Subscribers is chosen first; the creator sends to the list instead, and sees the count before sending.
    await page.getByTestId("mass-include-subscribers").uncheck();
    await page.getByTestId(`mass-include-${insiders}`).check();
    await page.getByTestId("mass-recipient-count").getByText("1 fans will get it.").waitFor();
    await page.getByTestId("mass-message-text").fill(TEXT);
    await page.getByTestId("mass-message-files").setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("progressbar", { name: "dot.png uploaded" }).waitFor();
    await page.getByLabel("Price in USD (optional)").fill("3");
    await page.getByRole("button", { name: "Send now" }).click();
    const row = page.getByTestId("mass-message").filter({ hasText: TEXT });
    await row.and(page.locator('[data-status="sent"]')).waitFor();
    expect(await row.getByTestId("mass-message-sent").textContent()).toBe("1");

    // The subscriber's open list shows it without a reload (their user channel was told); locked until bought.
    const conversation = fanSide.page.getByTestId("conversation-row").filter({ hasText: "Mia Star" });
    await conversation.waitFor();
    await conversation.click();
    const locked = fanSide.page.locator("[data-testid='message']", { hasText: TEXT });
    await locked.getByTestId("unlock-button").waitFor();
    expect(await locked.getByTestId("unlock-button").textContent()).toBe("Unlock for $3.00");
    await locked.getByTestId("unlock-button").click();
    await locked.getByRole("button", { name: "Confirm" }).click();
    await locked.locator("a img").waitFor();

    // The follower, a fan outside the list, got nothing.
    const followerList = (await api(follower, "GET", "/conversations")) as { conversations: unknown[] };
    expect(followerList.conversations).toEqual([]);
    expect(await followerSide.page.getByTestId("conversation-row").count()).toBe(0);

    // The results: 1 unlocked, $3.00 of revenue.
    await page.reload();
    await hydrated(page);
    const results = page.getByTestId("mass-message").filter({ hasText: TEXT });
    expect(await results.getByTestId("mass-message-unlocked").textContent()).toBe("1");
    expect(await results.getByTestId("mass-message-revenue").textContent()).toBe("$3.00");
  });

  it("a scheduled one can be cancelled; the panel passes axe in light, dark and Arabic", async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await api(creator, "POST", "/mass-messages", {
      clientId: crypto.randomUUID(),
      include: ["subscribers"],
      exclude: ["expired"],
      text: "Tomorrow's news",
      sendAt: later,
    });
    for (const [colorScheme, lng] of [
      ["light", "en"],
      ["dark", "en"],
      ["light", "ar"],
    ] as const) {
      const { page } = await signedInPage(browser(), creator, undefined, { colorScheme });
      await page.goto(`/messages?view=mass&lng=${lng}`);
      await hydrated(page);
      await page.getByTestId("mass-message").first().waitFor();
      expect([colorScheme, lng, await seriousViolations(page)]).toEqual([colorScheme, lng, []]);
      if (lng === "ar") expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    }
    const { page } = await signedInPage(browser(), creator);
    await page.goto("/messages?view=mass");
    await hydrated(page);
    const scheduled = page.getByTestId("mass-message").filter({ hasText: "Tomorrow's news" });
    expect(await scheduled.getAttribute("data-status")).toBe("scheduled");
    page.once("dialog", (dialog) => void dialog.accept());
    await scheduled.getByRole("button", { name: "Cancel" }).click();
    await page
      .locator('[data-testid="mass-message"][data-status="cancelled"]', { hasText: "Tomorrow's news" })
      .waitFor();
  });
});
