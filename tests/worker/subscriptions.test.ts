import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getPost } from "../../worker/domain/posts/get-post";
import { addPeriod } from "../../worker/domain/subscriptions/periods";
import { plansFromForm } from "../../worker/domain/subscriptions/plans-form";
import { renewSubscriptions } from "../../worker/domain/subscriptions/renew-subscriptions";
import { api, createUser, postJson, insertPostMedium } from "./factories";

type Subscription = {
  id: number;
  status: string;
  period: string;
  priceCents: number;
  startedAt: string;
  currentPeriodEnd: string;
  cancelledAt: string | null;
};

async function createCreator(plans: { period: string; priceCents: number }[] = [{ period: "month", priceCents: 0 }]) {
  const creator = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'creator', monetization_enabled = 1 WHERE id = ?")
    .bind(creator.user.userId)
    .run();
  const response = await api("/me/plans", { method: "PUT", token: creator.token, body: JSON.stringify({ plans }) });
  expect(response.status).toBe(200);
  return creator;
}

const subscribe = (username: string, body: unknown, token?: string) =>
  postJson(`/users/${username}/subscribe`, body, { token });

async function subscriberPost(authorId: number) {
  const at = new Date().toISOString();
  const post = await env.DB.prepare(
    "INSERT INTO posts (user_id, text, audience, published_at, created_at) VALUES (?, 'for subscribers', 'subscribers', ?, ?) RETURNING id",
  )
    .bind(authorId, at, at)
    .first<{ id: number }>();
  await insertPostMedium(
    post!.id,
    env.DB.prepare(
      "INSERT INTO media (user_id, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id",
    ).bind(authorId, `posts/${crypto.randomUUID()}.png`, at),
  );
  return post!.id;
}

const subscriptionRow = (id: number) =>
  env.DB.prepare("SELECT * FROM subscriptions WHERE id = ?")
    .bind(id)
    .first<{ status: string; current_period_end: string; ended_at: string | null }>();

/** Moves a subscription's period end into the past, as if its time had run out. */
const endPeriodAt = (id: number, iso: string) =>
  env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE id = ?").bind(iso, id).run();

afterEach(() => vi.useRealTimers());

describe("plans", () => {
  it("a creator sets plans; they are listed weekly to yearly; a withdrawn period disappears", async () => {
    const creator = await createCreator([
      { period: "year", priceCents: 5000 },
      { period: "week", priceCents: 0 },
      { period: "month", priceCents: 499 },
    ]);
    const listed = await api(`/users/${creator.user.username}/plans`);
    expect(await listed.json()).toEqual({
      plans: [
        { period: "week", priceCents: 0 },
        { period: "month", priceCents: 499 },
        { period: "year", priceCents: 5000 },
      ],
    });
    const replaced = await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "month", priceCents: 100000 }] }),
    });
    expect(await replaced.json()).toEqual({ plans: [{ period: "month", priceCents: 100000 }] });
  });

  it("refuses prices out of range, repeated periods, unknown periods and members, changing nothing", async () => {
    const creator = await createCreator([{ period: "month", priceCents: 0 }]);
    const member = await createUser();
    for (const plans of [
      [{ period: "month", priceCents: 498 }],
      [{ period: "month", priceCents: 100001 }],
      [{ period: "month", priceCents: -1 }],
      [{ period: "month", priceCents: 4.5 }],
      [{ period: "day", priceCents: 0 }],
      [
        { period: "month", priceCents: 0 },
        { period: "month", priceCents: 999 },
      ],
    ]) {
      const response = await api("/me/plans", { method: "PUT", token: creator.token, body: JSON.stringify({ plans }) });
      expect(response.status).toBe(422);
    }
    const low = await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "week", priceCents: 100 }] }),
    });
    expect(((await low.json()) as { message: string }).message).toBe(
      "A paid plan costs between $4.99 and $1,000.00; 0 makes it free.",
    );
    expect((await api("/me/plans", { method: "PUT", token: creator.token, body: "{" })).status).toBe(422);
    expect(
      (await api("/me/plans", { method: "PUT", token: member.token, body: JSON.stringify({ plans: [] }) })).status,
    ).toBe(403);
    expect((await api("/me/plans", { method: "PUT", body: JSON.stringify({ plans: [] }) })).status).toBe(401);
    expect(await (await api(`/users/${creator.user.username}/plans`)).json()).toEqual({
      plans: [{ period: "month", priceCents: 0 }],
    });
    expect((await api("/users/no_such_person/plans")).status).toBe(404);
  });
});

describe("subscriptions", () => {
  it("a free plan subscribes at once for one period, follows, and notifies the creator once", async () => {
    const creator = await createCreator();
    const fan = await createUser();
    const response = await subscribe(creator.user.username, { period: "month" }, fan.token);
    expect(response.status).toBe(200);
    const subscription = (await response.json()) as Subscription;
    expect(subscription).toMatchObject({ status: "active", period: "month", priceCents: 0, cancelledAt: null });
    expect(subscription.currentPeriodEnd).toBe(addPeriod(subscription.startedAt, "month"));
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM follows WHERE follower_id = ? AND creator_id = ?")
        .bind(fan.user.userId, creator.user.userId)
        .first("n"),
    ).toBe(1);

    const again = (await (
      await subscribe(creator.user.username, { period: "month" }, fan.token)
    ).json()) as Subscription;
    expect(again.id).toBe(subscription.id);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND kind = 'subscription'")
        .bind(creator.user.userId)
        .first("n"),
    ).toBe(1);
    expect(
      await env.DB.prepare("SELECT subscriber_count FROM users WHERE id = ?")
        .bind(creator.user.userId)
        .first("subscriber_count"),
    ).toBe(1);
  });

  it("a paid plan without an idempotency key is refused and subscribes nobody (paid-subscriptions.test.ts charges it)", async () => {
    const creator = await createCreator([{ period: "month", priceCents: 999 }]);
    const fan = await createUser();
    const response = await subscribe(creator.user.username, { period: "month", priceCents: 999 }, fan.token);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      idempotencyKey: ["A payment needs an idempotency key: a new one for each attempt."],
    });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM subscriptions WHERE creator_id = ?")
        .bind(creator.user.userId)
        .first("n"),
    ).toBe(0);
  });

  it("refuses yourself, blocks, plans not offered, members, bad input and visitors", async () => {
    const creator = await createCreator([{ period: "month", priceCents: 0 }]);
    const member = await createUser();
    const fan = await createUser();
    const blocked = await createUser();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(creator.user.userId, blocked.user.userId, new Date().toISOString())
      .run();

    expect((await subscribe(creator.user.username, { period: "month" }, creator.token)).status).toBe(403);
    expect((await subscribe(creator.user.username, { period: "month" }, blocked.token)).status).toBe(403);
    const notOffered = await subscribe(creator.user.username, { period: "year" }, fan.token);
    expect(notOffered.status).toBe(422);
    expect(await notOffered.json()).toMatchObject({ errors: { period: ["This creator does not offer this plan."] } });
    expect((await subscribe(member.user.username, { period: "month" }, fan.token)).status).toBe(422);
    expect((await subscribe(creator.user.username, { period: "day" }, fan.token)).status).toBe(422);
    expect((await subscribe(creator.user.username, {}, fan.token)).status).toBe(422);
    expect((await subscribe(creator.user.username, "not json", fan.token)).status).toBe(422);
    expect((await subscribe(creator.user.username, { period: "month" })).status).toBe(401);
    expect((await subscribe("no_such_person", { period: "month" }, fan.token)).status).toBe(404);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM subscriptions").first("n")).toBe(0);
  });

  it("cancelled stays entitled until the end; the cron job then expires it and the post locks again; resubscribing starts anew", async () => {
    const creator = await createCreator();
    const fan = await createUser();
    const postId = await subscriberPost(creator.user.userId);
    expect((await getPost(env.DB, postId, fan.user.userId))!.lock).toBe("subscribe");

    const subscription = (await (
      await subscribe(creator.user.username, { period: "month" }, fan.token)
    ).json()) as Subscription;
    const open = await getPost(env.DB, postId, fan.user.userId);
    expect(open!.lock).toBeNull();
    expect(open!.media).toHaveLength(1);

    const cancelled = await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: fan.token });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({
      id: subscription.id,
      status: "cancelled",
      currentPeriodEnd: subscription.currentPeriodEnd,
    });
    expect((await getPost(env.DB, postId, fan.user.userId))!.lock).toBeNull();
    expect(await renewSubscriptions(testContext())).toEqual({ renewed: 0, expired: 0 });

    await endPeriodAt(subscription.id, new Date(Date.now() - 1000).toISOString());
    const locked = await getPost(env.DB, postId, fan.user.userId);
    expect(locked!.lock).toBe("subscribe");
    expect(locked!.media).toBeNull();
    expect(await renewSubscriptions(testContext())).toEqual({ renewed: 0, expired: 1 });
    expect(await renewSubscriptions(testContext())).toEqual({ renewed: 0, expired: 0 });
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: "expired" });
    expect((await subscriptionRow(subscription.id))!.ended_at).not.toBeNull();
    expect(
      await env.DB.prepare("SELECT subscriber_count FROM users WHERE id = ?")
        .bind(creator.user.userId)
        .first("subscriber_count"),
    ).toBe(0);

    const renewedSubscription = (await (
      await subscribe(creator.user.username, { period: "month" }, fan.token)
    ).json()) as Subscription;
    expect(renewedSubscription.id).not.toBe(subscription.id);
    expect(renewedSubscription.status).toBe("active");
    expect((await getPost(env.DB, postId, fan.user.userId))!.lock).toBeNull();
  });

  it("resubscribing while cancelled but running reactivates the same subscription", async () => {
    const creator = await createCreator();
    const fan = await createUser();
    const subscription = (await (
      await subscribe(creator.user.username, { period: "month" }, fan.token)
    ).json()) as Subscription;
    await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: fan.token });
    const again = (await (
      await subscribe(creator.user.username, { period: "month" }, fan.token)
    ).json()) as Subscription;
    expect(again).toMatchObject({
      id: subscription.id,
      status: "active",
      cancelledAt: null,
      currentPeriodEnd: subscription.currentPeriodEnd,
    });
  });

  it("only the fan can cancel their subscription", async () => {
    const creator = await createCreator();
    const fan = await createUser();
    const other = await createUser();
    const subscription = (await (
      await subscribe(creator.user.username, { period: "month" }, fan.token)
    ).json()) as Subscription;
    expect((await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: other.token })).status).toBe(404);
    expect((await postJson(`/subscriptions/${subscription.id}/cancel`, {}, { token: creator.token })).status).toBe(404);
    expect((await postJson(`/subscriptions/${subscription.id}/cancel`, {})).status).toBe(401);
    expect((await postJson("/subscriptions/abc/cancel", {}, { token: fan.token })).status).toBe(422);
    expect((await postJson("/subscriptions/99999999999999999999/cancel", {}, { token: fan.token })).status).toBe(422);
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: "active" });
  });

  it("the renewal job extends free subscriptions past their date exactly once, and ends those whose free plan is gone", async () => {
    const creator = await createCreator([
      { period: "week", priceCents: 0 },
      { period: "month", priceCents: 0 },
    ]);
    const weekly = await createUser();
    const monthly = await createUser();
    const weeklySub = (await (
      await subscribe(creator.user.username, { period: "week" }, weekly.token)
    ).json()) as Subscription;
    const monthlySub = (await (
      await subscribe(creator.user.username, { period: "month" }, monthly.token)
    ).json()) as Subscription;
    const lapsedAt = new Date(Date.now() - 60_000).toISOString();
    await endPeriodAt(weeklySub.id, lapsedAt);
    await endPeriodAt(monthlySub.id, lapsedAt);
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "week", priceCents: 0 }] }),
    });

    expect(await renewSubscriptions(testContext())).toEqual({ renewed: 1, expired: 1 });
    expect(await subscriptionRow(weeklySub.id)).toMatchObject({
      status: "active",
      current_period_end: addPeriod(lapsedAt, "week"),
    });
    expect(await subscriptionRow(monthlySub.id)).toMatchObject({ status: "expired", ended_at: lapsedAt });
    expect(await renewSubscriptions(testContext())).toEqual({ renewed: 0, expired: 0 });
    expect(await subscriptionRow(weeklySub.id)).toMatchObject({ current_period_end: addPeriod(lapsedAt, "week") });
  });

  it("lists the fan's subscriptions with the creator", async () => {
    const creator = await createCreator();
    const fan = await createUser();
    await subscribe(creator.user.username, { period: "month" }, fan.token);
    const response = await api("/me/subscriptions", { token: fan.token });
    expect(await response.json()).toMatchObject({
      subscriptions: [{ status: "active", period: "month", creator: { username: creator.user.username } }],
    });
    expect((await api("/me/subscriptions")).status).toBe(401);
  });
});

describe("addPeriod", () => {
  it("keeps the day of the month, clamped to shorter months", () => {
    expect(addPeriod("2026-01-31T10:00:00.000Z", "month")).toBe("2026-02-28T10:00:00.000Z");
    expect(addPeriod("2026-12-15T00:00:00.000Z", "month")).toBe("2027-01-15T00:00:00.000Z");
    expect(addPeriod("2028-02-29T00:00:00.000Z", "year")).toBe("2029-02-28T00:00:00.000Z");
    expect(addPeriod("2026-03-01T00:00:00.000Z", "week")).toBe("2026-03-08T00:00:00.000Z");
  });
});

describe("plansFromForm (dashboard → plans)", () => {
  it("reads offered periods and dollar prices into cents", () => {
    expect(
      plansFromForm({ offer_week: "on", price_week: "0", offer_month: "on", price_month: "$9.9", price_year: "50" }),
    ).toEqual({
      plans: [
        { period: "week", priceCents: 0 },
        { period: "month", priceCents: 990 },
      ],
    });
    expect(plansFromForm({ offer_year: "on", price_year: "49,99" })).toEqual({
      plans: [{ period: "year", priceCents: 4999 }],
    });
  });

  it("names the field of each bad price", () => {
    try {
      plansFromForm({
        offer_week: "on",
        price_week: "4.98",
        offer_month: "on",
        price_month: "ten",
        offer_year: "on",
        price_year: "1000.01",
      });
      expect.unreachable();
    } catch (error) {
      expect((error as { fieldErrors: Record<string, string[]> }).fieldErrors).toEqual({
        price_week: ["A paid plan costs between {{min, money}} and {{max, money}}; 0 makes it free."],
        price_month: ["Enter a price in dollars, like 9.99."],
        price_year: ["A paid plan costs between {{min, money}} and {{max, money}}; 0 makes it free."],
      });
    }
  });
});
