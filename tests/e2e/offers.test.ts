import type { BrowserContext, Page } from "playwright-core";
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
let tag: string;
/** Olga's monthly plan is $10.00; she runs a promotion, trial links and bundles. */
let olga: Account;
let trialFan: Account;
let bundleFan: Account;
let giver: Account;
let recipient: Account;

const walletOf = async (account: Account) => {
  const response = await fetchWithin(`${baseURL()}/api/wallet`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  return (await response.json()) as { balanceCents: number; payments: { kind: string; amountCents: number }[] };
};

/** The amounts of the payments of `kind` in the account's wallet history, newest first. */
const paymentsOf = async (account: Account, kind: string) =>
  (await walletOf(account)).payments.filter((payment) => payment.kind === kind).map((payment) => payment.amountCents);

/** `days` days from today, as a date input takes it ("2030-05-31"), in this machine's (and the browser's) time zone. */
function dayFromToday(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** "$1,234.56" as cents. */
const centsOf = (text: string | null) => Math.round(Number((text ?? "").replace(/[^\d.]/g, "")) * 100);

/**
 * The subscription of `fan` to `creator` has come to its renewal (and a free trial to its end): its dates moved an
 * hour into the past, as the clock would have moved them.
 */
async function reachRenewal(fan: Account, creator: Account) {
  const past = new Date(Date.now() - 3_600_000).toISOString();
  await sql(
    `UPDATE subscriptions SET current_period_end = '${past}',
       trial_ends_at = CASE WHEN trial_ends_at IS NULL THEN NULL ELSE '${past}' END
     WHERE fan_id = (SELECT id FROM users WHERE username = '${fan.username}')
       AND creator_id = (SELECT id FROM users WHERE username = '${creator.username}')
       AND status = 'active';`,
  );
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The cron's run on the test server, answered once its jobs are done. */
async function runCron(context: BrowserContext) {
  const response = await context.request.get("/__scheduled");
  expect(response.status()).toBe(200);
}

async function openProfile(page: Page, creator: Account) {
  await page.goto(`/${creator.username}`);
  await hydrated(page);
}

beforeAll(async () => {
  tag = `of${unique().slice(-8)}`;
  olga = await createAccount({ username: `${tag}_olga`, name: "Olga Offers" });
  trialFan = await createAccount({ username: `${tag}_trial`, name: "Tess Trial" });
  bundleFan = await createAccount({ username: `${tag}_bundle`, name: "Bruno Bundle" });
  giver = await createAccount({ username: `${tag}_giver`, name: "Gina Giver" });
  recipient = await createAccount({ username: `${tag}_rcpt`, name: "Remy Recipient" });
  const at = new Date().toISOString();
  const author = `(SELECT id FROM users WHERE username = '${olga.username}')`;
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${at}' WHERE username = '${olga.username}';
     INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at) VALUES (${author}, '${tag} for subscribers', 'subscribers', 0, '${at}', '${at}');
     INSERT INTO media (user_id, kind, status, object_key, preview_key, content_type, size_bytes, created_at)
       VALUES (${author}, 'image', 'ready', 'posts/${tag}subscribers.jpg', NULL, 'image/jpeg', 8, '${at}');
     INSERT INTO post_media (post_id, media_id, position)
       SELECT p.id, m.id, 0 FROM posts p, media m WHERE p.text = '${tag} for subscribers' AND m.object_key = 'posts/${tag}subscribers.jpg';
     ${fundedFanSql(trialFan.username, 5000)}
     ${fundedFanSql(bundleFan.username, 5000)}
     ${fundedFanSql(giver.username, 5000)}
     ${verifiedFanSql(recipient.username)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  await apiAs(olga, "PUT", "/me/plans", { plans: [{ period: "month", priceCents: 1000 }] });
});

// In order: each test uses the offers the one before made (the promotion, then the bundle).
describe("a creator's offers, as the creator and fans use them", () => {
  it("the creator starts a promotion and makes a trial link; a fan sees the promotion on the button, starts a free trial by the link without paying, and is charged once at its end", async () => {
    const creatorView = await signedInPage(browser(), olga);
    const desk = creatorView.page;
    await desk.goto("/dashboard");
    await hydrated(desk);
    await desk.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Promotions" }).click();
    await desk.waitForURL("**/dashboard/promotions");
    await hydrated(desk);

    // A promotion: 50% off for new fans, 10 places, until the end of the day three days from now.
    const promotions = desk.getByRole("region", { name: "Price promotions" });
    await promotions.getByText("No promotions yet.").waitFor();
    await promotions.getByLabel("Percent off").fill("50");
    await promotions.getByRole("radio", { name: "New fans" }).check();
    await promotions.getByLabel("Claim limit").fill("10");
    await promotions.getByLabel("Last day").fill(dayFromToday(3));
    await promotions.getByRole("button", { name: "Start promotion" }).click();
    await promotions.getByText("Your promotion has started.").waitFor();
    const promotion = promotions.getByTestId("promotion");
    await promotion.getByText("50% off · For new fans").waitFor();
    expect(await promotion.getByText("Running").count()).toBe(1);
    expect(await promotion.getByText("0 of 10").count()).toBe(1);

    // A free-trial link of 7 days, its code made up; copied from the page.
    const trialLinks = desk.getByRole("region", { name: "Free-trial links" });
    await trialLinks.getByLabel("Free days").fill("7");
    await trialLinks.getByLabel("Last day").fill(dayFromToday(10));
    await trialLinks.getByRole("button", { name: "Make link" }).click();
    await trialLinks.getByText("Your trial link is ready.").waitFor();
    const link = trialLinks.getByTestId("trial-link");
    await link.getByText("7 days free").waitFor();
    const shown = (await link.locator(`span[dir="ltr"]`).textContent())!;
    expect(shown).toMatch(new RegExp(`^${baseURL()}/${olga.username}\\?trial=[a-z0-9-]{4,32}$`));
    await creatorView.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await link.getByRole("button", { name: "Copy link" }).click();
    await link.getByRole("status").filter({ hasText: "Copied" }).waitFor();
    const copied = await desk.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);

    // The fan, in a browser of their own: the button says the promotion's price, the regular one struck through.
    const { page, context } = await signedInPage(browser(), trialFan);
    await openProfile(page, olga);
    const subscribe = page.getByRole("button", { name: /^Subscribe ·/ });
    expect(await subscribe.textContent()).toBe("Subscribe · $5.00/month was $10.00");
    expect(await subscribe.locator("s").textContent()).toBe(" was $10.00");
    const ending = page.locator("[data-promotion-ending]");
    // The promotion ends at the end of that local day: from now, 3 days and some hours, shown to the nearest day.
    const [year, month, day] = dayFromToday(3).split("-").map(Number) as [number, number, number];
    const daysLeft = Math.round((new Date(year, month - 1, day, 23, 59, 59, 999).getTime() - Date.now()) / 86_400_000);
    expect(await ending.textContent()).toBe(`ends in ${daysLeft} days · 10 left`);
    expect(await subscribe.getAttribute("aria-describedby")).toBe(await ending.getAttribute("id"));

    // The trial link: its banner, then the chooser in trial mode; nothing is paid.
    await page.goto(copied);
    await hydrated(page);
    const banner = page.getByRole("region", { name: "Free for 7 days: start your free trial" });
    await banner.getByRole("button", { name: "Start your free trial" }).click();
    const chooser = page.getByRole("dialog", { name: "Subscribe to Olga Offers" });
    expect(
      await chooser.getByRole("list", { name: "Subscription plans" }).getByRole("button").allTextContents(),
    ).toEqual(["MonthlyFree for 7 daysthen $10.00/month"]);
    await chooser.getByText("Your wallet: $50.00").waitFor();
    await chooser.getByRole("button", { name: /Monthly/ }).click();
    await chooser
      .getByText(
        "Free for 7 days, then $10.00/month Nothing is paid now; cancel before the trial ends and you pay nothing.",
      )
      .waitFor();
    await chooser.getByRole("button", { name: "Start free trial" }).click();
    await page.waitForURL(`**/${olga.username}`);
    const facts = page.locator("[data-subscription-facts]");
    await facts.getByText("Subscribed, renews on").waitFor();
    await facts.getByText(/^Free trial until /).waitFor();
    expect(await walletOf(trialFan)).toMatchObject({
      balanceCents: 5000,
      payments: [expect.objectContaining({ kind: "top_up" })],
    });

    // The creator sees the claim.
    await desk.reload();
    await hydrated(desk);
    expect(await link.getByText("Claims", { exact: true }).locator("xpath=following-sibling::dd").textContent()).toBe(
      "1",
    );

    // The trial's end comes; two cron runs charge the monthly plan once.
    await reachRenewal(trialFan, olga);
    await runCron(context);
    await runCron(context);
    expect(await paymentsOf(trialFan, "renewal")).toEqual([1000]);
    expect((await walletOf(trialFan)).balanceCents).toBe(4000);
    await page.goto("/wallet");
    await hydrated(page);
    const renewals = page.locator("li[data-payment]").filter({ hasText: `Renewal for @${olga.username}` });
    expect(await renewals.count()).toBe(1);
    expect(await renewals.textContent()).toContain("$10.00");
    await openProfile(page, olga);
    await facts.getByText("Subscribed, renews on").waitFor();
    expect(await facts.getByText(/^Free trial until /).count()).toBe(0);
  });

  it("the creator offers bundles on the plans page; another fan buys 3 months through the chooser; the dashboard shows the fan and the payment", async () => {
    const { page: desk } = await signedInPage(browser(), olga);
    await desk.goto("/dashboard/plans");
    await hydrated(desk);
    const threeMonths = desk.getByRole("group", { name: "3 months" });
    await threeMonths.getByRole("checkbox", { name: "Offer this bundle" }).check();
    await threeMonths.getByLabel("Discount in percent").fill("10");
    await threeMonths.getByText("Fans pay $27.00, saving $3.00").waitFor();
    await desk.getByRole("button", { name: "Save plans" }).click();
    await desk.getByText("Your plans have been saved.").waitFor();

    // What the overview says of today's subscriptions before the purchase (the trial's payment is there already).
    await desk.goto("/dashboard");
    await hydrated(desk);
    const todaysSubscriptions = desk
      .getByRole("region", { name: "Today" })
      .getByText("Subscriptions", { exact: true })
      .locator("xpath=following-sibling::dd");
    const before = centsOf(await todaysSubscriptions.textContent());

    const { page } = await signedInPage(browser(), bundleFan);
    await openProfile(page, olga);
    await page.getByRole("button", { name: /^Subscribe ·/ }).click();
    const chooser = page.getByRole("dialog", { name: "Subscribe to Olga Offers" });
    // The promotion prices the monthly plan, never the bundle.
    expect(
      await chooser.getByRole("list", { name: "Subscription plans" }).getByRole("button").allTextContents(),
    ).toEqual(["Monthly$5.00 was $10.00", "3 monthssaves $3.00$27.00"]);
    await chooser.getByRole("button", { name: /^3 months/ }).click();
    await chooser.getByText("$27.00 is paid from your wallet now, then at each renewal until you cancel.").waitFor();
    expect(await walletOf(bundleFan)).toMatchObject({ balanceCents: 5000 });
    await chooser.getByRole("button", { name: "Pay and subscribe" }).click();
    const facts = page.locator("[data-subscription-facts]");
    await facts.getByText("Subscribed, renews on").waitFor();
    await facts.getByText("3 months · $27.00").waitFor();
    expect(await paymentsOf(bundleFan, "subscription")).toEqual([2700]);
    expect((await walletOf(bundleFan)).balanceCents).toBe(2300);

    // The creator's dashboard: the fan among the subscribers, and the payment (less the platform's 20%) in today's figures.
    await desk.reload();
    await hydrated(desk);
    expect(centsOf(await todaysSubscriptions.textContent())).toBe(before + 2160);
    await desk.goto("/dashboard/fans");
    await hydrated(desk);
    const row = desk.getByTestId("fan-row").filter({ hasText: "Bruno Bundle" });
    // The plan as the fan chose it: the bundle, at what it cost.
    await row.getByText("3 months · $27.00").waitFor();
  });

  it("a fan gives a month to another member from the creator's profile; the recipient sees the gift and the subscribers' post, and is told", async () => {
    const { page } = await signedInPage(browser(), giver);
    await openProfile(page, olga);
    await page.getByRole("button", { name: "Gift a subscription" }).click();
    const dialog = page.getByRole("dialog", { name: "Gift a subscription to Olga Offers" });
    await dialog.getByLabel("Recipient's username").fill(`@${recipient.username}`);
    // One month at the monthly price; three at the 3-month bundle's.
    expect(await dialog.getByRole("radio", { name: "1 month" }).isChecked()).toBe(true);
    await dialog.getByRole("group", { name: "How long" }).getByText("$27.00").waitFor();
    await dialog.getByText("Your wallet: $50.00").waitFor();
    await dialog.getByText("$10.00 is paid from your wallet now. A gift never renews.").waitFor();
    await dialog.getByRole("button", { name: "Pay $10.00 and give" }).click();
    await dialog.getByText(new RegExp(`^@${recipient.username} now has a subscription until `)).waitFor();
    expect(await paymentsOf(giver, "subscription")).toEqual([1000]);
    expect((await walletOf(giver)).balanceCents).toBe(4000);

    const { page: theirs } = await signedInPage(browser(), recipient);
    await openProfile(theirs, olga);
    await theirs.getByText(new RegExp(`^Gift from @${giver.username} until `)).waitFor();
    const post = theirs.locator("article", { hasText: `${tag} for subscribers` });
    await post.locator(`img[src*="posts/${tag}subscribers.jpg"]`).waitFor({ state: "attached" });
    expect(await post.getByText("Subscribe to see this post.").count()).toBe(0);
    // Nothing was taken from the recipient.
    expect((await walletOf(recipient)).payments).toEqual([]);
    await theirs.goto("/notifications");
    await hydrated(theirs);
    await theirs.getByText("Gina Giver gave you a subscription to Olga Offers.").waitFor();
  });
});
