import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ConversationPage, MassMessageView, MessagePage } from "@shared/contracts/messages";
import { auditLedger } from "../../worker/domain/money/ledger";
import { findUserById } from "../../worker/domain/accounts/users";
import type { MassMessageJob } from "../../worker/domain/mass-messages/begin-mass-message";
import { deliverMassMessageBatch } from "../../worker/domain/mass-messages/deliver-mass-message-batch";
import { startMassMessage } from "../../worker/domain/mass-messages/start-mass-message";
import { SendMassMessageSchema } from "../../shared/contracts/message-bodies";
import { stopClockAt } from "./clock";
import { testContext } from "./domain-context";
import { runScheduledJobsAndSettle } from "./entry";
import { api, countRows, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { fetchMedia } from "./moderation-support";
import { block, follow, PNG, subscribe } from "./timeline-fixtures";

type Member = Awaited<ReturnType<typeof createUser>>;

const BALANCED = { unbalancedTransfers: 0, openTransfers: 0, negativeAccounts: 0, driftedAccounts: 0, totalCents: 0 };

const send = (creator: Member, body: Record<string, unknown>) =>
  postJson("/mass-messages", { clientId: newKey(), text: "Hello", ...body }, { token: creator.token });

async function sent(creator: Member, body: Record<string, unknown>): Promise<MassMessageView> {
  const response = await send(creator, body);
  expect(response.status, await response.clone().text()).toBe(202);
  return (await response.json()) as MassMessageView;
}

const listOf = async (member: Member) =>
  (await (await api("/conversations", { token: member.token })).json()) as ConversationPage;

/** The texts of the creator's messages in a fan's chat list (one line per conversation). */
const inboxOf = async (member: Member) => (await listOf(member)).conversations.map((c) => c.lastMessage?.text ?? null);

const messagesOf = async (member: Member, conversationId: number) =>
  (await (await api(`/conversations/${conversationId}/messages`, { token: member.token })).json()) as MessagePage;

const unreadBadge = async (member: Member) =>
  ((await (await api("/updates", { token: member.token })).json()) as { updates: { messages: number } }).updates
    .messages;

const massMessagesOf = async (creator: Member) =>
  ((await (await api("/mass-messages", { token: creator.token })).json()) as { massMessages: MassMessageView[] })
    .massMessages;

const countOf = async (creator: Member, include: string[], exclude: string[] = []) => {
  const response = await postJson("/mass-messages/count", { include, exclude }, { token: creator.token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { recipients: number }).recipients;
};

async function expire(fanId: number, creatorId: number) {
  await env.DB.prepare(
    "INSERT INTO subscriptions (fan_id, creator_id, period, price_cents, status, started_at, current_period_end) VALUES (?, ?, 'month', 0, 'expired', ?, ?)",
  )
    .bind(fanId, creatorId, "2020-01-01T00:00:00.000Z", "2020-02-01T00:00:00.000Z")
    .run();
}

/** A ready content image of `userId`, with its blurred preview. */
async function chatImage(userId: number) {
  const hex = () =>
    [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const key = `posts/${hex()}.png`;
  const previewKey = `previews/${hex()}.png`;
  for (const stored of [key, previewKey])
    await env.MEDIA.put(stored, PNG, { httpMetadata: { contentType: "image/png" } });
  const row = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, preview_key, content_type, size_bytes, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(userId, key, previewKey, new Date().toISOString())
    .first<{ id: number }>();
  return { id: row!.id, key, previewKey };
}

/** A creator with a subscriber, a follower who never subscribed, an expired fan who still follows, one blocked. */
async function audience() {
  const creator = await createVerifiedCreator();
  const [subscriber, follower, lapsed, blocked] = await Promise.all([
    createFan(),
    createFan(),
    createFan(),
    createFan(),
  ]);
  await subscribe(subscriber.user.userId, creator.user.userId);
  await follow(follower.user.userId, creator.user.userId);
  await follow(lapsed.user.userId, creator.user.userId);
  await expire(lapsed.user.userId, creator.user.userId);
  await subscribe(blocked.user.userId, creator.user.userId);
  await block(creator.user.userId, blocked.user.userId);
  return { creator, subscriber, follower, lapsed, blocked };
}

describe("the audience of a mass message", () => {
  it("is the fans in any included list and in no excluded one, without blocked fans; counted before sending", async () => {
    const { creator, subscriber, follower, lapsed, blocked } = await audience();
    // followers (who never subscribed) = follower; subscribers = subscriber; expired = lapsed.
    expect(await countOf(creator, ["subscribers"])).toBe(1);
    expect(await countOf(creator, ["followers"])).toBe(1);
    expect(await countOf(creator, ["followers", "subscribers", "expired"])).toBe(3);
    expect(await countOf(creator, ["followers", "subscribers", "expired"], ["subscribers"])).toBe(2);
    // A fan in both is excluded.
    expect(await countOf(creator, ["expired"], ["expired"])).toBe(0);
    expect(await countOf(creator, ["followers", "expired"], ["subscribers", "expired"])).toBe(1);

    const include = ["followers", "subscribers"];
    const mass = await sent(creator, { include, exclude: ["expired"], text: "Not for lapsed fans" });
    expect(mass).toMatchObject({ status: "sending", recipients: 2, include, exclude: ["expired"] });
    // The inline queue (tests/worker/entry.ts) has run every batch before the answer reached the test.
    expect((await massMessagesOf(creator))[0]).toMatchObject({ id: mass.id, status: "sent", delivered: 2 });
    expect(await inboxOf(subscriber)).toEqual(["Not for lapsed fans"]);
    expect(await inboxOf(follower)).toEqual(["Not for lapsed fans"]);
    expect(await inboxOf(lapsed)).toEqual([]);
    expect(await inboxOf(blocked)).toEqual([]);
    expect(await unreadBadge(follower)).toBe(1);
  });

  it("an empty audience is refused when sending now, and nothing is stored", async () => {
    const creator = await createVerifiedCreator();
    const empty = await send(creator, { include: ["subscribers"] });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { message: string }).message).toBe(
      "Nobody to send it to yet: these lists are empty.",
    );
    expect(await countRows("mass_messages")).toBe(0);
  });
});

describe("scheduled mass messages", () => {
  it("wait for their time, then the cron sends them once; they can be edited and cancelled until then", async () => {
    const at = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
    stopClockAt(at);
    const { creator, subscriber, follower, lapsed } = await audience();
    const inAnHour = new Date(at.getTime() + 3_600_000).toISOString();
    const scheduled = await sent(creator, { include: ["subscribers"], text: "Later", sendAt: inAnHour });
    expect(scheduled).toMatchObject({
      status: "scheduled",
      sendAt: inAnHour,
      recipients: 0,
      viewer: { canEdit: true },
    });
    const cancelled = await sent(creator, { include: ["followers"], text: "Never", sendAt: inAnHour });

    // Edit: another text and lists, another time.
    const inTwoHours = new Date(at.getTime() + 7_200_000).toISOString();
    const edit = await api(`/mass-messages/${scheduled.id}`, {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({
        include: ["followers", "expired"],
        exclude: ["subscribers"],
        text: "Later, edited",
        sendAt: inTwoHours,
      }),
    });
    expect(edit.status, await edit.clone().text()).toBe(200);
    expect(await edit.json()).toMatchObject({
      text: "Later, edited",
      include: ["followers", "expired"],
      sendAt: inTwoHours,
    });
    expect((await postJson(`/mass-messages/${cancelled.id}/cancel`, {}, { token: creator.token })).status).toBe(200);

    await runScheduledJobsAndSettle(env);
    expect(await countRows("messages")).toBe(0);

    stopClockAt(new Date(at.getTime() + 7_200_000 + 60_000));
    const outcomes = await runScheduledJobsAndSettle(env);
    expect(outcomes.find((o) => o.job === "start-scheduled-mass-messages")).toMatchObject({
      ok: true,
      result: { started: 1 },
    });
    expect(await inboxOf(follower)).toEqual(["Later, edited"]);
    expect(await inboxOf(lapsed)).toEqual(["Later, edited"]);
    expect(await inboxOf(subscriber)).toEqual([]);
    // The next run finds nothing due: sent once.
    await runScheduledJobsAndSettle(env);
    expect(await countRows("messages")).toBe(2);
    const list = await massMessagesOf(creator);
    expect(list.map((m) => [m.id, m.status, m.delivered])).toEqual([
      [cancelled.id, "cancelled", 0],
      [scheduled.id, "sent", 2],
    ]);

    // Gone: neither edited nor cancelled any more.
    const late = await api(`/mass-messages/${scheduled.id}`, {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ include: ["followers"], text: "Too late" }),
    });
    expect(late.status).toBe(409);
    expect((await postJson(`/mass-messages/${scheduled.id}/cancel`, {}, { token: creator.token })).status).toBe(409);
  });

  it("an edit without a time sends it now", async () => {
    const { creator, subscriber } = await audience();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await sent(creator, { include: ["subscribers"], text: "Later", sendAt: later });
    const now = await api(`/mass-messages/${scheduled.id}`, {
      method: "PUT",
      token: creator.token,
      body: JSON.stringify({ include: ["subscribers"], text: "Now instead" }),
    });
    expect(await now.json()).toMatchObject({ status: "sending", recipients: 1 });
    expect(await inboxOf(subscriber)).toEqual(["Now instead"]);
  });
});

describe("delivery", () => {
  it("never sends twice to one fan, even when a batch runs twice at once or is retried after it committed", async () => {
    const creator = await createVerifiedCreator();
    const fans = await Promise.all(Array.from({ length: 60 }, () => createUser()));
    for (const fan of fans) await follow(fan.user.userId, creator.user.userId);
    const jobs: MassMessageJob[] = [];
    const ctx = testContext();
    const creatorRow = (await findUserById(env.DB, creator.user.userId))!;
    const mass = await startMassMessage(
      ctx,
      async (job) => void jobs.push(job),
      creatorRow,
      SendMassMessageSchema.parse({ clientId: newKey(), include: ["followers"], text: "Once each" }),
    );
    expect(jobs).toEqual([{ massMessageId: mass.id }]);
    const job = jobs[0]!;

    // The same batch twice at once: one writes 50 copies, the other collides on their client ids and fails.
    const outcomes = await Promise.allSettled([deliverMassMessageBatch(ctx, job), deliverMassMessageBatch(ctx, job)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await countRows("messages")).toBe(50);
    // The Queue retries the failed one, and again (a retry after its batch committed): the rest, then nothing.
    expect(await deliverMassMessageBatch(ctx, job)).toBeNull();
    expect(await deliverMassMessageBatch(ctx, job)).toBeNull();
    const perFan = await env.DB.prepare(
      "SELECT COUNT(*) AS copies, COUNT(DISTINCT conversation_id) AS chats FROM messages WHERE mass_message_id = ?",
    )
      .bind(mass.id)
      .first<{ copies: number; chats: number }>();
    expect(perFan).toEqual({ copies: 60, chats: 60 });
    expect((await massMessagesOf(creator))[0]).toMatchObject({ status: "sent", recipients: 60, delivered: 60 });
    // Each batch told its recipients' user channels.
    const told = ctx.published.flatMap((event) => (event.type === "UpdatesChanged" ? event.userIds : []));
    expect(told.sort((a, b) => a - b)).toEqual(fans.map((fan) => fan.user.userId).sort((a, b) => a - b));
  });

  it("the same client id again is the same mass message; another text with it is refused", async () => {
    const { creator } = await audience();
    const clientId = newKey();
    const include = ["followers", "subscribers", "expired"];
    const first = await sent(creator, { clientId, include, text: "Hi" });
    const again = await sent(creator, { clientId, include, text: "Hi" });
    expect(again.id).toBe(first.id);
    expect((await send(creator, { clientId, include, text: "Other" })).status).toBe(409);
    expect(await countRows("messages")).toBe(3);
  });
});

describe("a priced mass message, its results and its unsend", () => {
  it("each fan unlocks their own copy; results count sent, read, unlocked and revenue; unsend keeps bought copies", async () => {
    const creator = await createVerifiedCreator();
    const [buyer, reader, ignorer] = await Promise.all([createFan(), createFan(), createFan()]);
    for (const fan of [buyer, reader, ignorer]) await subscribe(fan.user.userId, creator.user.userId);
    await fundWallet(buyer.user.userId, 1000);
    // The ignorer had a chat with the creator before: after the unsend, its last message is that one again.
    const conversation = (await (
      await postJson("/conversations", { username: creator.user.username }, { token: ignorer.token })
    ).json()) as { id: number };
    await postJson(
      `/conversations/${conversation.id}/messages`,
      { clientId: newKey(), text: "Earlier" },
      { token: creator.token },
    );
    await postJson(`/conversations/${conversation.id}/read`, {}, { token: ignorer.token });

    const image = await chatImage(creator.user.userId);
    const mass = await sent(creator, {
      include: ["subscribers"],
      text: "Exclusive",
      mediaIds: [image.id],
      priceCents: 400,
    });
    const copyOf = async (fan: Member) => {
      const id = (await listOf(fan)).conversations[0]!.id;
      return { conversationId: id, message: (await messagesOf(fan, id)).messages.at(-1)! };
    };
    const bought = await copyOf(buyer);
    expect(bought.message).toMatchObject({ locked: true, priceCents: 400, text: "Exclusive" });
    expect(await fetchMedia(image.key, buyer.token)).toBe(404);
    const unlock = await postJson(
      `/messages/${bought.message.id}/unlock`,
      { priceCents: 400, idempotencyKey: newKey() },
      { token: buyer.token },
    );
    expect(unlock.status).toBe(200);
    expect(await fetchMedia(image.key, buyer.token)).toBe(200);
    expect(await fetchMedia(image.key, reader.token)).toBe(404);
    const read = await copyOf(reader);
    await postJson(`/conversations/${read.conversationId}/read`, {}, { token: reader.token });

    expect((await massMessagesOf(creator))[0]).toMatchObject({
      id: mass.id,
      delivered: 3,
      read: 1,
      unlocked: 1,
      revenueCents: 400,
      viewer: { canUnsend: true },
    });

    expect(await unreadBadge(ignorer)).toBe(1);
    const unsent = await postJson(`/mass-messages/${mass.id}/unsend`, {}, { token: creator.token });
    expect(unsent.status).toBe(200);
    expect(await unsent.json()).toMatchObject({ status: "unsent", unlocked: 1, revenueCents: 400 });
    // The bought copy stays; the others are gone, with their unread counts; the earlier chat is as it was.
    expect((await messagesOf(buyer, bought.conversationId)).messages.map((m) => m.text)).toEqual(["Exclusive"]);
    expect(await inboxOf(reader)).toEqual([]);
    expect(await inboxOf(ignorer)).toEqual(["Earlier"]);
    expect(await unreadBadge(ignorer)).toBe(0);
    expect((await messagesOf(ignorer, conversation.id)).messages.map((m) => m.text)).toEqual(["Earlier"]);
    // Twice is the same answer.
    expect((await postJson(`/mass-messages/${mass.id}/unsend`, {}, { token: creator.token })).status).toBe(200);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });
});

describe("access", () => {
  it("owner only: another creator finds nothing, a fan may not send, a visitor is asked to sign in", async () => {
    const { creator } = await audience();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const mass = await sent(creator, { include: ["subscribers"], sendAt: later });
    const other = await createVerifiedCreator();
    const fan = await createFan();
    for (const path of [`/mass-messages/${mass.id}/cancel`, `/mass-messages/${mass.id}/unsend`])
      expect((await postJson(path, {}, { token: other.token })).status).toBe(404);
    const edit = await api(`/mass-messages/${mass.id}`, {
      method: "PUT",
      token: other.token,
      body: JSON.stringify({ include: ["subscribers"], text: "Mine now" }),
    });
    expect(edit.status).toBe(404);
    expect(await massMessagesOf(other)).toEqual([]);
    expect((await send(fan, { include: ["followers"] })).status).toBe(403);
    expect((await postJson("/mass-messages/count", { include: ["followers"] }, { token: fan.token })).status).toBe(403);
    expect((await postJson(`/mass-messages/${mass.id}/cancel`, {}, { token: fan.token })).status).toBe(403);
    expect((await postJson("/mass-messages/count", { include: ["followers"] })).status).toBe(401);
    expect((await api("/mass-messages")).status).toBe(401);
    expect((await massMessagesOf(creator))[0]).toMatchObject({ status: "scheduled", text: "Hello" });
  });

  it("bad input is refused with a clear message and changes nothing", async () => {
    const { creator } = await audience();
    const refused = async (body: Record<string, unknown>) => {
      const response = await send(creator, body);
      expect(response.status).toBe(422);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await refused({ include: [] })).toBe("Choose at least one list to send it to.");
    expect(await refused({ include: ["everyone"] })).toBe("This list does not exist.");
    expect(await refused({ include: ["followers"], exclude: ["custom:0"] })).toBe("This list does not exist.");
    expect(await refused({ include: ["followers"], text: " " })).toBe("Write a message or attach a photo or video.");
    expect(await refused({ include: ["followers"], sendAt: "2020-01-01T00:00:00Z" })).toBe(
      "Choose a time in the future.",
    );
    expect(await refused({ include: ["followers"], sendAt: "tomorrow" })).toBe("Invalid value");
    expect(await refused({ include: ["followers"], text: "x", priceCents: 500 })).toBe(
      "Only a message with a photo or video can have a price.",
    );
    expect(await countRows("mass_messages")).toBe(0);
  });
});
