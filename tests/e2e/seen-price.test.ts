import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql, verifiedFanSql } from "./money-support";
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
let fan: Account;
let poorFan: Account;
let liveFan: Account;
let creator: Account;

const walletOf = async (account: Account) => {
  const response = await fetchWithin(`${baseURL()}/api/wallet`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  return (await response.json()) as { balanceCents: number; payments: { kind: string; amountCents: number }[] };
};

beforeAll(async () => {
  const tag = `pr${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan`, name: "Fiona Fan" });
  poorFan = await createAccount({ username: `${tag}_poor`, name: "Pat Poor" });
  liveFan = await createAccount({ username: `${tag}_live`, name: "Lee Live" });
  creator = await createAccount({ username: `${tag}_star`, name: "Sam Star" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${creator.username}';
     ${fundedFanSql(fan.username, 30_000)}
     ${verifiedFanSql(poorFan.username)}
     ${fundedFanSql(liveFan.username, 1000)}`,
  );
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await apiAs(creator, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 500 }], messagePriceCents: 250 });
});

describe("the price shown is the price charged", () => {
  it("the subscribe dialog refuses a price the creator raised meanwhile, shows the new one, and charges it once confirmed", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByRole("button", { name: /^Subscribe ·/ }).click();
    const dialog = page.getByRole("dialog", { name: "Subscribe to Sam Star" });
    await dialog.getByRole("button", { name: /Monthly/ }).click();
    await dialog.getByText("$5.00 is paid from your wallet now, then at each renewal until you cancel.").waitFor();

    // The page's own reads again wait until the refusal is shown: the refusal is the only way the page learns the price.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.data(\?|$)/, async (route) => {
      if (route.request().method() === "GET") await released;
      await route.continue().catch(() => {});
    });
    // Meanwhile, on the creator's side, the plan goes up to $200.
    const creatorView = await signedInPage(browser(), creator);
    await creatorView.page.goto("/dashboard/plans");
    await hydrated(creatorView.page);
    await creatorView.page.getByRole("group", { name: "Monthly" }).getByLabel("Price in dollars").fill("200");
    await creatorView.page.getByRole("button", { name: "Save plans" }).click();
    await creatorView.page.getByText("Your plans have been saved.").waitFor();
    await creatorView.context.close();

    // The fan confirms the $5.00 they saw: refused, the dialog now shows $200.00, nothing charged.
    await dialog.getByRole("button", { name: "Pay and subscribe" }).click();
    await dialog
      .getByRole("alert")
      .filter({ hasText: "The price changed to $200.00. Check it and try again." })
      .waitFor();
    await dialog.getByText("$200.00 is paid from your wallet now, then at each renewal until you cancel.").waitFor();
    expect(
      await dialog.getByRole("list", { name: "Subscription plans" }).getByRole("button").allTextContents(),
    ).toEqual(["Monthly$200.00"]);
    release();
    await page.unroute(/\.data(\?|$)/);
    expect(await walletOf(fan)).toMatchObject({
      balanceCents: 30_000,
      payments: [expect.objectContaining({ kind: "top_up" })],
    });

    // Confirmed again, at the price now shown: subscribed, charged $200 once.
    await dialog.getByRole("button", { name: "Pay and subscribe" }).click();
    await page.getByText("Subscribed, renews on").waitFor();
    const wallet = await walletOf(fan);
    expect(wallet.balanceCents).toBe(10_000);
    expect(
      wallet.payments.filter((payment) => payment.kind === "subscription").map((payment) => payment.amountCents),
    ).toEqual([20_000]);
    await context.close();
  });

  it("a chat's Send says what a message costs; a price raised meanwhile is refused and shown, and the creator's copy shows it was paid", async () => {
    const conversation = await apiAs(fan, "POST", "/conversations", { username: creator.username });
    const { page, context } = await signedInPage(browser(), fan);
    // The page reads its data again when the sidebar's counts move (the thread opened, marked read), and the
    // thread reads its conversation once its socket is open: both held from before the page opens until the
    // refusal is shown (a read already on its way when the price changes would bring the new price), so the only
    // way the page can learn the new price is the refusal itself.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = /\.data(\?|$)|\/api\/conversations\/\d+$/;
    await page.route(held, async (route) => {
      if (route.request().method() === "GET") await released;
      await route.continue().catch(() => {});
    });
    await page.goto(`/messages/${conversation.id as number}`);
    await hydrated(page);
    const send = page.getByTestId("send-button");
    expect(await send.textContent()).toBe("Send · $2.50");

    await apiAs(creator, "PUT", "/me/plans", {
      plans: [{ period: "month", priceCents: 20_000 }],
      messagePriceCents: 300,
    });
    const before = (await walletOf(fan)).balanceCents;
    await page.getByTestId("composer-input").fill("Hello there");
    expect(await send.textContent()).toBe("Send · $2.50");
    await send.click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Sending a message here now costs $3.00: it was not sent." })
      .waitFor();
    await page.getByText("Send · $3.00").waitFor();
    release();
    await page.unroute(held);
    expect(await page.getByTestId("composer-input").inputValue()).toBe("Hello there");
    expect((await walletOf(fan)).balanceCents).toBe(before);

    await send.click();
    await page.getByTestId("message").filter({ hasText: "Hello there" }).getByText("Paid $3.00").waitFor();
    expect((await walletOf(fan)).balanceCents).toBe(before - 300);
    await context.close();

    const creatorView = await signedInPage(browser(), creator);
    await creatorView.page.goto(`/messages/${conversation.id as number}`);
    await hydrated(creatorView.page);
    await creatorView.page
      .getByTestId("message")
      .filter({ hasText: "Hello there" })
      .getByTestId("message-paid")
      .filter({ hasText: "Paid $3.00" })
      .waitFor();
    // The creator writes for free: a plain Send.
    expect(await creatorView.page.getByTestId("send-button").textContent()).toBe("Send");
    await creatorView.context.close();
  });

  it("the tip dialog's button says the amount; a top-up started from the subscribe dialog comes back to the profile", async () => {
    const { page, context } = await signedInPage(browser(), poorFan);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Tip", exact: true }).click();
    const tipDialog = page.getByRole("dialog", { name: "Send a tip to Sam Star" });
    // No amount yet: a plain Send.
    await tipDialog.getByRole("button", { name: "Send", exact: true }).waitFor();
    await tipDialog.getByRole("button", { name: "$5.00" }).click();
    await tipDialog.getByRole("button", { name: "Send $5.00", exact: true }).waitFor();
    await tipDialog.getByLabel(/Amount/).fill("12,50");
    await tipDialog.getByRole("button", { name: "Send $12.50", exact: true }).waitFor();
    await tipDialog.getByRole("button", { name: "Close" }).last().click();

    await page.getByRole("button", { name: /^Subscribe ·/ }).click();
    const dialog = page.getByRole("dialog", { name: "Subscribe to Sam Star" });
    await dialog.getByRole("button", { name: /Monthly/ }).click();
    await dialog.getByRole("button", { name: "Pay and subscribe" }).click();
    await dialog
      .getByRole("alert")
      .filter({ hasText: "You need to fund your wallet!" })
      .getByRole("link", { name: "Top up your wallet" })
      .click();
    await page.waitForURL(/\/wallet$/);
    await hydrated(page);
    await page.getByLabel("Amount (USD)").fill("250");
    await page.getByRole("button", { name: "Top up", exact: true }).click();
    await page.waitForURL(/\/wallet\/top-up\/\d+$/);
    await hydrated(page);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/39");
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByLabel("Name on the card").fill("Pat Poor");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForURL(new RegExp(`/${creator.username}$`));
    await page.getByRole("button", { name: /^Subscribe ·/ }).waitFor();
    expect((await walletOf(poorFan)).balanceCents).toBe(25_000);
    await context.close();
  });

  it("the live entry page refuses an entry price raised meanwhile, shows the new one on its button, and charges it once confirmed", async () => {
    const stream = (await apiAs(creator, "POST", "/live", {
      title: "Paid evening",
      audience: "everyone",
      priceCents: 300,
    })) as { id: number };
    try {
      const { page, context } = await signedInPage(browser(), liveFan);
      await page.goto(`/live/${stream.id}/join`);
      await hydrated(page);
      await page.getByText("Entry: $3.00").waitFor();

      // Meanwhile the entry price goes up to $5.00 (no screen or API changes a running stream's price: the database).
      await sql(`UPDATE live_streams SET price_cents = 500 WHERE id = ${stream.id};`);
      // As in beforeAll: let a kept-alive socket closed during the blocking sql() be noticed.
      await new Promise((resolve) => setTimeout(resolve, 20));

      // The fan pays the $3.00 they saw: refused, the page now says $5.00, nothing charged.
      await page.getByRole("button", { name: "Pay $3.00 and watch" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "The price changed to $5.00. Check it and try again." })
        .waitFor();
      await page.getByRole("button", { name: "Pay $5.00 and watch" }).waitFor();
      await page.getByText("Entry: $5.00").waitFor();
      expect(await walletOf(liveFan)).toMatchObject({
        balanceCents: 1000,
        payments: [expect.objectContaining({ kind: "top_up" })],
      });

      // Confirmed at the price now shown: in, charged $5.00 once.
      await page.getByRole("button", { name: "Pay $5.00 and watch" }).click();
      await page.waitForURL(`**/live/${stream.id}`);
      await page.getByRole("heading", { name: "Paid evening" }).waitFor();
      const wallet = await walletOf(liveFan);
      expect(wallet.balanceCents).toBe(500);
      expect(
        wallet.payments.filter((payment) => payment.kind === "live").map((payment) => payment.amountCents),
      ).toEqual([500]);
      await context.close();
    } finally {
      await apiAs(creator, "POST", `/live/${stream.id}/end`);
    }
  });
});
