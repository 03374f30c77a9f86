import type { Locator } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql, verifiedFanSql } from "./money-support";
import {
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
let tightFan: Account;
let creator: Account;
let tag: string;

/**
 * Whether, in `scope`'s text, the "@" of "@username" is drawn left of the name's first letter (as a handle reads),
 * wherever the text nodes split it: measured on the screen, so the page's direction and isolation are what count.
 */
const atSignBeforeName = (scope: Locator, username: string) =>
  scope.evaluate((element, handle) => {
    const letters: { node: Text; offset: number }[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let offset = 0; offset < node.data.length; offset++) letters.push({ node, offset });
    }
    const at = letters
      .map(({ node, offset }) => node.data[offset])
      .join("")
      .indexOf(handle);
    if (at < 0) throw new Error(`${handle} is not in "${element.textContent}"`);
    const leftOf = ({ node, offset }: { node: Text; offset: number }) => {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      return range.getBoundingClientRect().left;
    };
    return leftOf(letters[at]!) < leftOf(letters[at + 1]!);
  }, `@${username}`);

const walletOf = async (account: Account) => {
  const response = await fetchWithin(`${baseURL()}/api/wallet`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  return (await response.json()) as { balanceCents: number; payments: { kind: string; amountCents: number }[] };
};

beforeAll(async () => {
  tag = `sp${unique().slice(-8)}`;
  fan = await createAccount({ username: `${tag}_fan`, name: "Fiona Fan" });
  poorFan = await createAccount({ username: `${tag}_poor`, name: "Pat Poor" });
  tightFan = await createAccount({ username: `${tag}_tight`, name: "Tia Tight" });
  creator = await createAccount({ username: `${tag}_star`, name: "Sam Star" });
  const at = new Date().toISOString();
  const author = `(SELECT id FROM users WHERE username = '${creator.username}')`;
  const post = (text: string, audience: string, priceCents: number) =>
    `INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at) VALUES (${author}, '${text}', '${audience}', ${priceCents}, '${at}', '${at}');
     INSERT INTO media (user_id, kind, status, object_key, preview_key, content_type, size_bytes, created_at)
       VALUES (${author}, 'image', 'ready', 'posts/${tag}${priceCents}${audience}.jpg', NULL, 'image/jpeg', 8, '${at}');
     INSERT INTO post_media (post_id, media_id, position)
       SELECT p.id, m.id, 0 FROM posts p, media m WHERE p.text = '${text}' AND m.object_key = 'posts/${tag}${priceCents}${audience}.jpg';`;
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${at}' WHERE username = '${creator.username}';
     ${post(`${tag} open to all`, "everyone", 0)}
     ${post(`${tag} for subscribers`, "subscribers", 0)}
     ${post(`${tag} for sale`, "everyone", 400)}
     ${fundedFanSql(fan.username, 10_000)}
     ${verifiedFanSql(poorFan.username)}
     ${fundedFanSql(tightFan.username, 1000)}`,
  );
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed, or
  // the next fetch reuses it and fails with "other side closed".
  await new Promise((resolve) => setTimeout(resolve, 20));
  const plans = await fetchWithin(`${baseURL()}/api/me/plans`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${creator.token}` },
    body: JSON.stringify({ plans: [{ period: "month", priceCents: 999 }] }),
  });
  expect(plans.status).toBe(200);
});

describe("spending from the wallet", () => {
  it("a funded fan subscribes to a paid plan, tips from the profile and a post, and buys a paid post; in Arabic the handles read @name", async () => {
    const { page, context } = await signedInPage(browser(), fan);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByRole("heading", { name: "Sam Star" }).waitFor();
    const subscriberPost = page.locator("article", { hasText: `${tag} for subscribers` });
    await subscriberPost.getByText("Subscribe to see this post.").waitFor();

    // Subscribe: the dialog shows the price, and the paid plan is confirmed before it is charged.
    await page.getByRole("button", { name: /^Subscribe ·/ }).click();
    const subscribeDialog = page.getByRole("dialog", { name: "Subscribe to Sam Star" });
    expect(
      await subscribeDialog.getByRole("list", { name: "Subscription plans" }).getByRole("button").allTextContents(),
    ).toEqual(["Monthly$9.99"]);
    await subscribeDialog.getByRole("button", { name: /Monthly/ }).click();
    await subscribeDialog
      .getByText("$9.99 is paid from your wallet now, then at each renewal until you cancel.")
      .waitFor();
    await subscribeDialog.getByRole("button", { name: "Pay and subscribe" }).click();
    await page.getByText("Subscribed, renews on").waitFor();
    await subscriberPost.locator(`img[src*="posts/${tag}0subscribers.jpg"]`).waitFor({ state: "attached" });
    expect(await subscriberPost.getByText("Subscribe to see this post.").count()).toBe(0);

    // Tip from the profile: a preset amount and a message.
    await page.getByRole("button", { name: "Tip", exact: true }).click();
    const tipDialog = page.getByRole("dialog", { name: "Send a tip to Sam Star" });
    await tipDialog.getByRole("button", { name: "$10.00" }).click();
    await tipDialog.getByLabel("Message (optional)").fill("Love your work");
    await tipDialog.getByRole("button", { name: "Send" }).click();
    await tipDialog.getByText("Your tip of $10.00 was sent. Thank you!").waitFor();
    await tipDialog.getByRole("button", { name: "Close" }).last().click();

    // Buy the paid post: confirm, and it opens in place.
    const forSale = page.locator("article", { hasText: `${tag} for sale` });
    await forSale.getByRole("button", { name: "Unlock for $4.00" }).click();
    await forSale.getByText("Pay $4.00 from your wallet to unlock this post?").waitFor();
    await forSale.getByRole("button", { name: "Confirm" }).click();
    await forSale.locator(`img[src*="posts/${tag}400everyone.jpg"]`).waitFor({ state: "attached" });
    expect(await forSale.getByText("Unlock this post for $4.00.").count()).toBe(0);

    // Tip from a post's action row on the home timeline (the subscription followed the creator), typed with a comma.
    await page.goto("/home");
    await hydrated(page);
    const openPost = page.locator("article", { hasText: `${tag} open to all` });
    await openPost.getByRole("button", { name: "Send a tip" }).click();
    const postTip = page.getByRole("dialog", { name: "Send a tip to Sam Star" });
    await postTip.getByLabel("Amount in dollars").fill("2,50");
    await postTip.getByRole("button", { name: "Send" }).click();
    await postTip.getByText("Your tip of $2.50 was sent. Thank you!").waitFor();

    const wallet = await walletOf(fan);
    expect(wallet.balanceCents).toBe(10_000 - 999 - 1000 - 400 - 250);
    expect(wallet.payments.map((payment) => [payment.kind, payment.amountCents])).toEqual([
      ["tip", 250],
      ["post", 400],
      ["tip", 1000],
      ["subscription", 999],
      ["top_up", 10_000],
    ]);

    // Right to left (Arabic), the creator's handle still reads "@name", the "@" drawn before the name: on the profile
    // and in the wallet's history ("Tip to @name").
    await page.goto(`/${creator.username}?lng=ar`);
    await hydrated(page);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    const profileHandle = page.locator("#profile-name + p");
    expect(await atSignBeforeName(profileHandle, creator.username)).toBe(true);
    expect(
      await profileHandle.locator("bdi").evaluate((handle: HTMLElement) => [handle.dir, handle.textContent]),
    ).toEqual(["ltr", `@${creator.username}`]);
    await page.goto("/wallet");
    await hydrated(page);
    const tipLine = page.locator("li[data-payment]").first().locator("p").first();
    expect(await atSignBeforeName(tipLine, creator.username)).toBe(true);
    expect(await tipLine.locator("bdi").evaluate((handle: HTMLElement) => [handle.dir, handle.textContent])).toEqual([
      "ltr",
      `@${creator.username}`,
    ]);
    await context.close();
  });

  it("with an empty wallet, the tip dialog says so and links to the top-up; nothing is charged", async () => {
    const { page, context } = await signedInPage(browser(), poorFan);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Tip", exact: true }).click();
    const tipDialog = page.getByRole("dialog", { name: "Send a tip to Sam Star" });
    await tipDialog.getByRole("button", { name: "$5.00" }).click();
    await tipDialog.getByRole("button", { name: "Send" }).click();
    const alert = tipDialog.getByRole("alert").filter({ hasText: "You need to fund your wallet!" });
    await alert.waitFor();
    expect(await alert.getByRole("link", { name: "Top up your wallet" }).getAttribute("href")).toBe("/wallet");
    expect((await walletOf(poorFan)).payments).toEqual([]);
    await context.close();
  });

  it('the sidebar\'s Wallet shows "!" once the wallet cannot pay the next renewal', async () => {
    const { page, context } = await signedInPage(browser(), tightFan);
    await page.goto(`/${creator.username}`);
    await hydrated(page);
    const sidebar = page.getByRole("navigation", { name: "Main" });
    const lowBalance = sidebar.getByRole("link", { name: /Wallet/ }).getByText("Your balance is low");
    expect(await lowBalance.count()).toBe(0);
    await page.getByRole("button", { name: /^Subscribe ·/ }).click();
    await page.getByRole("button", { name: /Monthly/ }).click();
    await page.getByRole("button", { name: "Pay and subscribe" }).click();
    await page.getByText("Subscribed, renews on").waitFor();
    // $10.00 − $9.99 leaves 1 cent: the next renewal cannot be paid.
    await lowBalance.waitFor({ state: "attached" });
    await context.close();
  });

  it("the creator sets a price per message on the dashboard; fans see it on the profile", async () => {
    const { page, context } = await signedInPage(browser(), creator);
    await page.goto("/dashboard/plans");
    await hydrated(page);
    const price = page.getByLabel("Price per message");
    await price.fill("200.01");
    await page.getByRole("button", { name: "Save plans" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "A message costs at most $200.00; 0 makes messages free." })
      .first()
      .waitFor();
    expect(await price.getAttribute("aria-invalid")).toBe("true");
    await price.fill("2,50");
    await page.getByRole("button", { name: "Save plans" }).click();
    await page.getByText("Your plans have been saved.").waitFor();
    await context.close();

    const fanView = await signedInPage(browser(), poorFan);
    await fanView.page.goto(`/${creator.username}`);
    await fanView.page.getByText("Messages cost $2.50 each.").waitFor();
    await fanView.context.close();
  });
});
