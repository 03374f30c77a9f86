import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
import {
  apiAs,
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

type Account = Awaited<ReturnType<typeof createAccount>>;
/** Paul offers $5.00 a month and $50.00 a year. */
let paul: Account;
let changer: Account;
let stayer: Account;
let leaver: Account;

const walletOf = async (account: Account) => {
  const response = await fetchWithin(`${baseURL()}/api/wallet`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  return (await response.json()) as { balanceCents: number; payments: { kind: string; amountCents: number }[] };
};

async function openProfile(page: Page) {
  await page.goto(`/${paul.username}`);
  await hydrated(page);
}

beforeAll(async () => {
  const tag = `os${unique().slice(-8)}`;
  paul = await createAccount({ username: `${tag}_paul`, name: "Paul Plans" });
  changer = await createAccount({ username: `${tag}_chg`, name: "Cleo Change" });
  stayer = await createAccount({ username: `${tag}_stay`, name: "Stan Stay" });
  leaver = await createAccount({ username: `${tag}_leave`, name: "Lou Leave" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${paul.username}';
     ${fundedFanSql(changer.username, 10_000)}
     ${fundedFanSql(stayer.username, 10_000)}
     ${fundedFanSql(leaver.username, 10_000)}`,
  );
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await apiAs(paul, "PUT", "/me/plans", {
    plans: [
      { period: "month", priceCents: 500 },
      { period: "year", priceCents: 5000 },
    ],
  });
  // Each fan subscribed to the monthly plan, $5.00 paid.
  for (const fan of [changer, stayer, leaver])
    await apiAs(fan, "POST", `/users/${paul.username}/subscribe`, {
      period: "month",
      priceCents: 500,
      idempotencyKey: crypto.randomUUID(),
    });
});

describe("a subscriber's plan change and the retention offer", () => {
  it("a subscriber changes to the yearly plan: it takes effect at the renewal, nothing is charged now, and the renewal charges the yearly price once", async () => {
    const { page, context } = await signedInPage(browser(), changer);
    await openProfile(page);
    const facts = page.locator("[data-subscription-facts]");
    await facts.getByText("Monthly · $5.00").waitFor();
    await page.getByRole("button", { name: "Change plan" }).click();
    const dialog = page.getByRole("dialog", { name: "Change plan" });
    const plans = dialog.getByRole("list", { name: "Subscription plans" });
    expect(await plans.getByRole("button").allTextContents()).toEqual([
      "MonthlyYour current plan$5.00",
      "Yearly$50.00",
    ]);
    // The current plan cannot be chosen again.
    expect(await plans.getByRole("button", { name: /^Monthly/ }).isDisabled()).toBe(true);
    await plans.getByRole("button", { name: /^Yearly/ }).click();
    await dialog.getByText(/^Yearly at \$50\.00\/year\. Takes effect on .+\. Nothing is charged now\.$/).waitFor();
    await dialog.getByRole("button", { name: "Change plan" }).click();
    await dialog.waitFor({ state: "detached" });
    await facts.getByText(/^Changes to Yearly \(\$50\.00\) on /).waitFor();
    await facts.getByText("Monthly · $5.00").waitFor();
    const before = await walletOf(changer);
    expect(before.balanceCents).toBe(9500);
    expect(before.payments.map((payment) => [payment.kind, payment.amountCents])).toEqual([
      ["subscription", 500],
      ["top_up", 10_000],
    ]);

    // The renewal comes; two cron runs charge the yearly price once.
    await sql(
      `UPDATE subscriptions SET current_period_end = '${new Date(Date.now() - 3_600_000).toISOString()}'
       WHERE fan_id = (SELECT id FROM users WHERE username = '${changer.username}') AND status = 'active';`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let run = 0; run < 2; run++) expect((await context.request.get("/__scheduled")).status()).toBe(200);
    const after = await walletOf(changer);
    expect(after.payments.filter((payment) => payment.kind === "renewal").map((p) => p.amountCents)).toEqual([5000]);
    expect(after.balanceCents).toBe(4500);
    await openProfile(page);
    await facts.getByText("Yearly · $50.00").waitFor();
    expect(await facts.getByText(/^Changes to /).count()).toBe(0);
  });

  it("the creator turns the retention offer on; a subscriber who cancels takes it and stays, another cancels anyway", async () => {
    const { page: desk } = await signedInPage(browser(), paul);
    await desk.goto("/dashboard/promotions");
    await hydrated(desk);
    const retention = desk.getByRole("region", { name: "Retention offer" });
    await retention.getByRole("checkbox", { name: "Offer a discount to fans who cancel" }).check();
    await retention.getByLabel("Percent off").fill("50");
    await retention.getByLabel("For how many renewals").fill("2");
    await retention.getByRole("button", { name: "Save retention offer" }).click();
    await retention.getByText("Your retention offer has been saved.").waitFor();
    await retention.getByText("On: 50% off the next 2 renewals").waitFor();

    // The first fan means to cancel, is offered to stay for less, and takes it: still subscribed, the discount ahead.
    const { page } = await signedInPage(browser(), stayer);
    await openProfile(page);
    await page.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel subscription" });
    await dialog.getByText("Stay for 50% off your next 2 renewals").waitFor();
    await dialog.getByRole("button", { name: "Stay with the offer" }).click();
    await dialog.waitFor({ state: "detached" });
    const facts = page.locator("[data-subscription-facts]");
    await facts.getByText("50% off your next 2 renewals").waitFor();
    await facts.getByText("Subscribed, renews on").waitFor();
    await page.getByRole("button", { name: "Cancel subscription" }).waitFor();
    // Nothing charged for staying; the next renewal costs half.
    expect((await walletOf(stayer)).balanceCents).toBe(9500);
    await sql(
      `UPDATE subscriptions SET current_period_end = '${new Date(Date.now() - 3_600_000).toISOString()}'
       WHERE fan_id = (SELECT id FROM users WHERE username = '${stayer.username}') AND status = 'active';`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await desk.context().request.get("/__scheduled")).status()).toBe(200);
    const wallet = await walletOf(stayer);
    expect(wallet.payments.filter((payment) => payment.kind === "renewal").map((p) => p.amountCents)).toEqual([250]);
    expect(wallet.balanceCents).toBe(9250);
    await openProfile(page);
    await facts.getByText("50% off your next renewal").waitFor();

    // The second fan declines the offer: cancelled, the access kept until the period's end.
    const { page: theirs } = await signedInPage(browser(), leaver);
    await openProfile(theirs);
    await theirs.getByRole("button", { name: "Cancel subscription" }).click();
    const theirDialog = theirs.getByRole("dialog", { name: "Cancel subscription" });
    await theirDialog.getByText("Stay for 50% off your next 2 renewals").waitFor();
    await theirDialog.getByRole("button", { name: "Cancel anyway" }).click();
    await theirDialog.waitFor({ state: "detached" });
    await theirs.getByText(/^Subscribed until /).waitFor();
    await theirs.getByRole("button", { name: "Resubscribe" }).waitFor();
    expect(await theirs.getByRole("button", { name: "Cancel subscription" }).count()).toBe(0);

    // The creator sees one claim, still subscribed.
    await desk.reload();
    await hydrated(desk);
    const figure = (name: string) =>
      retention.getByText(name, { exact: true }).locator("xpath=following-sibling::dd").textContent();
    expect(await figure("Claims")).toBe("1");
    expect(await figure("Still subscribed")).toBe("1");
  });
});
