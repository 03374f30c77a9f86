import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import fr from "../../app/locales/fr.json";
import type { Profile } from "@shared/contracts/profiles";
import { addMonths } from "../../worker/domain/subscriptions/periods";
import { renewSubscriptions } from "../../worker/domain/subscriptions/renew-subscriptions";
import { stopClockAt } from "./clock";
import { testContext } from "./domain-context";
import { api, createUser, postJson } from "./factories";
import { createFan, fundWallet, newKey } from "./money-fixtures";
import {
  countOf,
  creatorOffers,
  creatorWith,
  expectCleanLedger,
  fundedFan,
  inDays,
  makeTrialLink,
  paymentsOf,
  startPromotion,
  subscribe,
  subscribed,
  subscriptionRow,
  walletOf,
  type Member,
} from "./offer-fixtures";

afterAll(expectCleanLedger);

type ErrorBody = { message: string; errors: Record<string, string[]>; priceCents?: number };

const OFFER_ENDED = "This offer has ended.";
const ALL_CLAIMED = "Every place of this offer has been claimed.";
const ALREADY_USED = "You have already used this offer.";
const HAD_TRIAL = "You have already had a free trial with this creator.";
const TRIALS_FOR_NEW = "Free trials are for fans who have never subscribed to this creator.";
const NOT_FOR_YOU = "This offer is not for you.";

const refusal = async (response: Response, status: number) => {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as ErrorBody;
};

const profileSeenBy = async (username: string, token?: string) => {
  const response = await api(`/users/${username}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as Profile;
};

/** A fan whose subscription to the creator ended (an "expired" fan for promotions). */
async function expiredFanOf(creatorId: number, cents = 0): Promise<Member> {
  const fan = await fundedFan(cents);
  await env.DB.prepare(
    `INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end, ended_at)
     VALUES (?, ?, 'month', 1000, 'expired', ?, ?, ?)`,
  )
    .bind(fan.user.userId, creatorId, inDays(-60), inDays(-30), inDays(-30))
    .run();
  return fan;
}

/** Ends a live subscription the way time does: its period is moved into the past and the cron expires it. */
async function cancelAndExpire(subscriptionId: number, token: string) {
  expect((await postJson(`/subscriptions/${subscriptionId}/cancel`, {}, { token })).status).toBe(200);
  await env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE id = ?")
    .bind(inDays(-1), subscriptionId)
    .run();
  await renewSubscriptions(testContext());
  expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: "expired" });
}

/** Creates `count` verified fans, `cents` in each wallet, a few at a time (each signs up through the API). */
async function manyFans(count: number, cents: number): Promise<Member[]> {
  const fans: Member[] = [];
  while (fans.length < count) {
    const some = await Promise.all(
      Array.from({ length: Math.min(10, count - fans.length) }, async () => {
        const fan = await createFan();
        if (cents > 0) await fundWallet(fan.user.userId, cents);
        return fan;
      }),
    );
    fans.push(...some);
  }
  return fans;
}

describe("bundles", () => {
  it("need a paid monthly plan", async () => {
    const weekly = await creatorWith([{ period: "week", priceCents: 500 }]);
    const body = JSON.stringify({ bundles: [{ months: 3, discountPercent: 10 }] });
    const noMonthly = await refusal(await api("/me/bundles", { method: "PUT", token: weekly.token, body }), 422);
    expect(noMonthly.errors.bundles).toEqual(["Bundles need a paid monthly plan: set the monthly price first."]);

    const free = await creatorWith([{ period: "month", priceCents: 0 }]);
    await refusal(await api("/me/bundles", { method: "PUT", token: free.token, body }), 422);
    expect(await countOf("subscription_bundles WHERE creator_id IN (?, ?)", weekly.user.userId, free.user.userId)).toBe(
      0,
    );

    // Withdrawing every bundle needs no plan.
    const none = await api("/me/bundles", {
      method: "PUT",
      token: weekly.token,
      body: JSON.stringify({ bundles: [] }),
    });
    expect(await none.json()).toEqual({ bundles: [] });
  });

  it("are offered on the profile with their totals; a length left out is withdrawn", async () => {
    const creator = await creatorWith(
      [{ period: "month", priceCents: 1000 }],
      [
        { months: 3, discountPercent: 10 },
        { months: 6, discountPercent: 20 },
      ],
    );
    expect((await profileSeenBy(creator.user.username)).bundles).toEqual([
      { months: 3, discountPercent: 10, priceCents: 2700 },
      { months: 6, discountPercent: 20, priceCents: 4800 },
    ]);
    const changed = await api("/me/bundles", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ bundles: [{ months: 12, discountPercent: 50 }] }),
    });
    expect(await changed.json()).toEqual({ bundles: [{ months: 12, discountPercent: 50, priceCents: 6000 }] });
    expect((await profileSeenBy(creator.user.username)).bundles).toEqual([
      { months: 12, discountPercent: 50, priceCents: 6000 },
    ]);
  });

  it("a 3-month bundle charges its price once for 3 months; a wrong price is refused with the current one", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 3, discountPercent: 10 }]);
    const fan = await fundedFan(10_000);

    const stale = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", bundleMonths: 3, priceCents: 3000, idempotencyKey: newKey() },
        fan.token,
      ),
      409,
    );
    expect(stale.priceCents).toBe(2700);
    expect(await paymentsOf(fan.user.userId)).toEqual([]);
    expect(await walletOf(fan.user.userId)).toBe(10_000);

    const key = newKey();
    const body = { period: "month", bundleMonths: 3, priceCents: 2700, idempotencyKey: key };
    const subscription = await subscribed(await subscribe(creator.user.username, body, fan.token));
    expect(subscription).toMatchObject({ status: "active", period: "month", bundleMonths: 3, priceCents: 2700 });
    expect(subscription.currentPeriodEnd).toBe(addMonths(subscription.startedAt, 3));
    // A replay answers the same subscription.
    expect((await subscribed(await subscribe(creator.user.username, body, fan.token))).id).toBe(subscription.id);

    const payments = await paymentsOf(fan.user.userId);
    expect(payments).toEqual([
      expect.objectContaining({ kind: "subscription", amount_cents: 2700, subscription_id: subscription.id }),
    ]);
    expect(await walletOf(fan.user.userId)).toBe(7300);
    // One earning of the whole payment, held 7 business days like any other.
    const earnings = await env.DB.prepare("SELECT gross_cents, release_at FROM earnings WHERE payment_id = ?")
      .bind(payments[0]!.id)
      .all<{ gross_cents: number; release_at: string }>();
    expect(earnings.results).toHaveLength(1);
    expect(earnings.results[0]!.gross_cents).toBe(2700);
    const heldDays = (Date.parse(earnings.results[0]!.release_at) - Date.parse(payments[0]!.created_at)) / 86_400_000;
    // 7 business days are 9 calendar days, or up to 11 from a weekend (which counts from the Monday).
    expect(heldDays).toBeGreaterThanOrEqual(9);
    expect(heldDays).toBeLessThan(11);
  });

  it("a bundle not offered is refused", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 3, discountPercent: 10 }]);
    const fan = await fundedFan(10_000);
    const refused = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", bundleMonths: 6, priceCents: 6000, idempotencyKey: newKey() },
        fan.token,
      ),
      422,
    );
    expect(refused.errors.period).toEqual(["This creator does not offer this plan."]);
    const weekBundle = await refusal(
      await subscribe(
        creator.user.username,
        { period: "week", bundleMonths: 3, priceCents: 2700, idempotencyKey: newKey() },
        fan.token,
      ),
      422,
    );
    expect(weekBundle.errors.period).toBeDefined();
    expect(await paymentsOf(fan.user.userId)).toEqual([]);
  });
});

describe("promotions", () => {
  it("are made within their bounds; one runs per audience", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const create = (body: Record<string, unknown>) =>
      postJson("/me/promotions", { endsAt: inDays(10), audience: "new", ...body }, { token: creator.token });

    expect((await refusal(await create({ percentOff: 4 }), 422)).errors.percentOff).toEqual([
      "A promotion takes 5% to 100% off.",
    ]);
    expect((await refusal(await create({ percentOff: 101 }), 422)).errors.percentOff).toBeDefined();
    expect((await refusal(await create({ percentOff: 100 }), 422)).errors.trialDays).toEqual([
      "At 100% off, choose how many days the free trial lasts.",
    ]);
    expect((await refusal(await create({ percentOff: 100, trialDays: 31 }), 422)).errors.trialDays).toBeDefined();
    expect((await refusal(await create({ percentOff: 50, periods: 13 }), 422)).errors.periods).toBeDefined();
    expect((await refusal(await create({ percentOff: 50, claimLimit: 0 }), 422)).errors.claimLimit).toBeDefined();
    expect((await refusal(await create({ percentOff: 50, endsAt: inDays(-1) }), 422)).errors.endsAt).toEqual([
      "The end date must be in the future, within a year.",
    ]);
    expect((await refusal(await create({ percentOff: 50, endsAt: inDays(400) }), 422)).errors.endsAt).toBeDefined();
    expect((await refusal(await create({ percentOff: 50, endsAt: "tomorrow" }), 422)).errors.endsAt).toBeDefined();
    expect((await refusal(await create({ percentOff: 50, audience: "everyone" }), 422)).errors.audience).toBeDefined();
    expect(await countOf("offers WHERE creator_id = ?", creator.user.userId)).toBe(0);

    const forNew = await startPromotion(creator.token, { percentOff: 50, audience: "new", claimLimit: 10 });
    expect((await refusal(await create({ percentOff: 20, audience: "new" }), 409)).message).toBe(
      "A promotion for these fans is already running: end it first.",
    );
    await refusal(await create({ percentOff: 20, audience: "both" }), 409);
    await startPromotion(creator.token, { percentOff: 20, audience: "expired" });
    await refusal(await create({ percentOff: 20, audience: "expired" }), 409);

    // Ended early, its audience is free again.
    const ended = await postJson(`/me/offers/${forNew}/end`, {}, { token: creator.token });
    expect(ended.status).toBe(200);
    const offers = (await ended.json()) as Awaited<ReturnType<typeof creatorOffers>>;
    expect(offers.promotions.find((promotion) => promotion.id === forNew)).toMatchObject({
      running: false,
      endedAt: expect.any(String),
      claimLimit: 10,
    });
    await startPromotion(creator.token, { percentOff: 30, audience: "new" });
    expect((await creatorOffers(creator.token)).promotions.map((promotion) => promotion.running)).toEqual([
      true,
      true,
      false,
    ]);

    // Ending an offer of someone else's, or one that does not exist.
    const other = await creatorWith([{ period: "month", priceCents: 1000 }]);
    expect((await postJson(`/me/offers/${forNew}/end`, {}, { token: other.token })).status).toBe(404);
    expect((await postJson("/me/offers/999999/end", {}, { token: other.token })).status).toBe(404);
  });

  it("need a paid plan", async () => {
    const free = await creatorWith([{ period: "month", priceCents: 0 }]);
    const refused = await refusal(
      await postJson("/me/promotions", { percentOff: 50, audience: "new", endsAt: inDays(5) }, { token: free.token }),
      422,
    );
    expect(refused.message).toBe("Offers need a paid plan: set a price first.");
  });

  it("are shown on the profile only to their audience: new fans (and visitors) or expired ones", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const newFan = await createFan();
    const expiredFan = await expiredFanOf(creator.user.userId);
    const forNew = await startPromotion(creator.token, { percentOff: 40, audience: "new", claimLimit: 7 });

    expect((await profileSeenBy(creator.user.username, newFan.token)).promotion).toEqual({
      id: forNew,
      percentOff: 40,
      trialDays: null,
      periods: 1,
      endsAt: expect.any(String),
      claimsLeft: 7,
    });
    expect((await profileSeenBy(creator.user.username)).promotion?.id).toBe(forNew);
    expect((await profileSeenBy(creator.user.username, expiredFan.token)).promotion).toBeNull();
    // The creator sees none on their own button.
    expect((await profileSeenBy(creator.user.username, creator.token)).promotion).toBeNull();

    const forExpired = await startPromotion(creator.token, { percentOff: 25, audience: "expired" });
    expect((await profileSeenBy(creator.user.username, expiredFan.token)).promotion?.id).toBe(forExpired);
    expect((await profileSeenBy(creator.user.username, newFan.token)).promotion?.id).toBe(forNew);

    // The wrong audience cannot claim it either.
    const stranger = await expiredFanOf(creator.user.userId, 5000);
    const refused = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", promotionId: forNew, priceCents: 600, idempotencyKey: newKey() },
        stranger.token,
      ),
      409,
    );
    expect(refused.message).toBe(NOT_FOR_YOU);
    expect(await paymentsOf(stranger.user.userId)).toEqual([]);
  });

  it("a claim charges the discounted price once and records the promotion on the payment", async () => {
    const creator = await creatorWith(
      [
        { period: "month", priceCents: 1000 },
        { period: "year", priceCents: 9999 },
      ],
      [{ months: 3, discountPercent: 10 }],
    );
    const promotion = await startPromotion(creator.token, { percentOff: 35, audience: "new", periods: 2 });
    const fan = await fundedFan(5000);

    const stale = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", promotionId: promotion, priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
      409,
    );
    expect(stale.priceCents).toBe(650);
    // A bundle cannot use a promotion.
    const bundle = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", bundleMonths: 3, promotionId: promotion, priceCents: 2700, idempotencyKey: newKey() },
        fan.token,
      ),
      422,
    );
    expect(bundle.errors.bundleMonths).toEqual([
      "This promotion is for the monthly, weekly and yearly plans, not bundles.",
    ]);
    expect(await paymentsOf(fan.user.userId)).toEqual([]);

    const key = newKey();
    const body = { period: "month", promotionId: promotion, priceCents: 650, idempotencyKey: key };
    const subscription = await subscribed(await subscribe(creator.user.username, body, fan.token));
    expect(subscription).toMatchObject({
      status: "active",
      priceCents: 1000,
      offerPercent: 35,
      offerRenewalsLeft: 1,
      trialEndsAt: null,
    });
    expect(subscription.currentPeriodEnd).toBe(addMonths(subscription.startedAt, 1));
    // The same request replayed: the same subscription, no second charge or claim.
    expect((await subscribed(await subscribe(creator.user.username, body, fan.token))).id).toBe(subscription.id);
    expect(await paymentsOf(fan.user.userId)).toEqual([
      expect.objectContaining({
        kind: "subscription",
        amount_cents: 650,
        offer_id: promotion,
        subscription_id: subscription.id,
      }),
    ]);
    expect(await walletOf(fan.user.userId)).toBe(4350);
    expect(await countOf("offer_claims WHERE offer_id = ?", promotion)).toBe(1);
    // Claimed: the profile no longer offers it to them.
    expect((await profileSeenBy(creator.user.username, fan.token)).promotion).toBeNull();

    // A yearly plan takes the promotion as well.
    const yearly = await fundedFan(10_000);
    const year = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "year", promotionId: promotion, priceCents: 6499, idempotencyKey: newKey() },
        yearly.token,
      ),
    );
    expect(year).toMatchObject({ period: "year", priceCents: 9999, offerPercent: 35 });
  });

  it("the same fan racing their own claims (two keys at once) is charged and counted once", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const promotion = await startPromotion(creator.token, { percentOff: 50, audience: "new", claimLimit: 10 });
    const fan = await fundedFan(5000);
    const responses = await Promise.all(
      [0, 1, 2, 3, 4].map(() =>
        subscribe(
          creator.user.username,
          { period: "month", promotionId: promotion, priceCents: 500, idempotencyKey: newKey() },
          fan.token,
        ),
      ),
    );
    const answers = await Promise.all(responses.map((response) => subscribed(response)));
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1);
    expect(await paymentsOf(fan.user.userId)).toHaveLength(1);
    expect(await walletOf(fan.user.userId)).toBe(4500);
    expect((await creatorOffers(creator.token)).promotions[0]).toMatchObject({ claims: 1 });

    // The same with a trial link.
    const link = await makeTrialLink(creator.token, { days: 7 });
    const trialFan = await createFan();
    const trials = await Promise.all(
      [0, 1, 2, 3, 4].map(() =>
        subscribe(creator.user.username, { period: "month", trialCode: link.code, priceCents: 0 }, trialFan.token),
      ),
    );
    const trialAnswers = await Promise.all(trials.map((response) => subscribed(response)));
    expect(new Set(trialAnswers.map((answer) => answer.id)).size).toBe(1);
    expect(await countOf("offer_claims WHERE offer_id = ?", link.id)).toBe(1);
  });

  it("the same fan cannot claim it twice, even after their subscription ended", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const promotion = await startPromotion(creator.token, { percentOff: 50, audience: "both" });
    const fan = await fundedFan(5000);
    const first = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", promotionId: promotion, priceCents: 500, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    await cancelAndExpire(first.id, fan.token);
    expect((await profileSeenBy(creator.user.username, fan.token)).promotion).toBeNull();

    const again = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", promotionId: promotion, priceCents: 500, idempotencyKey: newKey() },
        fan.token,
      ),
      409,
    );
    expect(again.message).toBe(ALREADY_USED);
    expect(await paymentsOf(fan.user.userId)).toHaveLength(1);
    expect(await walletOf(fan.user.userId)).toBe(4500);
    // They may still subscribe at the regular price.
    await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
  });

  it("an ended or expired promotion is refused with a translated message", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const ended = await startPromotion(creator.token, { percentOff: 50, audience: "new" });
    expect((await postJson(`/me/offers/${ended}/end`, {}, { token: creator.token })).status).toBe(200);
    const fan = await fundedFan(5000);
    const claim = (promotionId: number, headers?: HeadersInit) =>
      subscribe(
        creator.user.username,
        { period: "month", promotionId, priceCents: 500, idempotencyKey: newKey() },
        fan.token,
        headers,
      );
    expect((await refusal(await claim(ended), 409)).message).toBe(OFFER_ENDED);
    // In French once the translators have it (until then the English sentence).
    const french = (fr as Record<string, string>)[OFFER_ENDED] ?? OFFER_ENDED;
    expect((await refusal(await claim(ended, { "Accept-Language": "fr" }), 409)).message).toBe(french);

    const endsAt = inDays(2);
    const expiring = await startPromotion(creator.token, { percentOff: 50, audience: "new", endsAt });
    expect((await profileSeenBy(creator.user.username, fan.token)).promotion?.id).toBe(expiring);
    stopClockAt(new Date(Date.parse(endsAt) + 60_000));
    expect((await profileSeenBy(creator.user.username, fan.token)).promotion).toBeNull();
    expect((await refusal(await claim(expiring), 409)).message).toBe(OFFER_ENDED);
    expect((await creatorOffers(creator.token)).promotions.every((promotion) => !promotion.running)).toBe(true);
    expect(await paymentsOf(fan.user.userId)).toEqual([]);
    expect(await walletOf(fan.user.userId)).toBe(5000);
    // Expired, its audience may have a new one.
    await startPromotion(creator.token, { percentOff: 10, audience: "new", endsAt: inDays(3, Date.parse(endsAt)) });

    // An unknown promotion is refused the same way.
    expect((await refusal(await claim(999_999), 409)).message).toBe(OFFER_ENDED);
  });

  it("THE CONCURRENT CLAIM: 50 fans race for 5 places, exactly 5 are charged and subscribed", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const promotion = await startPromotion(creator.token, { percentOff: 50, audience: "new", claimLimit: 5 });
    const fans = await manyFans(50, 1000);

    const responses = await Promise.all(
      fans.map((fan) =>
        subscribe(
          creator.user.username,
          { period: "month", promotionId: promotion, priceCents: 500, idempotencyKey: newKey() },
          fan.token,
        ),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(45);
    const messages = await Promise.all(
      responses
        .filter((response) => response.status === 409)
        .map(async (response) => (await response.json()) as ErrorBody),
    );
    expect(new Set(messages.map((body) => body.message))).toEqual(new Set([ALL_CLAIMED]));

    expect(await countOf("payments WHERE creator_id = ? AND kind = 'subscription'", creator.user.userId)).toBe(5);
    expect(
      await countOf(
        "payments WHERE creator_id = ? AND offer_id = ? AND amount_cents = 500",
        creator.user.userId,
        promotion,
      ),
    ).toBe(5);
    expect(await countOf("subscriptions WHERE creator_id = ?", creator.user.userId)).toBe(5);
    expect(await countOf("offer_claims WHERE offer_id = ?", promotion)).toBe(5);
    const offers = await creatorOffers(creator.token);
    expect(offers.promotions[0]).toMatchObject({ id: promotion, claims: 5, running: false, revenueCents: 2500 });
    const wallets = await Promise.all(fans.map((fan) => walletOf(fan.user.userId)));
    expect(wallets.filter((cents) => cents === 500)).toHaveLength(5);
    expect(wallets.filter((cents) => cents === 1000)).toHaveLength(45);
    // Every place taken: a visitor is offered nothing.
    expect((await profileSeenBy(creator.user.username)).promotion).toBeNull();
    await expectCleanLedger();
  });

  it("a 100% promotion is a free trial; its limit holds under concurrent claims", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const stale = await postJson(
      "/me/promotions",
      { percentOff: 100, trialDays: 5, audience: "new", claimLimit: 3, periods: 4, endsAt: inDays(10) },
      { token: creator.token },
    );
    expect(stale.status).toBe(200);
    const promotion = ((await stale.json()) as Awaited<ReturnType<typeof creatorOffers>>).promotions[0]!;
    // A free trial's price holds for its trial only.
    expect(promotion).toMatchObject({ percentOff: 100, trialDays: 5, periods: 1, claimLimit: 3 });

    const fans = await manyFans(20, 0);
    // The instant the clock stops at, and the one the expected dates count from: the same.
    const now = Date.now();
    stopClockAt(new Date(now));
    const responses = await Promise.all(
      fans.map((fan) =>
        subscribe(creator.user.username, { period: "month", promotionId: promotion.id, priceCents: 0 }, fan.token),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(17);
    const won = await Promise.all(
      responses.filter((response) => response.status === 200).map((response) => subscribed(response)),
    );
    for (const subscription of won) {
      expect(subscription).toMatchObject({ status: "active", priceCents: 1000, trialEndsAt: inDays(5, now) });
      expect(subscription.currentPeriodEnd).toBe(subscription.trialEndsAt);
    }
    expect(await countOf("subscriptions WHERE creator_id = ?", creator.user.userId)).toBe(3);
    expect(await countOf("payments WHERE creator_id = ?", creator.user.userId)).toBe(0);
    expect(await countOf("offer_claims WHERE offer_id = ? AND free_trial = 1", promotion.id)).toBe(3);
  });
});

describe("trial links", () => {
  it("are made with a code given or made up; a code used twice is refused", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const given = await makeTrialLink(creator.token, { days: 7, code: "summer-free", claimLimit: 20 });
    expect(given).toMatchObject({ code: "summer-free", days: 7, claimLimit: 20, claims: 0, running: true });
    const madeUp = await makeTrialLink(creator.token, { days: 3 });
    expect(madeUp.code).toMatch(/^[a-z0-9]{10}$/);

    const taken = await refusal(
      await postJson("/me/trial-links", { days: 5, code: "summer-free", endsAt: inDays(3) }, { token: creator.token }),
      422,
    );
    expect(taken.errors.code).toEqual(["You already have a link with this code."]);
    // Another creator may use the same code.
    const other = await creatorWith([{ period: "week", priceCents: 500 }]);
    expect((await makeTrialLink(other.token, { days: 2, code: "summer-free" })).code).toBe("summer-free");

    for (const body of [
      { days: 0 },
      { days: 31 },
      { days: 7, code: "UPPER" },
      { days: 7, code: "abc" },
      { days: 7, endsAt: inDays(-1) },
    ]) {
      const refused = await refusal(
        await postJson("/me/trial-links", { endsAt: inDays(3), ...body }, { token: creator.token }),
        422,
      );
      expect(Object.keys(refused.errors).length).toBeGreaterThan(0);
    }
  });

  it("give the days free without a charge, once per fan per creator whatever the link", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 3, discountPercent: 10 }]);
    const link = await makeTrialLink(creator.token, { days: 7, code: "try-me" });
    const second = await makeTrialLink(creator.token, { days: 14, code: "try-me-too" });
    const fan = await fundedFan(5000);

    const paid = await refusal(
      await subscribe(
        creator.user.username,
        { period: "month", trialCode: link.code, priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
      409,
    );
    expect(paid.priceCents).toBe(0);

    // The instant the clock stops at, and the one the expected dates count from: the same.
    const now = Date.now();
    stopClockAt(new Date(now));
    const trial = await subscribed(
      await subscribe(creator.user.username, { period: "month", trialCode: "TRY-ME", priceCents: 0 }, fan.token),
    );
    expect(trial).toMatchObject({
      status: "active",
      priceCents: 1000,
      trialEndsAt: inDays(7, now),
      currentPeriodEnd: inDays(7, now),
    });
    expect(await paymentsOf(fan.user.userId)).toEqual([]);
    expect(await walletOf(fan.user.userId)).toBe(5000);
    expect(
      await countOf("follows WHERE follower_id = ? AND creator_id = ?", fan.user.userId, creator.user.userId),
    ).toBe(1);

    // Cancelled and ended, the fan cannot start another trial with any link.
    await cancelAndExpire(trial.id, fan.token);
    for (const code of [link.code, second.code]) {
      const refused = await refusal(
        await subscribe(creator.user.username, { period: "month", trialCode: code, priceCents: 0 }, fan.token),
        409,
      );
      expect(refused.message).toBe(HAD_TRIAL);
    }
    // …nor a 100% promotion, which is a trial too.
    const freePromotion = await startPromotion(creator.token, { percentOff: 100, trialDays: 3, audience: "both" });
    expect((await profileSeenBy(creator.user.username, fan.token)).promotion).toBeNull();
    expect(
      (
        await refusal(
          await subscribe(
            creator.user.username,
            { period: "month", promotionId: freePromotion, priceCents: 0 },
            fan.token,
          ),
          409,
        )
      ).message,
    ).toBe(HAD_TRIAL);
    expect(await countOf("subscriptions WHERE fan_id = ?", fan.user.userId)).toBe(1);

    // A trial on a bundle: the days free, then the bundle.
    const bundleFan = await fundedFan(0);
    const onBundle = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", bundleMonths: 3, trialCode: second.code, priceCents: 0 },
        bundleFan.token,
      ),
    );
    expect(onBundle).toMatchObject({ bundleMonths: 3, priceCents: 2700, trialEndsAt: inDays(14, now) });
  });

  it("are refused to a fan who subscribed before, and once ended or claimed out", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const link = await makeTrialLink(creator.token, { days: 7, claimLimit: 1 });
    const before = await expiredFanOf(creator.user.userId);
    const trial = (fan: Member, code = link.code) =>
      subscribe(creator.user.username, { period: "month", trialCode: code, priceCents: 0 }, fan.token);

    expect((await refusal(await trial(before), 409)).message).toBe(TRIALS_FOR_NEW);
    const first = await createFan();
    await subscribed(await trial(first));
    const late = await createFan();
    expect((await refusal(await trial(late), 409)).message).toBe(ALL_CLAIMED);

    const ended = await makeTrialLink(creator.token, { days: 7 });
    expect((await postJson(`/me/offers/${ended.id}/end`, {}, { token: creator.token })).status).toBe(200);
    expect((await refusal(await trial(late, ended.code), 409)).message).toBe(OFFER_ENDED);

    // A free plan has nothing to try: the link is not used up on it (nor the fan's one trial).
    const withFreeWeek = await creatorWith([
      { period: "week", priceCents: 0 },
      { period: "month", priceCents: 1000 },
    ]);
    const freeLink = await makeTrialLink(withFreeWeek.token, { days: 7, claimLimit: 1 });
    const onFree = await refusal(
      await subscribe(
        withFreeWeek.user.username,
        { period: "week", trialCode: freeLink.code, priceCents: 0 },
        late.token,
      ),
      409,
    );
    expect(onFree.message).toBe(NOT_FOR_YOU);
    expect(await countOf("offer_claims WHERE offer_id = ?", freeLink.id)).toBe(0);

    const unknown = await refusal(await trial(late, "no-such-link"), 422);
    expect(unknown.errors.trialCode).toEqual([OFFER_ENDED]);

    const expiring = await makeTrialLink(creator.token, { days: 7, endsAt: inDays(1) });
    stopClockAt(new Date(Date.parse(expiring.endsAt) + 1000));
    expect((await refusal(await trial(late, expiring.code), 409)).message).toBe(OFFER_ENDED);
    expect(await countOf("subscriptions WHERE fan_id = ?", late.user.userId)).toBe(0);

    const offers = await creatorOffers(creator.token);
    expect(offers.trialLinks.find((row) => row.id === link.id)).toMatchObject({
      claims: 1,
      stillSubscribed: 1,
      revenueCents: 0,
      running: false,
    });
  });
});

describe("what the creator sees of each offer", () => {
  it("claims, fans still subscribed and revenue match the payments", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const promotion = await startPromotion(creator.token, { percentOff: 20, audience: "both", periods: 3 });
    const link = await makeTrialLink(creator.token, { days: 7 });
    const claimants = await Promise.all([fundedFan(2000), fundedFan(2000), fundedFan(2000)]);
    const subscriptions = [];
    for (const fan of claimants)
      subscriptions.push(
        await subscribed(
          await subscribe(
            creator.user.username,
            { period: "month", promotionId: promotion, priceCents: 800, idempotencyKey: newKey() },
            fan.token,
          ),
        ),
      );
    // One cancels (no longer counts as still subscribed, its payment stays revenue).
    expect(
      (await postJson(`/subscriptions/${subscriptions[2]!.id}/cancel`, {}, { token: claimants[2]!.token })).status,
    ).toBe(200);
    // A fan paying the regular price is none of the offer's.
    const regular = await fundedFan(2000);
    await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        regular.token,
      ),
    );
    const trialFan = await createUser();
    await subscribed(
      await subscribe(creator.user.username, { period: "month", trialCode: link.code, priceCents: 0 }, trialFan.token),
    );

    const offers = await creatorOffers(creator.token);
    expect(offers.promotions).toEqual([
      expect.objectContaining({ id: promotion, claims: 3, stillSubscribed: 2, revenueCents: 2400, periods: 3 }),
    ]);
    expect(offers.trialLinks).toEqual([
      expect.objectContaining({ id: link.id, claims: 1, stillSubscribed: 1, revenueCents: 0 }),
    ]);
    expect(offers.retention).toBeNull();
    const paid = await env.DB.prepare(
      "SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM payments WHERE creator_id = ? AND offer_id = ?",
    )
      .bind(creator.user.userId, promotion)
      .first<number>("cents");
    expect(paid).toBe(2400);
  });
});

describe("bad input and who may", () => {
  it("each body's bounds answer 422 with a field error", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const fan = await fundedFan(5000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    const cases: { method: string; path: string; body: unknown; token: string; field: string }[] = [
      {
        method: "PUT",
        path: "/me/bundles",
        body: { bundles: [{ months: 4, discountPercent: 10 }] },
        token: creator.token,
        field: "bundles.0.months",
      },
      {
        method: "PUT",
        path: "/me/bundles",
        body: { bundles: [{ months: 3, discountPercent: 4 }] },
        token: creator.token,
        field: "bundles.0.discountPercent",
      },
      {
        method: "PUT",
        path: "/me/bundles",
        body: { bundles: [{ months: 3, discountPercent: 51 }] },
        token: creator.token,
        field: "bundles.0.discountPercent",
      },
      {
        method: "PUT",
        path: "/me/bundles",
        body: { bundles: [{ months: 3, discountPercent: 10.5 }] },
        token: creator.token,
        field: "bundles.0.discountPercent",
      },
      {
        method: "PUT",
        path: "/me/bundles",
        body: {
          bundles: [
            { months: 3, discountPercent: 10 },
            { months: 3, discountPercent: 20 },
          ],
        },
        token: creator.token,
        field: "bundles",
      },
      { method: "PUT", path: "/me/bundles", body: {}, token: creator.token, field: "bundles" },
      {
        method: "POST",
        path: "/me/promotions",
        body: { percentOff: "50", audience: "new", endsAt: inDays(3) },
        token: creator.token,
        field: "percentOff",
      },
      {
        method: "POST",
        path: "/me/promotions",
        body: { percentOff: 50, audience: "new" },
        token: creator.token,
        field: "endsAt",
      },
      {
        method: "POST",
        path: "/me/promotions",
        body: { percentOff: 50, audience: "new", endsAt: inDays(3), claimLimit: 100_001 },
        token: creator.token,
        field: "claimLimit",
      },
      {
        method: "POST",
        path: "/me/trial-links",
        body: { days: 7.5, endsAt: inDays(3) },
        token: creator.token,
        field: "days",
      },
      {
        method: "POST",
        path: "/me/trial-links",
        body: { days: 7, endsAt: inDays(3), code: "has space" },
        token: creator.token,
        field: "code",
      },
      {
        method: "PUT",
        path: "/me/retention-offer",
        body: { active: true, percentOff: 91, periods: 2 },
        token: creator.token,
        field: "percentOff",
      },
      {
        method: "PUT",
        path: "/me/retention-offer",
        body: { active: true, percentOff: 50, periods: 0 },
        token: creator.token,
        field: "periods",
      },
      {
        method: "PUT",
        path: "/me/retention-offer",
        body: { active: true, percentOff: 4, periods: 1 },
        token: creator.token,
        field: "percentOff",
      },
      {
        method: "POST",
        path: `/subscriptions/${subscription.id}/retain`,
        body: { offerId: 0 },
        token: fan.token,
        field: "offerId",
      },
      {
        method: "POST",
        path: `/subscriptions/${subscription.id}/retain`,
        body: {},
        token: fan.token,
        field: "offerId",
      },
      {
        method: "POST",
        path: `/subscriptions/${subscription.id}/plan`,
        body: { period: "day", priceCents: 100 },
        token: fan.token,
        field: "period",
      },
      {
        method: "POST",
        path: `/subscriptions/${subscription.id}/plan`,
        body: { period: "month", bundleMonths: 2, priceCents: 100 },
        token: fan.token,
        field: "bundleMonths",
      },
      {
        method: "POST",
        path: `/subscriptions/${subscription.id}/plan`,
        body: { period: "month", priceCents: -1 },
        token: fan.token,
        field: "priceCents",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/gift`,
        body: { to: "x", months: 2, priceCents: 100, idempotencyKey: newKey() },
        token: fan.token,
        field: "months",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/gift`,
        body: { to: "", months: 1, priceCents: 1000, idempotencyKey: newKey() },
        token: fan.token,
        field: "to",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/gift`,
        body: { to: "x".repeat(65), months: 1, priceCents: 1000, idempotencyKey: newKey() },
        token: fan.token,
        field: "to",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/gift`,
        body: { to: "someone", months: 1, priceCents: 1000 },
        token: fan.token,
        field: "idempotencyKey",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/subscribe`,
        body: { period: "month", bundleMonths: 4, priceCents: 1000, idempotencyKey: newKey() },
        token: fan.token,
        field: "bundleMonths",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/subscribe`,
        body: { period: "month", promotionId: -3, priceCents: 1000, idempotencyKey: newKey() },
        token: fan.token,
        field: "promotionId",
      },
      {
        method: "POST",
        path: `/users/${creator.user.username}/subscribe`,
        body: { period: "month", trialCode: "x".repeat(65), priceCents: 0 },
        token: fan.token,
        field: "trialCode",
      },
    ];
    for (const { method, path, body, token, field } of cases) {
      const response = await api(path, { method, body: JSON.stringify(body), token });
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(422);
      const answer = (await response.json()) as ErrorBody;
      expect(Object.keys(answer.errors), `${method} ${path} ${JSON.stringify(body)}`).toContain(field);
    }
    // Ids in the path.
    expect((await postJson("/me/offers/abc/end", {}, { token: creator.token })).status).toBe(422);
    expect((await api("/subscriptions/0/retention-offer", { token: fan.token })).status).toBe(422);
    expect(await countOf("offers WHERE creator_id = ?", creator.user.userId)).toBe(0);
    expect(await paymentsOf(fan.user.userId)).toHaveLength(1);
  });

  it("a member who is not a creator gets 403 on the creator's offers; a visitor 401", async () => {
    const member = await createFan();
    const cases: [string, string, unknown][] = [
      ["GET", "/me/offers", undefined],
      ["PUT", "/me/bundles", { bundles: [] }],
      ["POST", "/me/promotions", { percentOff: 50, audience: "new", endsAt: inDays(3) }],
      ["POST", "/me/trial-links", { days: 7, endsAt: inDays(3) }],
      ["POST", "/me/offers/1/end", {}],
      ["PUT", "/me/retention-offer", { active: false }],
    ];
    for (const [method, path, body] of cases) {
      const init = { method, body: body === undefined ? undefined : JSON.stringify(body) };
      expect((await api(path, { ...init, token: member.token })).status, `${method} ${path}`).toBe(403);
      expect((await api(path, init)).status, `${method} ${path}`).toBe(401);
    }
    for (const [method, path, body] of [
      ["GET", "/subscriptions/1/retention-offer", undefined],
      ["POST", "/subscriptions/1/retain", { offerId: 1 }],
      ["POST", "/subscriptions/1/plan", { period: "month", priceCents: 100 }],
      ["POST", "/users/someone/gift", { to: "x", months: 1, priceCents: 100, idempotencyKey: newKey() }],
    ] as const)
      expect((await api(path, { method, body: body && JSON.stringify(body) })).status, path).toBe(401);
  });

  it("someone else's subscription is none of the caller's", async () => {
    const creator = await creatorWith([
      { period: "month", priceCents: 1000 },
      { period: "week", priceCents: 500 },
    ]);
    expect(
      (
        await api("/me/retention-offer", {
          method: "PUT",
          token: creator.token,
          body: JSON.stringify({ active: true, percentOff: 50, periods: 2 }),
        })
      ).status,
    ).toBe(200);
    const owner = await fundedFan(2000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        owner.token,
      ),
    );
    const intruder = await createFan();
    expect(
      await (await api(`/subscriptions/${subscription.id}/retention-offer`, { token: intruder.token })).json(),
    ).toEqual({
      offer: null,
    });
    const offerId = (await creatorOffers(creator.token)).retention!.id;
    expect(
      (await postJson(`/subscriptions/${subscription.id}/retain`, { offerId }, { token: intruder.token })).status,
    ).toBe(404);
    expect(
      (
        await postJson(
          `/subscriptions/${subscription.id}/plan`,
          { period: "week", priceCents: 500 },
          { token: intruder.token },
        )
      ).status,
    ).toBe(404);
    expect(await subscriptionRow(subscription.id)).toMatchObject({ offer_renewals_left: 0, next_period: null });
  });
});
