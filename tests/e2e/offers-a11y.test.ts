import { beforeAll, describe, expect, it } from "vitest";
import { fundedFanSql } from "./money-support";
import {
  apiAs,
  browserForThisFile,
  createAccount,
  LOOKS,
  openIn,
  seriousViolations,
  signedInPageIn,
  sql,
  textIn,
  unique,
  type Look,
} from "./support";

const browser = browserForThisFile();

type Account = Awaited<ReturnType<typeof createAccount>>;
/** Ada runs every offer: a promotion, a bundle, a trial link and the retention offer. */
let ada: Account;
/** Subscribed at the regular price before the promotion: the retention offer is open to them. */
let subscriber: Account;
/** Never subscribed: sees the promotion and may use the trial link. */
let newcomer: Account;
let trialCode: string;

/** A page signed in as `account`, in the look's colours and language. */
const pageFor = async (account: Account, look: Look) => (await signedInPageIn(browser(), account, look)).page;

beforeAll(async () => {
  const tag = `oa${unique().slice(-8)}`;
  ada = await createAccount({ username: `${tag}_ada`, name: "Ada Offers" });
  subscriber = await createAccount({ username: `${tag}_sub`, name: "Sol Subscriber" });
  newcomer = await createAccount({ username: `${tag}_new`, name: "Nia Newcomer" });
  await sql(
    `UPDATE users SET role = 'creator', monetization_enabled = 1, email_verified_at = '${new Date().toISOString()}' WHERE username = '${ada.username}';
     ${fundedFanSql(subscriber.username, 10_000)}
     ${fundedFanSql(newcomer.username, 10_000)}`,
  );
  // await sql() blocks the event loop for seconds: let a kept-alive socket the server closed meanwhile be noticed.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await apiAs(ada, "PUT", "/me/plans", {
    plans: [
      { period: "month", priceCents: 1000 },
      { period: "year", priceCents: 10_000 },
    ],
  });
  await apiAs(ada, "PUT", "/me/bundles", { bundles: [{ months: 3, discountPercent: 10 }] });
  await apiAs(subscriber, "POST", `/users/${ada.username}/subscribe`, {
    period: "month",
    priceCents: 1000,
    idempotencyKey: crypto.randomUUID(),
  });
  const endsAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
  await apiAs(ada, "POST", "/me/promotions", { percentOff: 30, audience: "new", periods: 2, claimLimit: 20, endsAt });
  trialCode = `${tag}-try`;
  await apiAs(ada, "POST", "/me/trial-links", { days: 7, claimLimit: 5, endsAt, code: trialCode });
  await apiAs(ada, "PUT", "/me/retention-offer", { active: true, percentOff: 40, periods: 2 });
});

describe("the offers' screens have no serious or critical axe finding", () => {
  for (const variant of LOOKS) {
    const tr = textIn(variant);
    /** The fixed start of a text with a value in it ("Subscribe · {{price}}" → "Subscribe · "). */
    const startOf = (key: string) => tr(key).split("{{")[0]!;

    it(`Dashboard → Promotions (${variant.name}), with its offers and with a form's errors`, async () => {
      const page = await pageFor(ada, variant);
      await openIn(page, "/dashboard/promotions", variant);
      await page.getByTestId("promotion").first().waitFor();
      await page.getByTestId("trial-link").first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // The promotion's form sent empty: each field says what it needs.
      const promotions = page.getByRole("region", { name: tr("Price promotions") });
      await promotions.getByRole("button", { name: tr("Start promotion") }).click();
      await promotions.getByRole("alert").first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });

    it(`the chooser, with a promotion and a bundle and from a trial link (${variant.name})`, async () => {
      const page = await pageFor(newcomer, variant);
      await openIn(page, `/${ada.username}`, variant);
      await page.getByRole("button", { name: startOf("Subscribe · {{price}}") }).click();
      const chooser = page.getByRole("dialog");
      const plans = chooser.getByRole("list").getByRole("button");
      expect(await plans.count()).toBe(3);
      expect(await seriousViolations(page)).toEqual([]);
      // The confirm step of a promoted plan, then of the bundle.
      await plans.first().click();
      await chooser.locator("[data-subscribe-terms]").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await plans.last().click();
      expect(await seriousViolations(page)).toEqual([]);

      await openIn(page, `/${ada.username}?trial=${trialCode}`, variant);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: tr("Start your free trial") }).click();
      await page.getByRole("dialog").getByRole("list").getByRole("button").first().click();
      await page.getByRole("dialog").locator("[data-subscribe-terms]").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });

    it(`a subscriber's change-plan, cancel (with the retention offer) and gift dialogs (${variant.name})`, async () => {
      const page = await pageFor(subscriber, variant);
      await openIn(page, `/${ada.username}`, variant);

      await page.getByRole("button", { name: tr("Change plan") }).click();
      const changePlan = page.getByRole("dialog");
      // The yearly plan chosen: the confirm step says when it takes effect.
      await changePlan.getByRole("list").getByRole("button").nth(1).click();
      await changePlan.getByRole("button", { name: tr("Change plan") }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await changePlan.waitFor({ state: "detached" });

      await page.getByRole("button", { name: tr("Cancel subscription") }).click();
      const cancel = page.getByRole("dialog");
      await cancel.locator("[data-retention-offer]").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await cancel.waitFor({ state: "detached" });

      await page.getByRole("button", { name: tr("Gift a subscription") }).click();
      const gift = page.getByRole("dialog");
      await gift.getByRole("radio").first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // Given to nobody who exists: the dialog says so.
      await gift.getByRole("textbox").fill(`nobody_${unique()}`.slice(0, 30));
      await gift.getByRole("button", { name: startOf("Pay {{price}} and give") }).click();
      await gift.getByRole("alert").first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
