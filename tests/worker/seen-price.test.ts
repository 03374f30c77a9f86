import { env } from "cloudflare:test";
import { afterAll, describe, expect, it } from "vitest";
import type { ConversationView, MessageView } from "@shared/contracts/messages";
import type { LiveStreamView } from "@shared/contracts/live";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { api, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { createPost, follow, PNG } from "./timeline-fixtures";

/**
 * Every path that charges a fan a price the creator sets carries the price the fan was shown: a price changed
 * since is refused with the current one (in the message and as `priceCents`), and nothing is charged; the price
 * shown now is charged once, and the same key again answers the first result even after another change.
 */

type Person = Awaited<ReturnType<typeof createFan>>;
type ErrorBody = { message: string; errors: Record<string, string[]>; priceCents?: number };

afterAll(async () => {
  expect(await auditLedger(env.DB)).toEqual({
    unbalancedTransfers: 0,
    openTransfers: 0,
    negativeAccounts: 0,
    driftedAccounts: 0,
    totalCents: 0,
  });
});

const walletOf = async (person: Person) => (await balancesOf(env.DB, person.user.userId)).wallet;
const paymentsOf = (person: Person) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ? AND kind <> 'top_up'")
    .bind(person.user.userId)
    .first<number>("n");

async function chatImage(userId: number): Promise<number> {
  const key = `posts/${newKey().replace(/-/g, "")}.png`;
  await env.MEDIA.put(key, PNG, { httpMetadata: { contentType: "image/png" } });
  const row = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, preview_key, content_type, size_bytes, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(userId, key, key, new Date().toISOString())
    .first<{ id: number }>();
  return row!.id;
}

async function conversationOf(from: Person, to: Person): Promise<ConversationView> {
  const response = await postJson("/conversations", { username: to.user.username }, { token: from.token });
  expect(response.status).toBe(200);
  return (await response.json()) as ConversationView;
}

/** One way of charging: `charge` sends the price shown with an attempt's key; `raise` is the creator's change. */
interface ChargePath {
  name: string;
  /** The sentence of the refusal, for the new price written as dollars. */
  refusal: (price: string) => string;
  setup(
    creator: Person,
    fan: Person,
    priceCents: number,
  ): Promise<{
    charge: (seenCents: number, key: string) => Promise<Response>;
    raise: (cents: number) => Promise<void>;
  }>;
}

const PRICE_CHANGED = (price: string) => `The price changed to ${price}. Check it and try again.`;

const PATHS: ChargePath[] = [
  {
    name: "a subscription",
    refusal: PRICE_CHANGED,
    async setup(creator, fan, priceCents) {
      const plans = (cents: number) =>
        api("/me/plans", {
          method: "PUT",
          token: creator.token,
          body: JSON.stringify({ plans: [{ period: "month", priceCents: cents }] }),
        });
      expect((await plans(priceCents)).status).toBe(200);
      return {
        charge: (seen, key) =>
          postJson(
            `/users/${creator.user.username}/subscribe`,
            { period: "month", priceCents: seen, idempotencyKey: key },
            { token: fan.token },
          ),
        raise: async (cents) => void expect((await plans(cents)).status).toBe(200),
      };
    },
  },
  {
    name: "a message to a creator with a message price",
    refusal: (price) => `Sending a message here now costs ${price}: it was not sent.`,
    async setup(creator, fan, priceCents) {
      const price = (cents: number) =>
        api("/me/plans", {
          method: "PUT",
          token: creator.token,
          body: JSON.stringify({ plans: [], messagePriceCents: cents }),
        });
      expect((await price(priceCents)).status).toBe(200);
      await follow(fan.user.userId, creator.user.userId);
      const conversation = await conversationOf(fan, creator);
      expect(conversation.messagePriceCents).toBe(priceCents);
      return {
        // The message's client id is its key.
        charge: (seen, key) =>
          postJson(
            `/conversations/${conversation.id}/messages`,
            { clientId: key, text: "hello", maxPaidCents: seen },
            { token: fan.token },
          ),
        raise: async (cents) => void expect((await price(cents)).status).toBe(200),
      };
    },
  },
  {
    name: "a post bought",
    refusal: PRICE_CHANGED,
    async setup(creator, fan, priceCents) {
      const post = await createPost(creator.user.userId, { priceCents });
      return {
        charge: (seen, key) =>
          postJson(`/posts/${post.id}/purchase`, { priceCents: seen, idempotencyKey: key }, { token: fan.token }),
        raise: async (cents) =>
          void (await env.DB.prepare("UPDATE posts SET price_cents = ? WHERE id = ?").bind(cents, post.id).run()),
      };
    },
  },
  {
    name: "a pay-per-view message unlocked",
    refusal: PRICE_CHANGED,
    async setup(creator, fan, priceCents) {
      await follow(fan.user.userId, creator.user.userId);
      const conversation = await conversationOf(creator, fan);
      const offer = await postJson(
        `/conversations/${conversation.id}/messages`,
        { clientId: newKey(), text: "a treat", mediaIds: [await chatImage(creator.user.userId)], priceCents },
        { token: creator.token },
      );
      expect(offer.status).toBe(200);
      const { message } = (await offer.json()) as { message: MessageView };
      return {
        charge: (seen, key) =>
          postJson(`/messages/${message.id}/unlock`, { priceCents: seen, idempotencyKey: key }, { token: fan.token }),
        raise: async (cents) =>
          void (await env.DB.prepare("UPDATE messages SET price_cents = ? WHERE id = ?").bind(cents, message.id).run()),
      };
    },
  },
  {
    name: "a live stream's entry",
    refusal: PRICE_CHANGED,
    async setup(creator, fan, priceCents) {
      const live = await postJson(
        "/live",
        { title: "Evening stream", audience: "everyone", priceCents },
        { token: creator.token },
      );
      expect(live.status).toBe(201);
      const stream = (await live.json()) as LiveStreamView;
      return {
        // The entry's key is the stream's own: the attempt's key is not sent.
        charge: (seen) => postJson(`/live/${stream.id}/join`, { priceCents: seen }, { token: fan.token }),
        raise: async (cents) =>
          void (await env.DB.prepare("UPDATE live_streams SET price_cents = ? WHERE id = ?")
            .bind(cents, stream.id)
            .run()),
      };
    },
  },
];

describe.each(PATHS)("$name", (path) => {
  it("a price raised after the screen was shown is refused with the new one, nothing charged; the new price is charged once; the same key again answers the first result", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 10_000);
    const { charge, raise } = await path.setup(creator, fan, 500);
    const ledgerBefore = await auditLedger(env.DB);

    await raise(750);
    const refused = await charge(500, newKey());
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as ErrorBody;
    expect(body).toEqual({ message: path.refusal("$7.50"), errors: {}, priceCents: 750 });
    expect(await walletOf(fan)).toBe(10_000);
    expect(await paymentsOf(fan)).toBe(0);
    expect(await auditLedger(env.DB)).toEqual(ledgerBefore);

    // The fan confirms the price the refusal showed.
    const key = newKey();
    const paid = await charge(750, key);
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await walletOf(fan)).toBe(10_000 - 750);
    expect(await paymentsOf(fan)).toBe(1);

    // A retry of that attempt (its answer lost) after yet another change: the first result, no second charge.
    await raise(900);
    const replay = await charge(750, key);
    expect(replay.status, await replay.clone().text()).toBe(200);
    expect(await walletOf(fan)).toBe(10_000 - 750);
    expect(await paymentsOf(fan)).toBe(1);
  });

  it("a lowered price is refused too when it is not the one shown (a message: charged at most what was shown)", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 10_000);
    const { charge, raise } = await path.setup(creator, fan, 900);
    await raise(600);
    const answer = await charge(900, newKey());
    if (path.name.startsWith("a message")) {
      // maxPaidCents is a ceiling: the lower price is charged.
      expect(answer.status).toBe(200);
      expect(await walletOf(fan)).toBe(10_000 - 600);
    } else {
      expect(answer.status).toBe(409);
      expect(((await answer.json()) as ErrorBody).priceCents).toBe(600);
      expect(await walletOf(fan)).toBe(10_000);
    }
  });
});

describe("a price that is not said", () => {
  it("a free plan that became paid: the request without a price is refused with the new price, not an error about its key", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 10_000);
    const plans = (cents: number) =>
      api("/me/plans", {
        method: "PUT",
        token: creator.token,
        body: JSON.stringify({ plans: [{ period: "month", priceCents: cents }] }),
      });
    await plans(0);
    // The screen showed "Free"; the creator then asks $5.00.
    await plans(500);
    for (const shownFree of [{ period: "month" }, { period: "month", priceCents: 0 }]) {
      const refused = await postJson(`/users/${creator.user.username}/subscribe`, shownFree, { token: fan.token });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        message: "The price changed to $5.00. Check it and try again.",
        errors: {},
        priceCents: 500,
      });
    }
    expect(await paymentsOf(fan)).toBe(0);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM subscriptions WHERE fan_id = ?")
        .bind(fan.user.userId)
        .first<number>("n"),
    ).toBe(0);

    // Confirmed at $5.00 but without a key: the refusal says what is missing.
    const noKey = await postJson(
      `/users/${creator.user.username}/subscribe`,
      { period: "month", priceCents: 500 },
      { token: fan.token },
    );
    expect(noKey.status).toBe(422);
    expect(((await noKey.json()) as ErrorBody).errors).toEqual({
      idempotencyKey: ["A payment needs an idempotency key: a new one for each attempt."],
    });
    const paid = await postJson(
      `/users/${creator.user.username}/subscribe`,
      { period: "month", priceCents: 500, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(paid.status).toBe(200);
    expect(await walletOf(fan)).toBe(9_500);
  });

  it("a paid plan that became free says so; the free plan is then taken without a key", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "week", priceCents: 600 }] }),
    });
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [{ period: "week", priceCents: 0 }] }),
    });
    const refused = await postJson(
      `/users/${creator.user.username}/subscribe`,
      { period: "week", priceCents: 600, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      message: "It is free now. Check it and try again.",
      errors: {},
      priceCents: 0,
    });
    expect(
      (
        await postJson(
          `/users/${creator.user.username}/subscribe`,
          { period: "week", priceCents: 0 },
          { token: fan.token },
        )
      ).status,
    ).toBe(200);
  });

  it("a message without maxPaidCents to a creator with a price is not charged; a paid stream joined without a price is not either", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 10_000);
    await api("/me/plans", {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ plans: [], messagePriceCents: 250 }),
    });
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(fan, creator);
    const message = await postJson(
      `/conversations/${conversation.id}/messages`,
      { clientId: newKey(), text: "hello" },
      { token: fan.token },
    );
    expect(message.status).toBe(409);
    expect(await message.json()).toMatchObject({
      message: "Sending a message here now costs $2.50: it was not sent.",
      priceCents: 250,
    });

    const live = (await (
      await postJson(
        "/live",
        { title: "Evening stream", audience: "everyone", priceCents: 400 },
        { token: creator.token },
      )
    ).json()) as LiveStreamView;
    const join = await postJson(`/live/${live.id}/join`, {}, { token: fan.token });
    expect(join.status).toBe(409);
    expect(await join.json()).toMatchObject({
      message: "The price changed to $4.00. Check it and try again.",
      priceCents: 400,
    });
    expect(await walletOf(fan)).toBe(10_000);
    expect(await paymentsOf(fan)).toBe(0);
  });
});
