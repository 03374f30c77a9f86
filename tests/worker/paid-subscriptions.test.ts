import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { afterAll, describe, expect, it } from "vitest";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { addPeriod } from "../../worker/domain/subscriptions/periods";
import { renewSubscriptions } from "../../worker/domain/subscriptions/renew-subscriptions";
import { api, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { createPost } from "./timeline-fixtures";

type Subscription = { id: number; status: string; priceCents: number; currentPeriodEnd: string };

async function creatorWithPlans(plans: { period: string; priceCents: number }[]) {
  const creator = await createVerifiedCreator();
  const response = await api("/me/plans", { method: "PUT", token: creator.token, body: JSON.stringify({ plans }) });
  expect(response.status).toBe(200);
  return creator;
}

const subscribe = (username: string, body: unknown, token: string) =>
  postJson(`/users/${username}/subscribe`, body, { token });

const countOf = (sql: string, ...binds: unknown[]) =>
  env.DB.prepare(`SELECT COUNT(*) AS n FROM ${sql}`)
    .bind(...binds)
    .first<number>("n");

const chargesOf = (fanId: number) =>
  countOf("payments WHERE user_id = ? AND kind IN ('subscription', 'renewal')", fanId);
const row = (id: number) =>
  env.DB.prepare("SELECT * FROM subscriptions WHERE id = ?")
    .bind(id)
    .first<{ status: string; current_period_end: string; ended_at: string | null; price_cents: number }>();
const endPeriodAt = (id: number, iso: string) =>
  env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE id = ?").bind(iso, id).run();
const flag = async (token: string) =>
  ((await (await api("/updates", { token })).json()) as { updates: { balance: boolean } }).updates.balance;
const lockSeenBy = async (postId: number, token: string) =>
  ((await (await api(`/posts/${postId}`, { token })).json()) as { lock: string | null }).lock;

/** A fan subscribed to a $9.99 monthly plan, with `left` cents in the wallet afterwards. */
async function paidSubscription(left: number) {
  const creator = await creatorWithPlans([{ period: "month", priceCents: 999 }]);
  const fan = await createFan();
  await fundWallet(fan.user.userId, 999 + left);
  const response = await subscribe(
    creator.user.username,
    { period: "month", priceCents: 999, idempotencyKey: newKey() },
    fan.token,
  );
  expect(response.status).toBe(200);
  return { creator, fan, subscription: (await response.json()) as Subscription };
}

afterAll(async () => {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
});

describe("subscribing to a paid plan", () => {
  it("charges the first period once, unlocks subscriber posts, follows and notifies; a replay charges nothing", async () => {
    const creator = await creatorWithPlans([{ period: "month", priceCents: 999 }]);
    const fan = await createFan();
    await fundWallet(fan.user.userId, 2000);
    const post = await createPost(creator.user.userId, { audience: "subscribers" });
    expect(await lockSeenBy(post.id, fan.token)).toBe("subscribe");

    const key = newKey();
    const first = await subscribe(
      creator.user.username,
      { period: "month", priceCents: 999, idempotencyKey: key },
      fan.token,
    );
    expect(first.status).toBe(200);
    const subscription = (await first.json()) as Subscription;
    expect(subscription).toMatchObject({ status: "active", priceCents: 999 });
    const replay = (await (
      await subscribe(creator.user.username, { period: "month", priceCents: 999, idempotencyKey: key }, fan.token)
    ).json()) as Subscription;
    expect(replay.id).toBe(subscription.id);

    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 1001 });
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 799 });
    const payment = await env.DB.prepare("SELECT * FROM payments WHERE user_id = ? AND kind = 'subscription'")
      .bind(fan.user.userId)
      .all<{ subscription_id: number; amount_cents: number }>();
    expect(payment.results).toEqual([expect.objectContaining({ subscription_id: subscription.id, amount_cents: 999 })]);
    expect(
      await countOf("follows WHERE follower_id = ? AND creator_id = ?", fan.user.userId, creator.user.userId),
    ).toBe(1);
    expect(await countOf("notifications WHERE user_id = ? AND kind = 'subscription'", creator.user.userId)).toBe(1);
    expect(await lockSeenBy(post.id, fan.token)).toBeNull();
  });

  it("a concurrent double click (two keys) charges once and answers both with the one subscription", async () => {
    const creator = await creatorWithPlans([{ period: "month", priceCents: 999 }]);
    const fan = await createFan();
    await fundWallet(fan.user.userId, 5000);
    const responses = await Promise.all(
      [0, 1, 2].map(() =>
        subscribe(creator.user.username, { period: "month", priceCents: 999, idempotencyKey: newKey() }, fan.token),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const ids = new Set(
      await Promise.all(responses.map(async (response) => ((await response.json()) as Subscription).id)),
    );
    expect(ids.size).toBe(1);
    expect(await chargesOf(fan.user.userId)).toBe(1);
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 4001 });
    expect(await countOf("subscriptions WHERE fan_id = ?", fan.user.userId)).toBe(1);

    // The same attempt sent twice at once (a retry racing the first request): one charge, one subscription.
    const other = await creatorWithPlans([{ period: "week", priceCents: 500 }]);
    const key = newKey();
    const twice = await Promise.all(
      [0, 1].map(() =>
        subscribe(other.user.username, { period: "week", priceCents: 500, idempotencyKey: key }, fan.token),
      ),
    );
    expect(twice.map((response) => response.status)).toEqual([200, 200]);
    const [a, b] = (await Promise.all(twice.map((response) => response.json()))) as Subscription[];
    expect(a!.id).toBe(b!.id);
    expect(await chargesOf(fan.user.userId)).toBe(2);
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 3501 });
  });

  it("not enough funds → 402 and nothing written; unverified → 403; no key → 422", async () => {
    const creator = await creatorWithPlans([{ period: "month", priceCents: 999 }]);
    const poor = await createFan();
    await fundWallet(poor.user.userId, 998);
    const refused = await subscribe(
      creator.user.username,
      { period: "month", priceCents: 999, idempotencyKey: newKey() },
      poor.token,
    );
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ message: "You need to fund your wallet!" });

    const unverified = await createUser();
    await fundWallet(unverified.user.userId, 5000);
    const forbidden = await subscribe(
      creator.user.username,
      { period: "month", priceCents: 999, idempotencyKey: newKey() },
      unverified.token,
    );
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ message: "Your email didn't verified yet." });

    const noKey = await subscribe(creator.user.username, { period: "month", priceCents: 999 }, poor.token);
    expect(noKey.status).toBe(422);
    const badKey = await subscribe(
      creator.user.username,
      { period: "month", priceCents: 999, idempotencyKey: "no spaces allowed" },
      poor.token,
    );
    expect(badKey.status).toBe(422);

    for (const fan of [poor, unverified]) {
      expect(await countOf("subscriptions WHERE fan_id = ?", fan.user.userId)).toBe(0);
      expect(await chargesOf(fan.user.userId)).toBe(0);
    }
    expect(await balancesOf(env.DB, poor.user.userId)).toMatchObject({ wallet: 998 });
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 0 });
  });

  it("a cancelled subscription still running is reactivated without a charge", async () => {
    const { creator, fan, subscription } = await paidSubscription(2000);
    expect((await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: fan.token })).status).toBe(200);
    const again = await subscribe(
      creator.user.username,
      { period: "month", priceCents: 999, idempotencyKey: newKey() },
      fan.token,
    );
    expect(await again.json()).toMatchObject({ id: subscription.id, status: "active" });
    expect(await chargesOf(fan.user.userId)).toBe(1);
  });
});

describe("renewals", () => {
  it("charge one period and move the renewal date; the cron run twice charges once", async () => {
    const { creator, fan, subscription } = await paidSubscription(2000);
    const due = new Date(Date.now() - 60_000).toISOString();
    await endPeriodAt(subscription.id, due);
    await Promise.all([renewSubscriptions(testContext()), renewSubscriptions(testContext())]);
    await renewSubscriptions(testContext());
    expect(await row(subscription.id)).toMatchObject({ status: "active", current_period_end: addPeriod(due, "month") });
    expect(
      await countOf(
        "payments WHERE user_id = ? AND kind = 'renewal' AND subscription_id = ?",
        fan.user.userId,
        subscription.id,
      ),
    ).toBe(1);
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 1001 });
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 799 * 2 });
  });

  it("without funds: the subscription ends at its renewal date and the fan is notified", async () => {
    const { creator, fan, subscription } = await paidSubscription(500);
    const due = new Date(Date.now() - 60_000).toISOString();
    await endPeriodAt(subscription.id, due);
    await renewSubscriptions(testContext());
    await renewSubscriptions(testContext());
    expect(await row(subscription.id)).toMatchObject({ status: "expired", ended_at: due });
    expect(await balancesOf(env.DB, fan.user.userId)).toMatchObject({ wallet: 500 });
    const notes = await env.DB.prepare(
      "SELECT actor_id FROM notifications WHERE user_id = ? AND kind = 'renewal_failed'",
    )
      .bind(fan.user.userId)
      .all();
    expect(notes.results).toEqual([{ actor_id: creator.user.userId }]);
    expect(await chargesOf(fan.user.userId)).toBe(1);
  });

  it("charge the lower of the agreed price and today's; a free plan renews free; a withdrawn plan or a suspended creator ends it", async () => {
    const lowered = await paidSubscription(5000);
    await api("/me/plans", {
      method: "PUT",
      token: lowered.creator.token,
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 599 }] }),
    });
    const raised = await paidSubscription(5000);
    await api("/me/plans", {
      method: "PUT",
      token: raised.creator.token,
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 1999 }] }),
    });
    const freed = await paidSubscription(5000);
    await api("/me/plans", {
      method: "PUT",
      token: freed.creator.token,
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 0 }] }),
    });
    const withdrawn = await paidSubscription(5000);
    await api("/me/plans", { method: "PUT", token: withdrawn.creator.token, body: JSON.stringify({ plans: [] }) });
    const suspended = await paidSubscription(5000);
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), suspended.creator.user.userId)
      .run();
    const due = new Date(Date.now() - 60_000).toISOString();
    for (const { subscription } of [lowered, raised, freed, withdrawn, suspended])
      await endPeriodAt(subscription.id, due);
    await renewSubscriptions(testContext());

    const renewal = (fanId: number) =>
      env.DB.prepare("SELECT amount_cents FROM payments WHERE user_id = ? AND kind = 'renewal'")
        .bind(fanId)
        .first<number>("amount_cents");
    expect(await renewal(lowered.fan.user.userId)).toBe(599);
    expect(await renewal(raised.fan.user.userId)).toBe(999);
    expect(await renewal(freed.fan.user.userId)).toBeNull();
    expect(await row(freed.subscription.id)).toMatchObject({
      status: "active",
      price_cents: 0,
      current_period_end: addPeriod(due, "month"),
    });
    expect(await renewal(withdrawn.fan.user.userId)).toBeNull();
    expect(await row(withdrawn.subscription.id)).toMatchObject({ status: "expired", ended_at: due });
    expect(await renewal(suspended.fan.user.userId)).toBeNull();
    expect(await row(suspended.subscription.id)).toMatchObject({ status: "expired", ended_at: due });
  });
});

describe("the balance flag of /api/updates", () => {
  it("is set when the wallet cannot cover the next renewal, and cleared by a top-up or a cancellation", async () => {
    const covered = await paidSubscription(999);
    expect(await flag(covered.fan.token)).toBe(false);

    const short = await paidSubscription(998);
    expect(await flag(short.fan.token)).toBe(true);
    await fundWallet(short.fan.user.userId, 1);
    expect(await flag(short.fan.token)).toBe(false);

    const cancelled = await paidSubscription(0);
    expect(await flag(cancelled.fan.token)).toBe(true);
    await postJson(`/subscriptions/${cancelled.subscription.id}/cancel`, {}, { token: cancelled.fan.token });
    expect(await flag(cancelled.fan.token)).toBe(false);

    const nobody = await createFan();
    expect(await flag(nobody.token)).toBe(false);
  });
});
