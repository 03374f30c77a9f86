import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import type { RetentionOffer } from "@shared/contracts/offers";
import type { Profile } from "@shared/contracts/profiles";
import { addMonths } from "../../worker/domain/subscriptions/periods";
import { renewSubscriptions } from "../../worker/domain/subscriptions/renew-subscriptions";
import { stopClockAt } from "./clock";
import { testContext } from "./domain-context";
import { api, postJson } from "./factories";
import { createFan, fundWallet, newKey } from "./money-fixtures";
import {
  countOf,
  creatorOffers,
  creatorWith,
  expectCleanLedger,
  fundedFan,
  inDays,
  letClockRun,
  makeTrialLink,
  paymentsOf,
  startPromotion,
  subscribe,
  subscribed,
  subscriptionRow,
  walletOf,
  type Member,
} from "./offer-fixtures";
import { createPost } from "./timeline-fixtures";

afterAll(expectCleanLedger);

type ErrorBody = { message: string; errors: Record<string, string[]>; priceCents?: number };

const refusal = async (response: Response, status: number) => {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as ErrorBody;
};

const DAY_MS = 24 * 3_600_000;

/** Noon (UTC) of the first Wednesday after `iso`: a payment then is released 7 business days later, a Friday. */
function wednesdayNoonAfter(iso: string): Date {
  const at = new Date(Date.parse(iso) + DAY_MS);
  at.setUTCHours(12, 0, 0, 0);
  while (at.getUTCDay() !== 3) at.setTime(at.getTime() + DAY_MS);
  return at;
}

/** Stops the clock just past `iso` and runs the cron's renewals, as the scheduled job would then. */
async function cronAfter(iso: string, at = new Date(Date.parse(iso) + 60_000)) {
  stopClockAt(at);
  return renewSubscriptions(testContext());
}

const profileOf = async (username: string, token: string) =>
  (await (await api(`/users/${username}`, { token })).json()) as Profile;

const lockSeenBy = async (postId: number, token: string) =>
  ((await (await api(`/posts/${postId}`, { token })).json()) as { lock: string | null }).lock;

const renewalsOf = async (fanId: number) => (await paymentsOf(fanId)).filter((payment) => payment.kind === "renewal");

describe("a bundle's renewal", () => {
  it("charges the bundle again at the lower of the agreed and today's price, one earning held 7 business days", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 3, discountPercent: 10 }]);
    const fan = await fundedFan(10_000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", bundleMonths: 3, priceCents: 2700, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    const firstEnd = subscription.currentPeriodEnd;
    // A dearer monthly plan does not raise the bundle already agreed.
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 1200 }] }),
    });

    const renewedAt = wednesdayNoonAfter(firstEnd);
    await cronAfter(firstEnd, renewedAt);
    await renewSubscriptions(testContext());
    const [renewal] = await renewalsOf(fan.user.userId);
    expect(await renewalsOf(fan.user.userId)).toHaveLength(1);
    expect(renewal).toMatchObject({ amount_cents: 2700, subscription_id: subscription.id, offer_id: null });
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      status: "active",
      bundle_months: 3,
      price_cents: 2700,
      current_period_end: addMonths(firstEnd, 3),
    });
    const earnings = await env.DB.prepare(
      "SELECT gross_cents, created_at, release_at FROM earnings WHERE payment_id = ?",
    )
      .bind(renewal!.id)
      .all<{ gross_cents: number; created_at: string; release_at: string }>();
    expect(earnings.results).toEqual([
      {
        gross_cents: 2700,
        created_at: renewedAt.toISOString(),
        release_at: new Date(renewedAt.getTime() + 9 * DAY_MS).toISOString(),
      },
    ]);

    // A cheaper monthly plan lowers the next bundle.
    letClockRun();
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 800 }] }),
    });
    await cronAfter(addMonths(firstEnd, 3));
    expect((await renewalsOf(fan.user.userId)).map((payment) => payment.amount_cents)).toEqual([2700, 2160]);
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      price_cents: 2160,
      current_period_end: addMonths(firstEnd, 6),
    });
    expect(await walletOf(fan.user.userId)).toBe(10_000 - 2700 * 2 - 2160);
  });

  it("a withdrawn bundle ends the subscription at its date, charging nothing", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 6, discountPercent: 20 }]);
    const fan = await fundedFan(10_000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", bundleMonths: 6, priceCents: 4800, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    await api("/me/bundles", { method: "PUT", token: creator.token, body: JSON.stringify({ bundles: [] }) });
    await cronAfter(subscription.currentPeriodEnd);
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      status: "expired",
      ended_at: subscription.currentPeriodEnd,
    });
    expect(await renewalsOf(fan.user.userId)).toEqual([]);
  });
});

describe("a promotion's renewals", () => {
  it("periods = 2: the first renewal is still discounted, the second is regular", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const promotion = await startPromotion(creator.token, { percentOff: 50, audience: "new", periods: 2 });
    const fan = await fundedFan(10_000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", promotionId: promotion, priceCents: 500, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    const start = subscription.currentPeriodEnd;
    await cronAfter(start);
    await renewSubscriptions(testContext());
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      offer_percent: 0,
      offer_renewals_left: 0,
      current_period_end: addMonths(start, 1),
    });
    await cronAfter(addMonths(start, 1));
    await renewSubscriptions(testContext());
    expect(
      (await paymentsOf(fan.user.userId)).map(({ kind, amount_cents, offer_id }) => [kind, amount_cents, offer_id]),
    ).toEqual([
      ["subscription", 500, promotion],
      ["renewal", 500, promotion],
      ["renewal", 1000, null],
    ]);
    expect(await walletOf(fan.user.userId)).toBe(8000);
    letClockRun();
    const [mine] = (
      (await (await api("/me/subscriptions", { token: fan.token })).json()) as {
        subscriptions: { id: number; offerRenewalsLeft: number; offerPercent: number; priceCents: number }[];
      }
    ).subscriptions;
    expect(mine).toMatchObject({ id: subscription.id, offerRenewalsLeft: 0, offerPercent: 0, priceCents: 1000 });
    // What the promotion brought: every payment of the claimed subscription since the claim.
    expect((await creatorOffers(creator.token)).promotions[0]).toMatchObject({
      claims: 1,
      stillSubscribed: 1,
      revenueCents: 2000,
    });
  });
});

describe("a trial's end, by the cron", () => {
  async function onTrial(fanCents: number, plan: Record<string, unknown> = { period: "month" }) {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 3, discountPercent: 10 }]);
    const link = await makeTrialLink(creator.token, { days: 7 });
    const fan = await fundedFan(fanCents);
    stopClockAt(new Date());
    const subscription = await subscribed(
      await subscribe(creator.user.username, { ...plan, trialCode: link.code, priceCents: 0 }, fan.token),
    );
    expect(subscription.trialEndsAt).toBe(inDays(7));
    return { creator, link, fan, subscription, trialEnd: subscription.trialEndsAt! };
  }

  it("a funded fan is charged the plan once, the payment records the trial, and the subscription moves on", async () => {
    const { link, fan, subscription, trialEnd } = await onTrial(5000);
    stopClockAt(new Date(Date.parse(trialEnd) + 60_000));
    // Two runs at once (a retried cron) charge once.
    const runs = await Promise.all([renewSubscriptions(testContext()), renewSubscriptions(testContext())]);
    expect(runs.map((run) => run.renewed).sort()).toEqual([0, 1]);
    expect(await renewSubscriptions(testContext())).toMatchObject({ renewed: 0, expired: 0 });
    expect(await paymentsOf(fan.user.userId)).toEqual([
      expect.objectContaining({
        kind: "renewal",
        amount_cents: 1000,
        offer_id: link.id,
        subscription_id: subscription.id,
      }),
    ]);
    expect(await walletOf(fan.user.userId)).toBe(4000);
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      status: "active",
      trial_ends_at: trialEnd,
      current_period_end: addMonths(trialEnd, 1),
    });
    // The next renewal is a plain one.
    await cronAfter(addMonths(trialEnd, 1));
    expect((await paymentsOf(fan.user.userId)).map((payment) => [payment.amount_cents, payment.offer_id])).toEqual([
      [1000, link.id],
      [1000, null],
    ]);
  });

  it("a trial on a bundle turns into the bundle", async () => {
    const { fan, subscription, trialEnd } = await onTrial(5000, { period: "month", bundleMonths: 3 });
    await cronAfter(trialEnd);
    expect((await paymentsOf(fan.user.userId)).map((payment) => payment.amount_cents)).toEqual([2700]);
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      status: "active",
      bundle_months: 3,
      current_period_end: addMonths(trialEnd, 3),
    });
  });

  it("an unfunded fan's trial ends: told by a notification and a mail, and they can subscribe again without a trial", async () => {
    const { creator, link, fan, subscription, trialEnd } = await onTrial(0);
    expect(await cronAfter(trialEnd)).toMatchObject({ renewed: 0, expired: 1 });
    await renewSubscriptions(testContext());
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: "expired", ended_at: trialEnd });
    expect(await paymentsOf(fan.user.userId)).toEqual([]);
    const notices = await env.DB.prepare(
      "SELECT actor_id, params FROM notifications WHERE user_id = ? AND kind = 'renewal_failed'",
    )
      .bind(fan.user.userId)
      .all<{ actor_id: number; params: string }>();
    expect(notices.results).toHaveLength(1);
    expect(notices.results[0]!.actor_id).toBe(creator.user.userId);
    expect(JSON.parse(notices.results[0]!.params)).toEqual({ amountCents: 1000, trial: 1 });
    const mails = await env.DB.prepare("SELECT subject, text_body FROM dev_mailbox WHERE to_address = ?")
      .bind(fan.input.email.toLowerCase())
      .all<{ subject: string; text_body: string }>();
    const ended = mails.results.filter((mail) => mail.subject.includes("free trial"));
    expect(ended).toHaveLength(1);
    expect(ended[0]!.subject).toBe(`Your free trial of ${creator.input.name} has ended`);
    expect(ended[0]!.text_body).toContain(`/${creator.user.username}`);

    // No second trial; a paid subscription is welcome.
    letClockRun();
    expect(
      (
        await refusal(
          await subscribe(creator.user.username, { period: "month", trialCode: link.code, priceCents: 0 }, fan.token),
          409,
        )
      ).message,
    ).toBe("You have already had a free trial with this creator.");
    await fundWallet(fan.user.userId, 1000);
    const again = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    expect(again).toMatchObject({ status: "active", trialEndsAt: null });
    expect(again.id).not.toBe(subscription.id);
    expect(await walletOf(fan.user.userId)).toBe(0);
  });

  it("a trial cancelled before its end ends without a charge", async () => {
    const { fan, subscription, trialEnd } = await onTrial(5000);
    expect((await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: fan.token })).status).toBe(200);
    await cronAfter(trialEnd);
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: "expired" });
    expect(await paymentsOf(fan.user.userId)).toEqual([]);
    expect(await countOf("notifications WHERE user_id = ? AND kind = 'renewal_failed'", fan.user.userId)).toBe(0);
  });
});

describe("gifts", () => {
  async function giftSetup() {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }], [{ months: 3, discountPercent: 10 }]);
    const giver = await fundedFan(20_000);
    const recipient = await createFan();
    return { creator, giver, recipient };
  }
  const gift = (creator: Member, giver: Member, body: Record<string, unknown>) =>
    postJson(`/users/${creator.user.username}/gift`, { idempotencyKey: newKey(), ...body }, { token: giver.token });

  it("charges the giver once, entitles the recipient until its end, then ends charging nobody", async () => {
    const { creator, giver, recipient } = await giftSetup();
    const post = await createPost(creator.user.userId, { audience: "subscribers" });
    expect(await lockSeenBy(post.id, recipient.token)).toBe("subscribe");

    const to = recipient.user.username;
    expect((await refusal(await gift(creator, giver, { to, months: 3, priceCents: 3000 }), 409)).priceCents).toBe(2700);
    // Without a bundle of that length: that many months at the monthly price.
    expect((await refusal(await gift(creator, giver, { to, months: 6, priceCents: 4800 }), 409)).priceCents).toBe(6000);
    expect(await paymentsOf(giver.user.userId)).toEqual([]);

    stopClockAt(new Date());
    const key = newKey();
    const body = { to: `@${to}`, months: 3, priceCents: 2700, idempotencyKey: key };
    const given = await postJson(`/users/${creator.user.username}/gift`, body, { token: giver.token });
    expect(given.status, await given.clone().text()).toBe(200);
    const answer = (await given.json()) as { recipient: string; months: number; endsAt: string };
    expect(answer).toEqual({ recipient: to, months: 3, endsAt: addMonths(inDays(0), 3) });
    const replay = await postJson(`/users/${creator.user.username}/gift`, body, { token: giver.token });
    expect(await replay.json()).toEqual(answer);

    expect(await paymentsOf(giver.user.userId)).toEqual([
      expect.objectContaining({ kind: "subscription", amount_cents: 2700, gift_for_id: recipient.user.userId }),
    ]);
    expect(await walletOf(giver.user.userId)).toBe(20_000 - 2700);
    expect((await profileOf(creator.user.username, recipient.token)).subscription).toMatchObject({
      status: "cancelled",
      giftedBy: giver.user.username,
      currentPeriodEnd: answer.endsAt,
      priceCents: 1000,
    });
    expect(await lockSeenBy(post.id, recipient.token)).toBeNull();
    const notices = await env.DB.prepare("SELECT kind, actor_id, params FROM notifications WHERE user_id = ?")
      .bind(recipient.user.userId)
      .all<{ kind: string; actor_id: number; params: string }>();
    expect(notices.results.filter((row) => row.kind === "gift")).toEqual([
      { kind: "gift", actor_id: creator.user.userId, params: JSON.stringify({ from: giver.input.name, months: 3 }) },
    ]);
    expect(await countOf("subscriptions WHERE fan_id = ?", recipient.user.userId)).toBe(1);

    await cronAfter(answer.endsAt);
    const [row] = (
      await env.DB.prepare("SELECT id, status FROM subscriptions WHERE fan_id = ?")
        .bind(recipient.user.userId)
        .all<{ id: number; status: string }>()
    ).results;
    expect(row!.status).toBe("expired");
    expect(await paymentsOf(giver.user.userId)).toHaveLength(1);
    expect(await paymentsOf(recipient.user.userId)).toEqual([]);
  });

  it("to someone already subscribed it moves their renewal on by the months, with no second subscription", async () => {
    const { creator, giver, recipient } = await giftSetup();
    await fundWallet(recipient.user.userId, 1000);
    const own = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        recipient.token,
      ),
    );
    const given = await gift(creator, giver, { to: recipient.user.username, months: 1, priceCents: 1000 });
    expect(given.status, await given.clone().text()).toBe(200);
    expect(await given.json()).toMatchObject({ endsAt: addMonths(own.currentPeriodEnd, 1) });
    expect(await subscriptionRow(own.id)).toMatchObject({
      status: "active",
      gifted_by: null,
      current_period_end: addMonths(own.currentPeriodEnd, 1),
    });
    expect(await countOf("subscriptions WHERE fan_id = ?", recipient.user.userId)).toBe(1);
    expect(await paymentsOf(giver.user.userId)).toEqual([
      expect.objectContaining({ amount_cents: 1000, subscription_id: own.id, gift_for_id: recipient.user.userId }),
    ]);
    // Their own renewal comes a month later, on their own money.
    await cronAfter(own.currentPeriodEnd);
    expect(await renewalsOf(recipient.user.userId)).toEqual([]);
  });

  it("is refused to yourself, to the creator, at a wrong price, without funds or a monthly plan", async () => {
    const { creator, giver, recipient } = await giftSetup();
    expect((await gift(creator, giver, { to: giver.user.username, months: 1, priceCents: 1000 })).status).toBe(403);
    const toCreator = await refusal(
      await gift(creator, giver, { to: creator.user.username, months: 1, priceCents: 1000 }),
      422,
    );
    expect(toCreator.errors.to).toEqual(["This member cannot receive a subscription to this creator."]);
    expect((await gift(creator, creator, { to: recipient.user.username, months: 1, priceCents: 1000 })).status).toBe(
      403,
    );
    expect((await gift(creator, giver, { to: "nobody_here_at_all", months: 1, priceCents: 1000 })).status).toBe(404);
    const poor = await fundedFan(500);
    expect((await gift(creator, poor, { to: recipient.user.username, months: 1, priceCents: 1000 })).status).toBe(402);
    const weekly = await creatorWith([{ period: "week", priceCents: 500 }]);
    expect((await gift(weekly, giver, { to: recipient.user.username, months: 1, priceCents: 500 })).status).toBe(422);
    expect(await paymentsOf(giver.user.userId)).toEqual([]);
    expect(await countOf("subscriptions WHERE fan_id = ?", recipient.user.userId)).toBe(0);
  });
});

describe("a plan change", () => {
  async function monthly() {
    const creator = await creatorWith(
      [
        { period: "week", priceCents: 500 },
        { period: "month", priceCents: 1000 },
      ],
      [{ months: 3, discountPercent: 10 }],
    );
    const fan = await fundedFan(20_000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    return { creator, fan, subscription };
  }
  const change = (id: number, body: Record<string, unknown>, token: string) =>
    postJson(`/subscriptions/${id}/plan`, body, { token });

  it("charges nothing now, shows the next plan, and the renewal charges it once", async () => {
    const { fan, subscription } = await monthly();
    const toWeek = await change(subscription.id, { period: "week", priceCents: 500 }, fan.token);
    expect(await subscribed(toWeek)).toMatchObject({
      period: "month",
      nextPlan: { period: "week", bundleMonths: null, priceCents: 500 },
    });
    // The current plan again: no change pending.
    expect(
      await subscribed(await change(subscription.id, { period: "month", priceCents: 1000 }, fan.token)),
    ).toMatchObject({ nextPlan: null });
    expect(
      (
        await refusal(
          await change(subscription.id, { period: "month", bundleMonths: 3, priceCents: 3000 }, fan.token),
          409,
        )
      ).priceCents,
    ).toBe(2700);
    expect(
      (
        await refusal(
          await change(subscription.id, { period: "month", bundleMonths: 6, priceCents: 6000 }, fan.token),
          422,
        )
      ).errors.period,
    ).toBeDefined();
    const toBundle = await subscribed(
      await change(subscription.id, { period: "month", bundleMonths: 3, priceCents: 2700 }, fan.token),
    );
    expect(toBundle.nextPlan).toEqual({ period: "month", bundleMonths: 3, priceCents: 2700 });
    expect(await paymentsOf(fan.user.userId)).toHaveLength(1);

    const end = subscription.currentPeriodEnd;
    await cronAfter(end);
    await renewSubscriptions(testContext());
    expect((await renewalsOf(fan.user.userId)).map((payment) => payment.amount_cents)).toEqual([2700]);
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      period: "month",
      bundle_months: 3,
      price_cents: 2700,
      current_period_end: addMonths(end, 3),
      next_period: null,
      next_bundle_months: null,
      next_price_cents: null,
    });
    expect(await walletOf(fan.user.userId)).toBe(20_000 - 1000 - 2700);
  });

  it("to a weekly plan moves the period on by a week", async () => {
    const { fan, subscription } = await monthly();
    await subscribed(await change(subscription.id, { period: "week", priceCents: 500 }, fan.token));
    const end = subscription.currentPeriodEnd;
    await cronAfter(end);
    expect((await renewalsOf(fan.user.userId)).map((payment) => payment.amount_cents)).toEqual([500]);
    expect(await subscriptionRow(subscription.id)).toMatchObject({
      period: "week",
      bundle_months: null,
      price_cents: 500,
      current_period_end: new Date(Date.parse(end) + 7 * DAY_MS).toISOString(),
    });
  });

  it("is refused on a cancelled subscription", async () => {
    const { fan, subscription } = await monthly();
    expect((await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: fan.token })).status).toBe(200);
    const refused = await refusal(await change(subscription.id, { period: "week", priceCents: 500 }, fan.token), 409);
    expect(refused.message).toBe("Only a subscription that renews can change plan: resubscribe first.");
    expect(await subscriptionRow(subscription.id)).toMatchObject({ next_period: null });
    expect((await change(999_999, { period: "week", priceCents: 500 }, fan.token)).status).toBe(404);
  });
});

describe("the retention offer", () => {
  const retentionOf = async (subscriptionId: number, token: string) => {
    const response = await api(`/subscriptions/${subscriptionId}/retention-offer`, { token });
    expect(response.status).toBe(200);
    return ((await response.json()) as { offer: RetentionOffer | null }).offer;
  };
  const setRetention = async (token: string, body: Record<string, unknown>) => {
    const response = await api("/me/retention-offer", { method: "PUT", token, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await creatorOffers(token)).retention;
  };

  it("discounts the next renewals once taken, and is offered only once", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const fan = await fundedFan(10_000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    expect(await retentionOf(subscription.id, fan.token)).toBeNull();
    const retention = await setRetention(creator.token, { active: true, percentOff: 40, periods: 2 });
    expect(retention).toMatchObject({ percentOff: 40, periods: 2, claims: 0 });
    // The same terms again are the same offer.
    expect((await setRetention(creator.token, { active: true, percentOff: 40, periods: 2 }))!.id).toBe(retention!.id);
    const offer = await retentionOf(subscription.id, fan.token);
    expect(offer).toEqual({ id: retention!.id, percentOff: 40, periods: 2 });

    expect(
      (await postJson(`/subscriptions/${subscription.id}/retain`, { offerId: offer!.id + 1 }, { token: fan.token }))
        .status,
    ).toBe(409);
    const kept = await subscribed(
      await postJson(`/subscriptions/${subscription.id}/retain`, { offerId: offer!.id }, { token: fan.token }),
    );
    expect(kept).toMatchObject({ status: "active", offerPercent: 40, offerRenewalsLeft: 2 });
    expect(await retentionOf(subscription.id, fan.token)).toBeNull();
    const twice = await refusal(
      await postJson(`/subscriptions/${subscription.id}/retain`, { offerId: offer!.id }, { token: fan.token }),
      409,
    );
    expect(twice.message).toBe("This offer has ended.");
    expect(await paymentsOf(fan.user.userId)).toHaveLength(1);

    const end = subscription.currentPeriodEnd;
    for (const months of [0, 1, 2]) await cronAfter(addMonths(end, months));
    expect((await renewalsOf(fan.user.userId)).map((payment) => [payment.amount_cents, payment.offer_id])).toEqual([
      [600, offer!.id],
      [600, offer!.id],
      [1000, null],
    ]);
    // Used up, it is not offered again.
    letClockRun();
    expect(await retentionOf(subscription.id, fan.token)).toBeNull();
    expect((await creatorOffers(creator.token)).retention).toMatchObject({
      id: offer!.id,
      claims: 1,
      stillSubscribed: 1,
      revenueCents: 2200,
    });
  });

  it("is not offered on a free, trial, gifted or discounted subscription, nor once off; cancelling works as before", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    await setRetention(creator.token, { active: true, percentOff: 50, periods: 1 });

    const free = await creatorWith([{ period: "month", priceCents: 0 }]);
    await setRetention(free.token, { active: true, percentOff: 50, periods: 1 });
    const freeFan = await createFan();
    const freeSubscription = await subscribed(await subscribe(free.user.username, { period: "month" }, freeFan.token));
    expect(await retentionOf(freeSubscription.id, freeFan.token)).toBeNull();

    const link = await makeTrialLink(creator.token, { days: 7 });
    const trialFan = await createFan();
    const trial = await subscribed(
      await subscribe(creator.user.username, { period: "month", trialCode: link.code, priceCents: 0 }, trialFan.token),
    );
    expect(await retentionOf(trial.id, trialFan.token)).toBeNull();

    const promotion = await startPromotion(creator.token, { percentOff: 20, audience: "new", periods: 3 });
    const promoFan = await fundedFan(1000);
    const promo = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", promotionId: promotion, priceCents: 800, idempotencyKey: newKey() },
        promoFan.token,
      ),
    );
    expect(await retentionOf(promo.id, promoFan.token)).toBeNull();

    const gifted = await createFan();
    const giver = await fundedFan(1000);
    const given = await postJson(
      `/users/${creator.user.username}/gift`,
      { to: gifted.user.username, months: 1, priceCents: 1000, idempotencyKey: newKey() },
      { token: giver.token },
    );
    expect(given.status).toBe(200);
    const gift = (await profileOf(creator.user.username, gifted.token)).subscription!;
    // Resumed on their own money, it is still a gift's: not offered.
    expect((await subscribe(creator.user.username, { period: "month" }, gifted.token)).status).toBe(200);
    expect(await retentionOf(gift.id, gifted.token)).toBeNull();

    const payer = await fundedFan(5000);
    const paid = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        payer.token,
      ),
    );
    expect(await retentionOf(paid.id, payer.token)).not.toBeNull();
    await setRetention(creator.token, { active: false });
    expect(await retentionOf(paid.id, payer.token)).toBeNull();

    // Declining is cancelling as before: it runs to its end, then ends without a charge.
    const cancelled = await postJson(`/subscriptions/${paid.id}/cancel`, {}, { token: payer.token });
    expect(await subscribed(cancelled)).toMatchObject({ status: "cancelled", offerRenewalsLeft: 0 });
    await cronAfter(paid.currentPeriodEnd);
    expect(await subscriptionRow(paid.id)).toMatchObject({ status: "expired" });
    expect(await renewalsOf(payer.user.userId)).toEqual([]);
  });

  it("a fan who took it may still cancel: nothing more is charged", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    const retention = await setRetention(creator.token, { active: true, percentOff: 30, periods: 3 });
    const fan = await fundedFan(5000);
    const subscription = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    await subscribed(
      await postJson(`/subscriptions/${subscription.id}/retain`, { offerId: retention!.id }, { token: fan.token }),
    );
    await subscribed(await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: fan.token }));
    await cronAfter(subscription.currentPeriodEnd);
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: "expired" });
    expect(await renewalsOf(fan.user.userId)).toEqual([]);
  });
});
