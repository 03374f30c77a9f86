import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConversationPage, MessagePage } from "@shared/contracts/messages";
import type { WelcomeMessageView } from "@shared/contracts/welcome-messages";
import { findUserById } from "../../worker/domain/accounts/users";
import { renewSubscriptions } from "../../worker/domain/subscriptions/renew-subscriptions";
import { subscribe as subscribeCommand } from "../../worker/domain/subscriptions/subscribe";
import { sendWelcomeMessages } from "../../worker/domain/welcome-messages/send-welcome-messages";
import { testContext } from "./domain-context";
import { api, createUser, postJson } from "./factories";
import { newKey } from "./money-fixtures";
import {
  creatorWith,
  fundedFan,
  inDays,
  letClockRun,
  makeTrialLink,
  subscribe,
  subscribed,
  type Member,
} from "./offer-fixtures";
import { stopClockAt } from "./clock";

const WELCOME = "Welcome aboard! Here is something for you.";

afterEach(() => vi.restoreAllMocks());

const putWelcome = (token: string | undefined, body: unknown) =>
  api("/me/welcome-message", { method: "PUT", token, body: JSON.stringify(body) });

async function turnOn(creator: Member, body: Record<string, unknown> = {}) {
  const response = await putWelcome(creator.token, { enabled: true, text: WELCOME, ...body });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as WelcomeMessageView;
}

/** A finished upload of the creator's, as their vault holds it. */
async function uploadOf(creatorId: number) {
  const row = await env.DB.prepare(
    "INSERT INTO media (user_id, kind, status, object_key, content_type, size_bytes, created_at) VALUES (?, 'image', 'ready', ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(creatorId, `posts/${crypto.randomUUID()}.png`, new Date().toISOString())
    .first<{ id: number }>();
  return row!.id;
}

/** The messages the fan has from the creator (none: no conversation), oldest first. */
async function welcomesOf(fan: Member, creator: Member) {
  const list = (await (await api("/conversations", { token: fan.token })).json()) as ConversationPage;
  const conversation = list.conversations.find((c) => c.other.username === creator.user.username);
  if (!conversation) return [];
  const page = (await (
    await api(`/conversations/${conversation.id}/messages`, { token: fan.token })
  ).json()) as MessagePage;
  return page.messages.filter((m) => m.senderId === creator.user.userId).sort((a, b) => a.seq - b.seq);
}

const bookings = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM welcome_deliveries").first<{ n: number }>())!.n;

/**
 * A domain context whose send right after the answer fails (as if the isolate were lost): the booking stays for
 * the cron. Its deferred work is awaited by the caller.
 */
function contextLosingTheSend() {
  vi.spyOn(console, "error").mockImplementation(() => {});
  const ctx = testContext();
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare")
        return (sql: string) => {
          if (sql.includes("FROM welcome_deliveries d")) throw new Error("the isolate went away");
          return target.prepare(sql);
        };
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...ctx, db };
}

describe("the welcome message's settings", () => {
  it("only its creator reads and writes it: a fan is refused, a visitor must sign in", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    const fan = await fundedFan(0);
    expect(await (await api("/me/welcome-message", { token: creator.token })).json()).toEqual({
      enabled: false,
      text: "",
      priceCents: 0,
      media: [],
    });
    const image = await uploadOf(creator.user.userId);
    const saved = await turnOn(creator, { mediaIds: [image], priceCents: 500 });
    expect(saved).toMatchObject({
      enabled: true,
      text: WELCOME,
      priceCents: 500,
      media: [{ id: image, kind: "image" }],
    });
    expect(await (await api("/me/welcome-message", { token: creator.token })).json()).toEqual(saved);

    expect((await api("/me/welcome-message", { token: fan.token })).status).toBe(403);
    expect((await putWelcome(fan.token, { enabled: true, text: "hi" })).status).toBe(403);
    expect((await api("/me/welcome-message")).status).toBe(401);
    expect((await putWelcome(undefined, { enabled: true, text: "hi" })).status).toBe(401);
    expect(await (await api("/me/welcome-message", { token: creator.token })).json()).toEqual(saved);
  });

  it("holds its files: the vault refuses to delete one, naming the welcome message as its use", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    const kept = await uploadOf(creator.user.userId);
    const unused = await uploadOf(creator.user.userId);
    await turnOn(creator, { mediaIds: [kept] });
    const refused = await api(`/vault/${kept}`, { method: "DELETE", token: creator.token });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { uses: unknown[] }).uses).toEqual([
      { kind: "welcome", id: creator.user.userId, conversationId: null },
    ]);
    expect((await api(`/vault/${unused}`, { method: "DELETE", token: creator.token })).status).toBe(204);
    const left = await env.DB.prepare("SELECT id FROM media WHERE id IN (?, ?)")
      .bind(kept, unused)
      .all<{ id: number }>();
    expect(left.results.map((row) => row.id)).toEqual([kept]);
  });

  it("refuses bad input with a translated 422 and changes nothing", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    const other = await creatorWith([{ period: "month", priceCents: 0 }]);
    const image = await uploadOf(creator.user.userId);
    const theirs = await uploadOf(other.user.userId);
    const saved = await turnOn(creator);
    const refusals: [unknown, string, string][] = [
      [{ enabled: true, text: "  " }, "text", "Write a message or attach a photo or video."],
      [{ enabled: true, text: "x".repeat(2001) }, "text", "A message is at most 2000 characters."],
      [
        { enabled: true, text: "hi", priceCents: 500 },
        "priceCents",
        "Only a message with a photo or video can have a price.",
      ],
      [
        { enabled: true, text: "hi", mediaIds: [image], priceCents: 50 },
        "priceCents",
        "A message's price is between $1.00 and $200.00.",
      ],
      [
        { enabled: true, text: "hi", mediaIds: [theirs] },
        "mediaIds",
        "Attach finished photos or videos from your vault, each once.",
      ],
      [
        { enabled: false, text: "hi", mediaIds: [image, image] },
        "mediaIds",
        "Attach finished photos or videos from your vault, each once.",
      ],
    ];
    for (const [body, field, text] of refusals) {
      const response = await putWelcome(creator.token, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const answer = (await response.json()) as { message: string; errors: Record<string, string[]> };
      expect(answer.errors[field], JSON.stringify(body)).toEqual([text]);
    }
    for (const body of ['{"enabled": "yes"}', '{"text": "no switch"}', "{", '{"enabled": true, "priceCents": 1.5}']) {
      expect((await api("/me/welcome-message", { method: "PUT", token: creator.token, body })).status).toBe(422);
    }
    // In another language, the same refusal is translated.
    const french = await api("/me/welcome-message", {
      method: "PUT",
      token: creator.token,
      headers: { "Accept-Language": "fr" },
      body: JSON.stringify({ enabled: true, text: "" }),
    });
    expect(french.status).toBe(422);
    expect(((await french.json()) as { message: string }).message).not.toBe(
      "Write a message or attach a photo or video.",
    );
    expect(await (await api("/me/welcome-message", { token: creator.token })).json()).toEqual(saved);
    // Off, it may be left blank.
    expect((await putWelcome(creator.token, { enabled: false, text: "" })).status).toBe(200);
  });
});

describe("sending the welcome message", () => {
  it("goes once to each new subscriber from the creator's account; subscribing again while subscribed sends nothing", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    await turnOn(creator);
    const fan = await fundedFan(0);
    const other = await fundedFan(0);
    const first = await subscribed(await subscribe(creator.user.username, { period: "month" }, fan.token));
    await subscribed(await subscribe(creator.user.username, { period: "month" }, fan.token));
    await subscribed(await subscribe(creator.user.username, { period: "month" }, other.token));

    const [welcome, ...more] = await welcomesOf(fan, creator);
    expect(more).toEqual([]);
    expect(welcome).toMatchObject({ text: WELCOME, clientId: `welcome-${first.id}`, priceCents: 0, locked: false });
    expect((await welcomesOf(other, creator)).map((m) => m.text)).toEqual([WELCOME]);
    expect(await bookings()).toBe(0);
    // The cron finds nothing left to send.
    expect(await sendWelcomeMessages(testContext())).toBe(0);
    expect(await welcomesOf(fan, creator)).toHaveLength(1);
  });

  it("is announced like a message: live in the chat, the badge and a push", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    await turnOn(creator);
    const fan = await fundedFan(0);
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const ctx = testContext();
    const subscription = await subscribeCommand(ctx, fanRow, creator.user.username, { period: "month" });
    await Promise.all(ctx.deferred);
    const [welcome] = await welcomesOf(fan, creator);
    expect(ctx.published).toContainEqual(
      expect.objectContaining({
        type: "MessageSent",
        messageId: welcome!.id,
        senderId: creator.user.userId,
        recipientId: fan.user.userId,
      }),
    );
    expect(welcome!.clientId).toBe(`welcome-${subscription.id}`);
  });

  it("turned off, sends nothing", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    await turnOn(creator);
    expect((await putWelcome(creator.token, { enabled: false, text: WELCOME })).status).toBe(200);
    const fan = await fundedFan(0);
    await subscribed(await subscribe(creator.user.username, { period: "month" }, fan.token));
    expect(await welcomesOf(fan, creator)).toEqual([]);
    expect(await bookings()).toBe(0);
  });

  it("a free trial counts; its turning paid, a renewal, does not", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    await turnOn(creator);
    const link = await makeTrialLink(creator.token, { days: 7 });
    const fan = await fundedFan(5000);
    const trial = await subscribed(
      await subscribe(creator.user.username, { period: "month", trialCode: link.code, priceCents: 0 }, fan.token),
    );
    expect(trial.trialEndsAt).not.toBeNull();
    expect((await welcomesOf(fan, creator)).map((m) => m.text)).toEqual([WELCOME]);

    stopClockAt(new Date(Date.parse(trial.currentPeriodEnd) + 60_000));
    await renewSubscriptions(testContext());
    expect(await sendWelcomeMessages(testContext())).toBe(0);
    letClockRun();
    const renewed = (await env.DB.prepare("SELECT current_period_end FROM subscriptions WHERE id = ?")
      .bind(trial.id)
      .first<{ current_period_end: string }>())!;
    expect(renewed.current_period_end > trial.currentPeriodEnd).toBe(true);
    expect(await welcomesOf(fan, creator)).toHaveLength(1);
  });

  it("a paid subscription counts, and a second one after the first expired is new and welcomed again", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    await turnOn(creator);
    const fan = await fundedFan(5000);
    const first = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    await env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE id = ?")
      .bind(inDays(-1), first.id)
      .run();
    const second = await subscribed(
      await subscribe(
        creator.user.username,
        { period: "month", priceCents: 1000, idempotencyKey: newKey() },
        fan.token,
      ),
    );
    expect(second.id).not.toBe(first.id);
    expect((await welcomesOf(fan, creator)).map((m) => m.clientId)).toEqual([
      `welcome-${first.id}`,
      `welcome-${second.id}`,
    ]);
  });

  it("with a price it is pay-per-view for each fan, who unlocks it the usual way", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    const image = await uploadOf(creator.user.userId);
    await turnOn(creator, { mediaIds: [image], priceCents: 500 });
    const fan = await fundedFan(2000);
    const other = await fundedFan(0);
    for (const member of [fan, other])
      await subscribed(await subscribe(creator.user.username, { period: "month" }, member.token));

    const [locked] = await welcomesOf(fan, creator);
    expect(locked).toMatchObject({ text: WELCOME, priceCents: 500, locked: true });
    expect(locked!.media).toHaveLength(1);
    expect(locked!.media[0]!.url).toBeNull();
    // The same file goes to every new subscriber.
    expect((await welcomesOf(other, creator))[0]).toMatchObject({ priceCents: 500, locked: true });
    expect((await welcomesOf(other, creator))[0]!.media).toHaveLength(1);

    const bought = await postJson(
      `/messages/${locked!.id}/unlock`,
      { priceCents: 500, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(bought.status, await bought.clone().text()).toBe(200);
    const [opened] = await welcomesOf(fan, creator);
    expect(opened).toMatchObject({ locked: false, purchased: true });
    expect(opened!.media[0]!.url).not.toBeNull();
    expect((await welcomesOf(other, creator))[0]).toMatchObject({ locked: true });
  });

  it("a blocked fan gets nothing, whether blocked before subscribing or before the message went", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    await turnOn(creator);
    const early = await fundedFan(0);
    expect((await postJson(`/users/${early.user.username}/block`, {}, { token: creator.token })).status).toBe(200);
    expect((await subscribe(creator.user.username, { period: "month" }, early.token)).status).toBe(403);
    expect(await bookings()).toBe(0);

    const late = await fundedFan(0);
    const ctx = contextLosingTheSend();
    await subscribeCommand(ctx, (await findUserById(env.DB, late.user.userId))!, creator.user.username, {
      period: "month",
    });
    await Promise.all(ctx.deferred);
    expect(await bookings()).toBe(1);
    expect((await postJson(`/users/${creator.user.username}/block`, {}, { token: late.token })).status).toBe(200);
    expect(await sendWelcomeMessages(testContext())).toBe(0);
    expect(await bookings()).toBe(0);
    const conversations = (await (await api("/conversations", { token: late.token })).json()) as ConversationPage;
    expect(conversations.conversations).toEqual([]);
  });

  it("a suspended creator sends nothing", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    await turnOn(creator);
    const fan = await fundedFan(0);
    const ctx = contextLosingTheSend();
    await subscribeCommand(ctx, (await findUserById(env.DB, fan.user.userId))!, creator.user.username, {
      period: "month",
    });
    await Promise.all(ctx.deferred);
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?")
      .bind(new Date().toISOString(), creator.user.userId)
      .run();
    expect(await sendWelcomeMessages(testContext())).toBe(0);
    expect(await bookings()).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM messages").first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("sends the settings of the moment of subscribing, by the cron when the send after the answer was lost; a retry sends it once", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 0 }]);
    await turnOn(creator);
    const fan = await fundedFan(0);
    const ctx = contextLosingTheSend();
    const subscription = await subscribeCommand(
      ctx,
      (await findUserById(env.DB, fan.user.userId))!,
      creator.user.username,
      { period: "month" },
    );
    await Promise.all(ctx.deferred);
    expect(await welcomesOf(fan, creator)).toEqual([]);
    // Changed after the subscription: this fan still gets what was on when they subscribed.
    await turnOn(creator, { text: "A newer welcome" });

    // Two cron runs racing, then the booking written again as if a run had died before forgetting it.
    const runs = [testContext(), testContext()];
    const sent = await Promise.all(runs.map((run) => sendWelcomeMessages(run)));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    await env.DB.prepare(
      "INSERT INTO welcome_deliveries (subscription_id, creator_id, fan_id, text, price_cents, media_ids, created_at) VALUES (?, ?, ?, ?, 0, '[]', ?)",
    )
      .bind(subscription.id, creator.user.userId, fan.user.userId, WELCOME, new Date().toISOString())
      .run();
    expect(await sendWelcomeMessages(testContext())).toBe(0);
    expect(await bookings()).toBe(0);

    const welcomes = await welcomesOf(fan, creator);
    expect(welcomes.map((m) => [m.text, m.clientId])).toEqual([[WELCOME, `welcome-${subscription.id}`]]);
    expect(runs.flatMap((run) => run.published).filter((event) => event.type === "MessageSent")).toHaveLength(1);
  });

  it("a gift that starts a subscription welcomes its member", async () => {
    const creator = await creatorWith([{ period: "month", priceCents: 1000 }]);
    await turnOn(creator);
    const giver = await fundedFan(5000);
    const member = await createUser();
    const gift = await postJson(
      `/users/${creator.user.username}/gift`,
      { to: member.user.username, months: 1, priceCents: 1000, idempotencyKey: newKey() },
      { token: giver.token },
    );
    expect(gift.status, await gift.clone().text()).toBe(200);
    expect((await welcomesOf(member, creator)).map((m) => m.text)).toEqual([WELCOME]);
    expect(await welcomesOf(giver, creator)).toEqual([]);
  });
});
