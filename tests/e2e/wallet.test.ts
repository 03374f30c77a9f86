import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  newContext,
  recordFormattersBuilt,
  seriousViolations,
  signedInPage,
  sql,
  unique,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
let fan: Account;
let unverified: Account;
let tag: string;

beforeAll(async () => {
  tag = `wa${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan` });
  unverified = await createAccount({ username: `${tag}_new` });
  await sql(`UPDATE users SET email_verified_at = '${new Date().toISOString()}' WHERE username = '${fan.username}';`);
});

async function openWallet(page: Page) {
  await page.goto("/wallet");
  await hydrated(page);
}

/** Fills and sends the sandbox card form; a page without JavaScript never hydrates, so it is not waited for. */
async function payWithCard(page: Page, cardNumber: string, { javaScript = true } = {}) {
  await page.waitForURL(/\/wallet\/top-up\/\d+$/);
  if (javaScript) await hydrated(page);
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry (MM/YY)").fill("12/39");
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByLabel("Name on the card").fill("Ada Fan");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
}

const balance = (page: Page) => page.locator("[data-balance]").textContent();

describe("wallet top-ups with the sandbox card form", () => {
  it("a verified member tops up $25 with the success card and sees the balance and the history line", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await openWallet(page);
    expect(await balance(page)).toBe("$0.00");
    await page.getByLabel("Amount (USD)").fill("2");
    await page.getByRole("button", { name: "Top up", exact: true }).click();
    await page.getByText("A top-up is between $5.00 and $1,000.00.").waitFor();

    // Offline, the form says nothing was charged; the wallet stays on screen with what was typed, and nothing starts.
    await context.setOffline(true);
    await page.getByLabel("Amount (USD)").fill("12");
    await page.getByRole("button", { name: "Top up", exact: true }).click();
    await page.getByText("You are offline. Payments need a connection; nothing was charged.").waitFor();
    expect(await balance(page)).toBe("$0.00");
    expect(await page.getByLabel("Amount (USD)").inputValue()).toBe("12");
    await context.setOffline(false);

    await page.getByLabel("Amount (USD)").fill("25");
    await page.getByRole("button", { name: "Top up", exact: true }).click();
    await page.waitForURL(/\/wallet\/top-up\/\d+$/);
    await page.getByText("4242 4242 4242 4242").waitFor();
    await payWithCard(page, "4242 4242 4242 4241");
    await page.getByText("Invalid card number.").waitFor();
    await payWithCard(page, "4242 4242 4242 4242");

    await page.waitForURL(/\/wallet\?topUp=\d+$/);
    await page.getByRole("status").filter({ hasText: "Your wallet was topped up with $25.00." }).waitFor();
    expect(await balance(page)).toBe("$25.00");
    const line = page.locator("li[data-payment]").first();
    expect(await line.textContent()).toMatch(/Top-up.*\+\$25\.00.*Succeeded/);
    await context.close();
  });

  it("the card form writes what is typed on a number keypad as a card: the number in fours, 1239 as 12/39", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await openWallet(page);
    await page.getByLabel("Amount (USD)").fill("10");
    await page.getByRole("button", { name: "Top up", exact: true }).click();
    await page.waitForURL(/\/wallet\/top-up\/\d+$/);
    await hydrated(page);
    const number = page.getByLabel("Card number");
    const expiry = page.getByLabel("Expiry (MM/YY)");
    expect(await expiry.getAttribute("inputmode")).toBe("numeric");
    await number.pressSequentially("4242424242424242");
    expect(await number.inputValue()).toBe("4242 4242 4242 4242");
    await expiry.pressSequentially("1239");
    expect(await expiry.inputValue()).toBe("12/39");
    // The slash can be taken back, and a digit typed in the middle of the number keeps the caret after it.
    await expiry.press("Backspace");
    await expiry.press("Backspace");
    await expiry.press("Backspace");
    expect(await expiry.inputValue()).toBe("1");
    await expiry.pressSequentially("239");
    expect(await expiry.inputValue()).toBe("12/39");
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByLabel("Name on the card").fill("Ada Fan");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/wallet\?topUp=\d+$/);
    await page.getByRole("status").filter({ hasText: "Your wallet was topped up with $10.00." }).waitFor();
    await context.close();
  });

  it("the declined card shows the reason, and the failed top-up stays in the history", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await openWallet(page);
    const before = await balance(page);
    await page.getByRole("button", { name: "Top up $10.00" }).click();
    await payWithCard(page, "4000 0000 0000 0002");
    await page
      .getByRole("alert")
      .filter({ hasText: "Your top-up of $10.00 failed. Your card was declined." })
      .waitFor();
    await page.getByRole("link", { name: "Try again from the wallet" }).click();
    await page.waitForURL(/\/wallet$/);
    await hydrated(page);
    expect(await balance(page)).toBe(before);
    expect(await page.locator("li[data-payment]").first().textContent()).toMatch(
      /Top-up.*Your card was declined\..*\$10\.00.*Failed/,
    );
    await context.close();
  });

  it("the confirmation card needs the extra step before the wallet is credited", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await openWallet(page);
    const before = Number((await balance(page))!.replace(/[$,]/g, ""));
    await page.getByLabel("Amount (USD)").fill("12,50");
    await page.getByRole("button", { name: "Top up", exact: true }).click();
    // Left at the card form without paying: the pending top-up in the history leads back to it.
    await page.waitForURL(/\/wallet\/top-up\/\d+$/);
    const checkout = page.url();
    await hydrated(page);
    await page.getByRole("link", { name: "Back to the wallet" }).click();
    await page.waitForURL(/\/wallet$/);
    await hydrated(page);
    const pending = page.locator("li[data-payment]").first();
    expect(await pending.textContent()).toMatch(/Top-up.*\+\$12\.50.*Pending/);
    await pending.getByRole("link", { name: "Complete payment" }).click();
    await page.waitForURL(checkout);
    await payWithCard(page, "4000 0025 0000 3155");
    await page.getByRole("heading", { name: "Confirm this payment" }).waitFor();
    expect(await page.getByText("Your bank asks you to confirm the payment of $12.50 to your wallet.").count()).toBe(1);
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await page.waitForURL(/\/wallet\?topUp=\d+$/);
    await page.getByRole("status").filter({ hasText: "Your wallet was topped up with $12.50." }).waitFor();
    expect(await balance(page)).toBe(`$${(before + 12.5).toFixed(2)}`);
    // Paid, the line no longer offers the card form.
    expect(await page.locator("li[data-payment]").first().textContent()).toMatch(/Top-up.*\+\$12\.50.*Succeeded/);
    expect(await page.locator("li[data-payment]").first().getByRole("link").count()).toBe(0);
    await context.close();
  });

  it("a top-up left at the card form for an hour expires: the history says so and no longer leads to the form", async () => {
    const account = await createAccount({ username: `${tag}_late` });
    await sql(
      `UPDATE users SET email_verified_at = '${new Date().toISOString()}' WHERE username = '${account.username}';`,
    );
    const { page, context } = await signedInPage(browser(), account);
    await openWallet(page);
    await page.getByRole("button", { name: "Top up $10.00" }).click();
    await page.waitForURL(/\/wallet\/top-up\/\d+$/);
    const id = /(\d+)$/.exec(page.url())![1]!;
    await openWallet(page);
    const line = page.locator(`li[data-payment="${id}"]`);
    expect(await line.getByRole("link", { name: "Complete payment" }).getAttribute("href")).toBe(
      `/wallet/top-up/${id}`,
    );
    // An hour later the card form is no longer offered, even before the cron has failed the top-up.
    await sql(`UPDATE payments SET created_at = '${new Date(Date.now() - 3_660_000).toISOString()}' WHERE id = ${id};`);
    await openWallet(page);
    expect(await line.getByRole("link").count()).toBe(0);
    // The cron fails it as not completed in time.
    expect((await context.request.get("/__scheduled")).status()).toBe(200);
    await openWallet(page);
    expect(await line.textContent()).toMatch(/Top-up.*The payment was not completed in time\..*\+\$10\.00.*Failed/);
    expect(await line.getByRole("link").count()).toBe(0);
    await context.close();
  });

  it("an unverified member is told to verify the email before topping up", async () => {
    const { page, context } = await signedInPage(browser(), unverified);
    await openWallet(page);
    await page.getByText("Your email didn't verified yet.").waitFor();
    await page.getByRole("link", { name: "Verify your email to top up your wallet." }).waitFor();
    expect(await page.getByRole("button", { name: "Top up", exact: true }).count()).toBe(0);
    await context.close();
  });

  it("works without JavaScript: a preset amount, the card form and the way back are plain forms", async () => {
    const account = await createAccount({ username: `${tag}_nojs` });
    await sql(
      `UPDATE users SET email_verified_at = '${new Date().toISOString()}' WHERE username = '${account.username}';`,
    );
    const context = await newContext(browser(), { javaScriptEnabled: false });
    const login = await context.request.post("/api/login", {
      data: { login: account.email, password: account.password },
    });
    expect(login.ok()).toBe(true);
    const page = await context.newPage();
    await page.goto("/wallet");
    await page.getByRole("button", { name: "Top up $50.00" }).click();
    await payWithCard(page, "4242 4242 4242 4242", { javaScript: false });
    await page.waitForURL(/\/wallet\?topUp=\d+$/);
    await page.getByText("Your wallet was topped up with $50.00.").waitFor();
    expect(await balance(page)).toBe("$50.00");
    await context.close();
  });

  it("writes its amounts without building a currency formatter while hydrating, as the server wrote them, in English and German", async () => {
    const account = await createAccount({ username: `${tag}_fmt` });
    const at = new Date().toISOString();
    const owner = `(SELECT id FROM users WHERE username = '${account.username}')`;
    const rows = [500, 123_456, 99].map(
      (cents, i) =>
        `(${owner}, 'top_up', ${cents}, 'failed', 'sandbox', 'Your card was declined.', 'u:fmt-${tag}-${i}', 'seed', '${at}', '${at}')`,
    );
    await sql(
      `INSERT INTO payments (user_id, kind, amount_cents, status, provider, failure_reason, idempotency_key, request_hash, created_at, updated_at) VALUES ${rows.join(", ")};`,
    );
    for (const language of ["en", "de"]) {
      const { page, context } = await signedInPage(browser(), account);
      await context.addCookies([{ name: "i18nextLng", value: language, url: baseURL() }]);
      // The first Intl formatter a browser builds loads ICU's data (a long task on a phone): none while hydrating.
      const formattersBuilt = await recordFormattersBuilt(page);
      const html = await (await page.request.get("/wallet")).text();
      await openWallet(page);
      const lines = await page.locator("li[data-payment]").allTextContents();
      expect(lines).toHaveLength(3);
      const amounts =
        language === "en" ? ["$0.99", "$1,234.56", "$5.00"] : ["0,99\u00a0$", "1.234,56\u00a0$", "5,00\u00a0$"];
      for (const amount of amounts) {
        expect(
          lines.some((line) => line.includes(amount)),
          amount,
        ).toBe(true);
        expect(html).toContain(amount);
      }
      expect((await formattersBuilt()).filter((entry) => entry.endsWith("while hydrating"))).toEqual([]);
      await context.close();
    }
  });

  it("lists 20 payments, then the rest on Load more; the wallet and the card form pass axe", async () => {
    const account = await createAccount({ username: `${tag}_many` });
    const at = new Date().toISOString();
    const owner = `(SELECT id FROM users WHERE username = '${account.username}')`;
    const rows = Array.from(
      { length: 23 },
      (_, i) =>
        `(${owner}, 'top_up', ${(i + 5) * 100}, 'failed', 'sandbox', 'Your card was declined.', 'u:seed-${tag}-${i}', 'seed', '${at}', '${at}')`,
    );
    await sql(
      `UPDATE users SET email_verified_at = '${at}' WHERE username = '${account.username}';
       INSERT INTO payments (user_id, kind, amount_cents, status, provider, failure_reason, idempotency_key, request_hash, created_at, updated_at) VALUES ${rows.join(", ")};`,
    );
    // Each pass starts one more (pending) top-up from the card form.
    for (const [pass, colorScheme] of (["light", "dark"] as const).entries()) {
      const total = 23 + pass;
      const { page, context } = await signedInPage(browser(), account, { width: 1440, height: 900 }, { colorScheme });
      await openWallet(page);
      expect(await page.locator("li[data-payment]").count()).toBe(20);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Load more" }).click();
      await page
        .locator("li[data-payment]")
        .nth(total - 1)
        .waitFor();
      expect(await page.locator("li[data-payment]").count()).toBe(total);
      expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
      await page.getByRole("button", { name: "Top up $10.00" }).click();
      await page.waitForURL(/\/wallet\/top-up\/\d+$/);
      await hydrated(page);
      await page.getByRole("button", { name: /^Pay \$/ }).click();
      await page.getByText("Invalid card number.").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it("opens the card form for its owner only, and answers odd addresses with a 4xx", async () => {
    const started = await fetchWithin(`${baseURL()}/api/wallet/top-ups`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${fan.token}` },
      body: JSON.stringify({ amountCents: 700, idempotencyKey: crypto.randomUUID() }),
    });
    const { payment } = (await started.json()) as { payment: { id: number } };
    const other = await createAccount({ username: `${tag}_other` });
    const { page, context } = await signedInPage(browser(), other);
    for (const path of [
      `/wallet/top-up/${payment.id}`,
      "/wallet/top-up/abc",
      "/wallet/top-up/99999999",
      "/wallet/top-up/0",
    ]) {
      expect((await page.request.get(path, { maxRedirects: 0 })).status(), path).toBe(404);
    }
    expect((await page.request.get("/wallet?topUp=%E0%A4%A")).status()).toBe(200);
    expect((await page.request.get(`/wallet?topUp=${payment.id}`)).status()).toBe(200);
    await page.goto(`/wallet?topUp=${payment.id}`);
    expect(await page.getByText("$7.00").count()).toBe(0);
    const owner = await signedInPage(browser(), fan);
    const own = await owner.page.request.get(`/wallet/top-up/${payment.id}`);
    expect(own.status()).toBe(200);
    expect(own.headers()["cache-control"]).toBe("no-store");
    await owner.context.close();
    await context.close();
  });

  it("a top-up still processing on return shows its outcome as soon as the provider reports it", async () => {
    const headers = { "Content-Type": "application/json", Authorization: `Bearer ${fan.token}` };
    const started = await fetchWithin(`${baseURL()}/api/wallet/top-ups`, {
      method: "POST",
      headers,
      body: JSON.stringify({ amountCents: 900, idempotencyKey: crypto.randomUUID() }),
    });
    const { payment } = (await started.json()) as { payment: { id: number } };
    const { page, context } = await signedInPage(browser(), fan);
    await page.goto(`/wallet?topUp=${payment.id}`);
    await hydrated(page);
    await page.getByText("Your top-up of $9.00 is being processed.", { exact: false }).waitFor();
    const before = await balance(page);
    // The provider's outcome arrives while the page is open (here the sandbox's, paid from another device).
    const card = { cardNumber: "4242424242424242", expiry: "12/39", cvc: "123", name: "Ada Fan" };
    expect(
      (
        await fetchWithin(`${baseURL()}/api/wallet/top-ups/${payment.id}/card`, {
          method: "POST",
          headers,
          body: JSON.stringify(card),
        })
      ).status,
    ).toBe(200);
    await page.getByText("Your wallet was topped up with $9.00.").waitFor({ timeout: 10_000 });
    expect(await balance(page)).not.toBe(before);
    await context.close();
  });

  it("answers junk posted to the wallet's forms with a 4xx and no payment", async () => {
    const account = await createAccount({ username: `${tag}_junk` });
    await sql(
      `UPDATE users SET email_verified_at = '${new Date().toISOString()}' WHERE username = '${account.username}';`,
    );
    const { page, context } = await signedInPage(browser(), account);
    await openWallet(page);
    const csrf = (await page.locator('input[name="_csrf"]').first().getAttribute("value"))!;
    const started = await page.request.post("/api/wallet/top-ups", {
      headers: { "X-CSRF-Token": csrf },
      data: { amountCents: 600, idempotencyKey: crypto.randomUUID() },
    });
    const { payment } = (await started.json()) as { payment: { id: number } };
    const forms: Record<string, string>[] = [
      { amount: "lots", idempotencyKey: crypto.randomUUID() },
      { presetCents: "-5", idempotencyKey: crypto.randomUUID() },
      { presetCents: "99999999", idempotencyKey: crypto.randomUUID() },
      { amount: "25" },
      { intent: "pay", cardNumber: "x".repeat(5000) },
      { intent: "refund" },
      {},
    ];
    for (const path of ["/wallet", `/wallet/top-up/${payment.id}`]) {
      for (const form of forms) {
        const response = await page.request.post(path, { headers: { "X-CSRF-Token": csrf }, form, maxRedirects: 0 });
        expect(response.status(), `${path} ${JSON.stringify(form).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
        expect(response.status()).toBeLessThan(500);
      }
      const junk = await page.request.post(path, {
        headers: { "X-CSRF-Token": csrf, "Content-Type": "application/json" },
        data: "{",
        maxRedirects: 0,
      });
      expect(junk.status()).toBeLessThan(500);
    }
    const wallet = (await (await page.request.get("/api/wallet")).json()) as {
      balanceCents: number;
      payments: { status: string }[];
    };
    expect(wallet.balanceCents).toBe(0);
    expect(wallet.payments.map((p) => p.status)).toEqual(["pending"]);
    await context.close();
  });
});
