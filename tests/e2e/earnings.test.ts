import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  baseURL,
  browserForThisFile,
  createAccount,
  fetchWithin,
  hydrated,
  recordFormattersBuilt,
  seriousViolations,
  signedInPage,
  sql,
} from "./support";
import { fundedFanSql } from "./money-support";

const browser = browserForThisFile();

async function tip(fanToken: string, creator: string, amountCents: number) {
  const response = await fetchWithin(`${baseURL()}/api/users/${creator}/tips`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${fanToken}` },
    body: JSON.stringify({ amountCents, idempotencyKey: crypto.randomUUID() }),
  });
  expect(response.status).toBe(200);
}

async function withdraw(page: Page, dollars: string, password: string) {
  await page.getByLabel("Amount in dollars").fill(dollars);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Request withdrawal" }).click();
}

describe("creator earnings and withdrawals", () => {
  it("shows the earnings, works offline, sets a payout method, withdraws once, and the admin pays it", async () => {
    const creator = await createAccount();
    const fan = await createAccount();
    const admin = await createAccount();
    await sql(
      `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '2026-01-01T00:00:00.000Z' WHERE username = '${creator.username}';
       UPDATE users SET email_verified_at = '2026-01-01T00:00:00.000Z' WHERE username = '${fan.username}';
       UPDATE users SET role = 'admin' WHERE username = '${admin.username}';`,
    );
    await sql(fundedFanSql(fan.username, 16_000));
    await tip(fan.token, creator.username, 10_000);
    // That first tip ($80.00 net) is made available as if its 7 business days had passed; the second stays held.
    await sql(
      `UPDATE earnings SET release_at = '2000-01-01T00:00:00.000Z' WHERE creator_id = (SELECT id FROM users WHERE username = '${creator.username}')`,
    );
    await tip(fan.token, creator.username, 5000);
    const { page, context } = await signedInPage(browser(), creator, undefined, { serviceWorkers: "allow" });
    expect((await context.request.get("/__scheduled")).status()).toBe(200);

    // The cron's work runs in waitUntil: wait for the release to show.
    await expect
      .poll(
        async () => {
          await page.goto("/dashboard");
          return page.getByTestId("available-balance").textContent();
        },
        { timeout: 10_000 },
      )
      .toBe("$80.00");
    await hydrated(page);
    expect(await page.getByTestId("pending-balance").textContent()).toBe("$40.00");
    const today = page.getByRole("region", { name: "Today" });
    expect(await today.textContent()).toContain("$120.00");
    await page.getByText(/Becomes available on .*: \$40\.00/).waitFor();
    await page.getByText("Amounts are what you keep, after the platform fee of 20%.").waitFor();
    await page.getByRole("img", { name: "Earnings of the last 30 days by source" }).waitFor();
    // A tip while the page is open shows without a reload: the creator's notification refreshes the figures.
    await tip(fan.token, creator.username, 1000);
    await expect.poll(() => page.getByTestId("pending-balance").textContent()).toBe("$48.00");
    expect(await seriousViolations(page)).toEqual([]);

    // Visited once, the overview reloads offline with its figures (the service worker's pages cache).
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === "activated", null, {
      timeout: 20_000,
    });
    await page.reload();
    // The worker keeps the answer after handing it over: wait until the kept copy has today's figures.
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.match("/dashboard"))?.text()) ?? ""))
      .toContain("$80.00");
    await context.setOffline(true);
    // The network is really cut, for the service worker's fetches too: an address never visited gets the
    // offline page, not the server's answer.
    await page.goto("/dashboard?never-visited=1");
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    await page.goto("/dashboard");
    expect(await page.getByTestId("available-balance").textContent()).toBe("$80.00");
    expect(await page.getByTestId("pending-balance").textContent()).toBe("$48.00");
    await context.setOffline(false);

    await page.goto("/dashboard/payout-methods");
    await hydrated(page);
    const paypalEmail = `${creator.username.replace(/\W/g, "")}@paypal.example.com`;
    await page.getByLabel("PayPal email", { exact: true }).fill(paypalEmail);
    await page.getByLabel("Confirm PayPal email").fill(`x${paypalEmail}`);
    await page.getByLabel("Password").fill(creator.password);
    await page.getByRole("button", { name: "Save payout method" }).click();
    await page.getByText("The email addresses do not match.").first().waitFor();
    await page.getByLabel("Confirm PayPal email").fill(paypalEmail);
    await page.getByRole("button", { name: "Save payout method" }).click();
    await page.getByText("Your payout method has been saved.").waitFor();
    expect(await page.getByTestId("current-payout-method").textContent()).toBe(
      `PayPal ${paypalEmail[0]}•••@paypal.example.com`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto("/dashboard/withdraw");
    await hydrated(page);
    await withdraw(page, "abc", creator.password);
    await page.getByText("Enter an amount in dollars, like 12.50.").waitFor();
    await withdraw(page, "100000000", creator.password);
    await page.getByText("A withdrawal can be at most $9,999,999.99.").waitFor();
    await withdraw(page, "0", creator.password);
    await page.getByText("The minimum withdrawal is $50.00.").waitFor();
    await withdraw(page, "9999999", creator.password);
    await page.getByText(/^You can withdraw at most \$[\d,.]+\.$/).waitFor();
    await withdraw(page, "20", creator.password);
    await page.getByText("The minimum withdrawal is $50.00.").waitFor();
    // Offline the form says so and stays, with what was typed; nothing is requested.
    await context.setOffline(true);
    await withdraw(page, "60", creator.password);
    await page.getByText("You are offline. Payments need a connection; nothing was charged.").waitFor();
    expect(await page.getByLabel("Amount in dollars").inputValue()).toBe("60");
    await context.setOffline(false);
    await withdraw(page, "60", creator.password);
    await page.getByText("Your withdrawal request of $60.00 has been sent.").waitFor();
    // The request made, the form is empty again: its amount is not left for another.
    expect(await page.getByLabel("Amount in dollars").inputValue()).toBe("");
    await page.getByRole("region", { name: "Your pending request" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await withdraw(page, "15", creator.password);
    await page
      .getByText("You already have a withdrawal request pending. You can request another once it is processed.")
      .waitFor();

    const adminView = await signedInPage(browser(), admin);
    await adminView.page.goto("/admin/payouts");
    await hydrated(adminView.page);
    const item = adminView.page.getByRole("listitem", { name: `Payout to @${creator.username}` });
    expect(await item.textContent()).toContain(paypalEmail);
    expect(await item.textContent()).toContain("$60.00");
    expect(await seriousViolations(adminView.page)).toEqual([]);
    await item.getByRole("button", { name: "Mark paid" }).click();
    await adminView.page.getByText("The payout was marked paid.").waitFor();
    await item.waitFor({ state: "detached" });

    await page.goto("/dashboard/payouts");
    await hydrated(page);
    const row = page.getByTestId("payout-row");
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toMatch(/Paid.*\$60\.00/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("keeps the days and amounts the server wrote while hydrating, in English and German: no formatter built", async () => {
    const creator = await createAccount();
    const fan = await createAccount();
    await sql(
      `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '2026-01-01T00:00:00.000Z' WHERE username = '${creator.username}';
       UPDATE users SET email_verified_at = '2026-01-01T00:00:00.000Z' WHERE username = '${fan.username}';`,
    );
    await sql(fundedFanSql(fan.username, 5000));
    await tip(fan.token, creator.username, 2500);
    for (const [language, kept, day] of [
      ["en", "$20.00", /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/],
      ["de", "20,00\u00a0$", /^\d{1,2}\. [A-ZÄÖÜ][a-zäöü]{2,3}\.? \d{4}$/],
    ] as const) {
      const { page, context } = await signedInPage(browser(), creator);
      await context.addCookies([{ name: "i18nextLng", value: language, url: baseURL() }]);
      const formattersBuilt = await recordFormattersBuilt(page);
      const html = await (await page.request.get("/dashboard")).text();
      await page.goto("/dashboard");
      await hydrated(page);
      // The pending tip's release ("Becomes available on {day}: $20.00") and the chart's days: the server's texts.
      const release = page.locator("li", { hasText: kept });
      expect(await release.count()).toBe(1);
      expect(html).toContain(`>${await release.textContent()}</li>`);
      const days = await page.locator("figure time[datetime]").allTextContents();
      expect(days.length).toBeGreaterThan(30);
      for (const text of new Set(days)) {
        expect(text).toMatch(day);
        expect(html).toContain(`>${text}</time>`);
      }
      expect((await formattersBuilt()).filter((entry) => entry.endsWith("while hydrating"))).toEqual([]);
      await context.close();
    }
  });

  it("on a phone, the chart's table for screen readers takes no room: the page ends where its content does", async () => {
    const creator = await createAccount();
    await sql(`UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE username = '${creator.username}'`);
    const { page } = await signedInPage(browser(), creator, { width: 390, height: 844 });
    await page.goto("/dashboard");
    await hydrated(page);
    const table = page.getByRole("table", { name: "Earnings of the last 30 days by source" });
    // Still there for screen readers, with a row per day…
    expect(await table.getByRole("row").count()).toBeGreaterThan(30);
    // …and nothing of it can be scrolled to: the page ends with the content (and the room the bottom bar covers).
    const [contentEnd, pageHeight, pageWidth] = await page.evaluate(() => [
      window.scrollY + document.querySelector('[data-shell="content"]')!.getBoundingClientRect().bottom,
      document.documentElement.scrollHeight,
      document.documentElement.scrollWidth,
    ]);
    expect(pageHeight).toBeLessThanOrEqual(Math.ceil(contentEnd!) + 100);
    expect(pageWidth).toBeLessThanOrEqual(390);
  });
});
