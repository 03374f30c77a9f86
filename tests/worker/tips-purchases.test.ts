import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { plansFromForm } from "../../worker/domain/subscriptions/plans-form";
import { api, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { block, createPost, follow, subscribe } from "./timeline-fixtures";

const moneyRows = async (userId: number) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ? AND kind <> 'top_up'")
    .bind(userId)
    .first<number>("n");
const wallet = async (userId: number) => (await balancesOf(env.DB, userId)).wallet;
const lockSeenBy = async (postId: number, token: string) =>
  ((await (await api(`/posts/${postId}`, { token })).json()) as { lock: string | null }).lock;

afterAll(async () => {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
});

describe("tips", () => {
  it("on a post and on a profile: the creator earns the net and is notified; a replay moves nothing", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 5000);
    const post = await createPost(creator.user.userId);
    const key = newKey();
    const onPost = await postJson(
      `/posts/${post.id}/tips`,
      { amountCents: 500, note: "Thanks!", idempotencyKey: key },
      { token: fan.token },
    );
    expect(onPost.status).toBe(200);
    expect(await onPost.json()).toMatchObject({
      replayed: false,
      payment: { kind: "tip", amountCents: 500, postId: post.id, note: "Thanks!" },
    });
    const replay = await postJson(
      `/posts/${post.id}/tips`,
      { amountCents: 500, note: "Thanks!", idempotencyKey: key },
      { token: fan.token },
    );
    expect(await replay.json()).toMatchObject({ replayed: true });
    const onProfile = await postJson(
      `/users/${creator.user.username}/tips`,
      { amountCents: 1000, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(onProfile.status).toBe(200);
    expect(await wallet(fan.user.userId)).toBe(3500);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 1200 });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND kind = 'tip'")
        .bind(creator.user.userId)
        .first("n"),
    ).toBe(2);
  });

  it("sent again after the post was deleted, answers the tip already made; the key on another post or profile is refused", async () => {
    const creator = await createVerifiedCreator();
    const other = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const post = await createPost(creator.user.userId);
    const key = newKey();
    const first = (await (
      await postJson(`/posts/${post.id}/tips`, { amountCents: 300, idempotencyKey: key }, { token: fan.token })
    ).json()) as { payment: { id: number } };
    expect((await api(`/posts/${post.id}`, { method: "DELETE", token: creator.token })).status).toBeLessThan(300);
    const again = await postJson(
      `/posts/${post.id}/tips`,
      { amountCents: 300, idempotencyKey: key },
      { token: fan.token },
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ replayed: true, payment: { id: first.payment.id, amountCents: 300 } });
    const onProfile = newKey();
    expect(
      (
        await postJson(
          `/users/${creator.user.username}/tips`,
          { amountCents: 200, idempotencyKey: onProfile },
          { token: fan.token },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await postJson(
          `/users/${creator.user.username}/tips`,
          { amountCents: 200, idempotencyKey: onProfile },
          { token: fan.token },
        )
      ).status,
    ).toBe(200);
    for (const [path, key_] of [
      [`/users/${other.user.username}/tips`, onProfile],
      [`/users/${creator.user.username}/tips`, key],
    ] as const) {
      const reused = await postJson(
        path,
        { amountCents: path.includes(other.user.username) ? 200 : 300, idempotencyKey: key_ },
        { token: fan.token },
      );
      expect(reused.status).toBe(422);
    }
    expect(await wallet(fan.user.userId)).toBe(500);
  });

  it("refuses self, non-creators, blocks, hidden posts, bad amounts and a short wallet, moving nothing", async () => {
    const creator = await createVerifiedCreator();
    const member = await createFan();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 500);
    await fundWallet(creator.user.userId, 5000);
    const blocker = await createVerifiedCreator();
    await block(blocker.user.userId, fan.user.userId);
    const scheduled = await createPost(creator.user.userId, { status: "scheduled" });
    const own = await createPost(creator.user.userId);
    const memberPost = await createPost(member.user.userId);
    const tip = (path: string, body: Record<string, unknown>, token: string) =>
      postJson(path, { amountCents: 100, idempotencyKey: newKey(), ...body }, { token });
    const cases: [Promise<Response>, number, string?][] = [
      [tip(`/posts/${own.id}/tips`, {}, creator.token), 403, "You cannot tip yourself."],
      [tip(`/users/${creator.user.username}/tips`, {}, creator.token), 403, "You cannot tip yourself."],
      [tip(`/users/${member.user.username}/tips`, {}, fan.token), 403, "Only creators can receive payments."],
      [tip(`/posts/${memberPost.id}/tips`, {}, fan.token), 403, "Only creators can receive payments."],
      [tip(`/users/${blocker.user.username}/tips`, {}, fan.token), 403],
      [tip(`/posts/${scheduled.id}/tips`, {}, fan.token), 404],
      [tip(`/posts/999999999/tips`, {}, fan.token), 404],
      [
        tip(`/users/${creator.user.username}/tips`, { amountCents: 99 }, fan.token),
        422,
        "A tip is between $1.00 and $200.00.",
      ],
      [
        tip(`/users/${creator.user.username}/tips`, { amountCents: 20001 }, fan.token),
        422,
        "A tip is between $1.00 and $200.00.",
      ],
      [tip(`/users/${creator.user.username}/tips`, { amountCents: 1.5 }, fan.token), 422],
      [tip(`/users/${creator.user.username}/tips`, { amountCents: "5" }, fan.token), 422],
      [
        tip(`/users/${creator.user.username}/tips`, { note: "x".repeat(501) }, fan.token),
        422,
        "A message is at most 500 characters.",
      ],
      [tip(`/users/${creator.user.username}/tips`, { idempotencyKey: "" }, fan.token), 422],
      [
        tip(`/users/${creator.user.username}/tips`, { amountCents: 501 }, fan.token),
        402,
        "You need to fund your wallet!",
      ],
      [postJson(`/users/${creator.user.username}/tips`, { amountCents: 100, idempotencyKey: newKey() }), 401],
    ];
    for (const [response, status, text] of cases) {
      const answer = await response;
      expect(answer.status).toBe(status);
      if (text) expect(await answer.json()).toMatchObject({ message: text });
    }
    expect(await moneyRows(fan.user.userId)).toBe(0);
    expect(await moneyRows(creator.user.userId)).toBe(0);
    expect(await wallet(fan.user.userId)).toBe(500);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ wallet: 5000, pending: 0 });
  });

  it("an unverified member is told to verify the email", async () => {
    const creator = await createVerifiedCreator();
    const unverified = await createUser();
    await fundWallet(unverified.user.userId, 1000);
    const response = await postJson(
      `/users/${creator.user.username}/tips`,
      { amountCents: 100, idempotencyKey: newKey() },
      { token: unverified.token },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ message: "Your email didn't verified yet." });
    expect(await wallet(unverified.user.userId)).toBe(1000);
  });
});

describe("purchases", () => {
  it("unlocks a paid post once; a replay answers the first purchase; a second key is refused as already bought", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 3000);
    const post = await createPost(creator.user.userId, { priceCents: 1200 });
    expect(await lockSeenBy(post.id, fan.token)).toBe("purchase");
    const key = newKey();
    const bought = await postJson(
      `/posts/${post.id}/purchase`,
      { priceCents: 1200, idempotencyKey: key },
      { token: fan.token },
    );
    expect(bought.status).toBe(200);
    expect(await lockSeenBy(post.id, fan.token)).toBeNull();
    const replay = await postJson(
      `/posts/${post.id}/purchase`,
      { priceCents: 1200, idempotencyKey: key },
      { token: fan.token },
    );
    expect(await replay.json()).toMatchObject({ replayed: true });
    const again = await postJson(
      `/posts/${post.id}/purchase`,
      { priceCents: 1200, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: "You already bought this post." });
    // Blocked since: a retry of the purchase still says what was bought; the key for another price is refused.
    await block(creator.user.userId, fan.user.userId);
    const afterBlock = await postJson(
      `/posts/${post.id}/purchase`,
      { priceCents: 1200, idempotencyKey: key },
      { token: fan.token },
    );
    expect(afterBlock.status).toBe(200);
    expect(await afterBlock.json()).toMatchObject({ replayed: true, payment: { amountCents: 1200, postId: post.id } });
    expect(
      (await postJson(`/posts/${post.id}/purchase`, { priceCents: 1300, idempotencyKey: key }, { token: fan.token }))
        .status,
    ).toBe(422);
    expect(await wallet(fan.user.userId)).toBe(1800);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 960 });
  });

  it("refuses a changed price, a subscribers-only post without a subscription, a free post and a short wallet", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    const paid = await createPost(creator.user.userId, { priceCents: 800 });
    const forSubscribers = await createPost(creator.user.userId, { priceCents: 500, audience: "subscribers" });
    const free = await createPost(creator.user.userId);
    const expensive = await createPost(creator.user.userId, { priceCents: 1500 });
    const buy = (postId: number, priceCents: number) =>
      postJson(`/posts/${postId}/purchase`, { priceCents, idempotencyKey: newKey() }, { token: fan.token });
    const cases: [Promise<Response>, number, string][] = [
      [buy(paid.id, 700), 409, "The price changed to $8.00. Check it and try again."],
      [buy(forSubscribers.id, 500), 403, "Subscribe to this creator to buy this post."],
      [buy(free.id, 100), 409, "This post is not for sale."],
      [buy(expensive.id, 1500), 402, "You need to fund your wallet!"],
    ];
    for (const [response, status, text] of cases) {
      const answer = await response;
      expect(answer.status).toBe(status);
      expect(await answer.json()).toMatchObject({ message: text });
    }
    expect(await moneyRows(fan.user.userId)).toBe(0);
    expect(await wallet(fan.user.userId)).toBe(1000);

    // Subscribed, the subscribers-only paid post can be bought.
    await subscribe(fan.user.userId, creator.user.userId);
    expect(await lockSeenBy(forSubscribers.id, fan.token)).toBe("purchase");
    expect((await buy(forSubscribers.id, 500)).status).toBe(200);
    expect(await lockSeenBy(forSubscribers.id, fan.token)).toBeNull();
  });
});

describe("the per-message price", () => {
  it("is set with the plans, shown on the profile, and charged with each message a fan sends; free messages charge nothing", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 1000);
    await follow(fan.user.userId, creator.user.userId);
    const { id } = (await (
      await postJson("/conversations", { username: creator.user.username }, { token: fan.token })
    ).json()) as { id: number };
    const send = (clientId: string, maxPaidCents = 300) =>
      postJson(`/conversations/${id}/messages`, { clientId, text: "hi", maxPaidCents }, { token: fan.token });
    expect(((await (await send(newKey(), 0)).json()) as { message: { paidCents: number } }).message.paidCents).toBe(0);
    expect(await wallet(fan.user.userId)).toBe(1000);

    const set = await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [], messagePriceCents: 300 }),
    });
    expect(set.status).toBe(200);
    const profile = (await (await api(`/users/${creator.user.username}`, { token: fan.token })).json()) as {
      messagePriceCents: number;
    };
    expect(profile.messagePriceCents).toBe(300);

    const clientId = newKey();
    expect(await (await send(clientId)).json()).toMatchObject({ replayed: false, message: { paidCents: 300 } });
    expect(await (await send(clientId)).json()).toMatchObject({ replayed: true, message: { paidCents: 300 } });
    expect(await wallet(fan.user.userId)).toBe(700);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ pending: 240 });
    const earning = await env.DB.prepare("SELECT source FROM earnings WHERE creator_id = ?")
      .bind(creator.user.userId)
      .first("source");
    expect(earning).toBe("message");
    // The creator's answers are free.
    await postJson(`/conversations/${id}/messages`, { clientId: newKey(), text: "thanks" }, { token: creator.token });
    expect(await moneyRows(creator.user.userId)).toBe(0);
  });

  it("refuses prices out of range, and a message the wallet cannot pay for, storing nothing", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 100);
    await follow(fan.user.userId, creator.user.userId);
    for (const messagePriceCents of [-1, 20001, 1.5]) {
      const response = await api("/me/plans", {
        method: "PUT",
        token: creator.token,
        body: JSON.stringify({ plans: [], messagePriceCents }),
      });
      expect(response.status).toBe(422);
    }
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [], messagePriceCents: 20000 }),
    });
    const { id } = (await (
      await postJson("/conversations", { username: creator.user.username }, { token: fan.token })
    ).json()) as { id: number };
    const refused = await postJson(
      `/conversations/${id}/messages`,
      { clientId: newKey(), text: "hi", maxPaidCents: 20000 },
      { token: fan.token },
    );
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { message: string }).message).toBe("You need to fund your wallet!");
    expect(await moneyRows(fan.user.userId)).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM messages").first("n")).toBe(0);
  });

  it("the dashboard form reads the price in dollars", () => {
    expect(plansFromForm({ message_price: "2,50" })).toEqual({ plans: [], messagePriceCents: 250 });
    expect(plansFromForm({ message_price: "0" })).toEqual({ plans: [], messagePriceCents: 0 });
    expect(plansFromForm({})).toEqual({ plans: [] });
    expect(() => plansFromForm({ message_price: "200.01" })).toThrow(
      "A message costs at most {{max, money}}; 0 makes messages free.",
    );
    expect(() => plansFromForm({ message_price: "two" })).toThrow("Enter a price in dollars, like 9.99.");
  });
});
