import { env, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import type { ConversationPage, ConversationView, MessagePage, MessageView } from "@shared/contracts/messages";
import { auditLedger, balancesOf } from "../../worker/domain/money/ledger";
import { requireConversationAccess, type ConversationAction } from "../../worker/domain/policies/conversations";
import type { Viewer } from "../../worker/domain/policies/policy";
import type { AppError } from "../../worker/domain/shared/errors";
import type { ChatRoom } from "../../worker/realtime/chat-room";
import { findUserById } from "../../worker/domain/accounts/users";
import { presentMessageById } from "../../worker/domain/messages/present-messages";
import { sendMessage } from "../../worker/domain/messages/send-message";
import { SendMessageSchema } from "../../shared/contracts/message-bodies";
import { sendTip } from "../../worker/domain/money/send-tip";
import { unlockMessage } from "../../worker/domain/messages/unlock-message";
import { chatRoomStub, deliverToSockets } from "../../worker/realtime/socket-delivery";
import { testContext } from "./domain-context";
import { counted } from "./counted-db";
import { translatorFor } from "../../worker/domain/i18n";
import { getConversation } from "../../worker/domain/messages/conversations";
import { getThread, listChatMedia, listMessages } from "../../worker/domain/messages/list-messages";
import { api, countRows, createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { fetchMedia } from "./moderation-support";
import { block, follow, makeCreator, PNG, subscribe } from "./timeline-fixtures";
import { until } from "./waits";

type Member = Awaited<ReturnType<typeof createUser>>;

const BALANCED = { unbalancedTransfers: 0, openTransfers: 0, negativeAccounts: 0, driftedAccounts: 0, totalCents: 0 };

const start = (from: Member, to: Member) =>
  postJson("/conversations", { username: to.user.username }, { token: from.token });

async function conversationOf(from: Member, to: Member): Promise<ConversationView> {
  const response = await start(from, to);
  expect(response.status).toBe(200);
  return (await response.json()) as ConversationView;
}

const send = (from: Member, conversationId: number, body: Record<string, unknown>) =>
  postJson(`/conversations/${conversationId}/messages`, { clientId: newKey(), ...body }, { token: from.token });

async function sent(from: Member, conversationId: number, body: Record<string, unknown>): Promise<MessageView> {
  const response = await send(from, conversationId, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { message: MessageView }).message;
}

const messagesOf = async (member: Member, conversationId: number, query = "") =>
  (await (
    await api(`/conversations/${conversationId}/messages${query}`, { token: member.token })
  ).json()) as MessagePage;

const listOf = async (member: Member) =>
  (await (await api("/conversations", { token: member.token })).json()) as ConversationPage;

const unreadBadge = async (member: Member) =>
  ((await (await api("/updates", { token: member.token })).json()) as { updates: { messages: number } }).updates
    .messages;

const walletOf = async (userId: number) => (await balancesOf(env.DB, userId)).wallet;

/** A ready chat image of `userId` (what uploadFile with purpose "message" leaves), with its blurred preview. */
async function chatImage(userId: number) {
  const hex = () =>
    [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const key = `posts/${hex()}.png`;
  const previewKey = `previews/${hex()}.png`;
  // Its copy 640 pixels wide, as the sender's browser makes it of a wider photo.
  const w640Key = `scaled/640/${hex()}.png`;
  for (const stored of [key, previewKey, w640Key])
    await env.MEDIA.put(stored, PNG, { httpMetadata: { contentType: "image/png" } });
  const row = await env.DB.prepare(
    "INSERT INTO media (user_id, purpose, kind, status, object_key, preview_key, w640_key, content_type, size_bytes, created_at) VALUES (?, 'post', 'image', 'ready', ?, ?, ?, 'image/png', 8, ?) RETURNING id",
  )
    .bind(userId, key, previewKey, w640Key, new Date().toISOString())
    .first<{ id: number }>();
  return { id: row!.id, key, previewKey, w640Key };
}

describe("who may write to whom", () => {
  it("a fan writes to a creator they follow or subscribe to, a creator to their fans, members once both follow", async () => {
    const creator = await makeCreator();
    const [follower, subscriber, stranger, friendA, friendB] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
    ];
    await follow(follower.user.userId, creator.user.userId);
    await subscribe(subscriber.user.userId, creator.user.userId);
    await follow(friendA.user.userId, friendB.user.userId);

    expect((await start(follower, creator)).status).toBe(200);
    expect((await start(subscriber, creator)).status).toBe(200);
    expect((await start(creator, follower)).status).toBe(200);
    // A stranger to the creator, and the creator to someone who does not follow them.
    const refused = await start(stranger, creator);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "You can message creators you follow or subscribe to, your own fans, and people who follow you back.",
    );
    expect((await start(creator, stranger)).status).toBe(403);
    // Members: one-way is not enough; both ways is.
    expect((await start(friendA, friendB)).status).toBe(403);
    expect((await start(friendB, friendA)).status).toBe(403);
    await follow(friendB.user.userId, friendA.user.userId);
    expect((await start(friendA, friendB)).status).toBe(200);
    // Nobody writes to themselves; an unknown username does not exist.
    expect((await start(follower, follower)).status).toBe(403);
    expect(
      (await postJson("/conversations", { username: "nobody_here_at_all" }, { token: follower.token })).status,
    ).toBe(404);
    expect(await countRows("conversations")).toBe(3);
  });

  it("a block either way stops every write at once, and the history stays readable", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(fan, creator);
    await sent(fan, conversation.id, { text: "before the block" });

    await block(creator.user.userId, fan.user.userId);
    const refused = await send(fan, conversation.id, { text: "after" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe("This profile is not available.");
    expect((await send(creator, conversation.id, { text: "after" })).status).toBe(403);
    expect((await start(fan, creator)).status).toBe(403);
    expect((await messagesOf(fan, conversation.id)).messages.map((m) => m.text)).toEqual(["before the block"]);
    expect(await countRows("messages")).toBe(1);

    // Unfollowing (no block) also stops the fan, not the history.
    await env.DB.prepare("DELETE FROM blocks").run();
    await env.DB.prepare("DELETE FROM follows WHERE follower_id = ?").bind(fan.user.userId).run();
    expect((await send(fan, conversation.id, { text: "unfollowed" })).status).toBe(403);
    const view = (await (
      await api(`/conversations/${conversation.id}`, { token: fan.token })
    ).json()) as ConversationView;
    expect(view.viewer).toEqual({ canWrite: false, canSetPrice: false });
  });

  it("requireConversationAccess: members read, only allowed pairs write, anyone else finds nothing", async () => {
    const creator = await makeCreator();
    const [fan, other] = [await createUser(), await createUser()];
    await follow(fan.user.userId, creator.user.userId);
    await follow(other.user.userId, creator.user.userId);
    const withFan = await conversationOf(fan, creator);
    const withOther = await conversationOf(other, creator);
    await env.DB.prepare("DELETE FROM follows WHERE follower_id = ?").bind(other.user.userId).run();
    const ids = [withFan.id, withOther.id, 999_999];
    const outcomes = (viewer: Viewer, action: ConversationAction) =>
      Promise.all(
        ids.map((id) =>
          requireConversationAccess(env.DB, viewer, id, action).then(
            () => "passes",
            (error: AppError) => error.code,
          ),
        ),
      );
    const asViewer = (member: Member): Viewer => ({ id: member.user.userId, role: "member" });
    const asCreator: Viewer = { id: creator.user.userId, role: "creator" };
    expect(await outcomes(asViewer(fan), "read")).toEqual(["passes", "not_found", "not_found"]);
    expect(await outcomes(asCreator, "read")).toEqual(["passes", "passes", "not_found"]);
    // The creator may still write to the fan who follows, not to the one who stopped.
    expect(await outcomes(asCreator, "write")).toEqual(["passes", "forbidden", "not_found"]);
    expect(await outcomes(asViewer(other), "write")).toEqual(["not_found", "forbidden", "not_found"]);
  });

  it("someone else's conversation does not exist for them: 404 on every endpoint and the socket", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    const outsider = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(fan, creator);
    const message = await sent(fan, conversation.id, { text: "private" });

    const id = conversation.id;
    expect((await api(`/conversations/${id}`, { token: outsider.token })).status).toBe(404);
    expect((await api(`/conversations/${id}/messages`, { token: outsider.token })).status).toBe(404);
    expect((await send(outsider, id, { text: "hi" })).status).toBe(404);
    expect((await postJson(`/conversations/${id}/read`, {}, { token: outsider.token })).status).toBe(404);
    expect((await api(`/conversations/${id}`, { method: "DELETE", token: outsider.token })).status).toBe(404);
    expect(
      (
        await postJson(
          `/messages/${message.id}/unlock`,
          { priceCents: 100, idempotencyKey: newKey() },
          { token: outsider.token },
        )
      ).status,
    ).toBe(404);
    const socket = await SELF.fetch(`https://app.test/ws/conversations/${id}`, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${outsider.token}` },
    });
    expect(socket.status).toBe(404);
    // Visitors are asked to sign in.
    expect((await api(`/conversations/${id}/messages`)).status).toBe(401);
    expect(await countRows("messages")).toBe(1);
  });
});

describe("sending and reading", () => {
  it("orders messages, lists conversations newest first with unread counts, and clears them on read", async () => {
    const creator = await makeCreator();
    const [fanA, fanB] = [await createUser(), await createUser()];
    await follow(fanA.user.userId, creator.user.userId);
    await follow(fanB.user.userId, creator.user.userId);
    const withA = await conversationOf(fanA, creator);
    const withB = await conversationOf(fanB, creator);
    // A started conversation without messages is not listed yet.
    expect((await listOf(creator)).conversations).toEqual([]);
    // Opening it catches up from the start: nothing yet, and no refusal.
    expect((await messagesOf(fanA, withA.id, "?after=0")).messages).toEqual([]);
    for (const after of ["-1", "01", "1.5", "x", ""])
      expect((await api(`/conversations/${withA.id}/messages?after=${after}`, { token: fanA.token })).status).toBe(422);

    await sent(fanA, withA.id, { text: "one" });
    await sent(fanA, withA.id, { text: "two\nlines" });
    await sent(fanB, withB.id, { text: "from B" });
    await sent(fanA, withA.id, { text: "three" });

    const page = await messagesOf(creator, withA.id);
    expect(page.messages.map((m) => [m.seq, m.text, m.senderId])).toEqual([
      [1, "one", fanA.user.userId],
      [2, "two\nlines", fanA.user.userId],
      [3, "three", fanA.user.userId],
    ]);
    expect((await messagesOf(creator, withA.id, "?after=1")).messages.map((m) => m.seq)).toEqual([2, 3]);
    // 0 is the position before the first message: catching up from the start (an empty thread asks so).
    expect((await messagesOf(creator, withA.id, "?after=0")).messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect((await messagesOf(creator, withA.id, "?before=3")).messages.map((m) => m.seq)).toEqual([1, 2]);

    const list = await listOf(creator);
    expect(list.conversations.map((c) => [c.other.username, c.unreadCount, c.lastMessage?.text])).toEqual([
      [fanA.user.username, 3, "three"],
      [fanB.user.username, 1, "from B"],
    ]);
    expect(await unreadBadge(creator)).toBe(4);
    expect(await unreadBadge(fanA)).toBe(0);

    expect(await (await postJson(`/conversations/${withA.id}/read`, {}, { token: creator.token })).json()).toEqual({
      lastReadSeq: 3,
    });
    expect(await unreadBadge(creator)).toBe(1);
    // The fan's side shows "Seen" up to the creator's read mark.
    expect(
      ((await (await api(`/conversations/${withA.id}`, { token: fanA.token })).json()) as ConversationView)
        .otherLastReadSeq,
    ).toBe(3);
  });

  it("a resend with the same client id stores one message; the id cannot be reused elsewhere", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    await follow(creator.user.userId, fan.user.userId);
    const conversation = await conversationOf(fan, creator);
    const clientId = newKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send(fan, conversation.id, { clientId, text: "once" })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { message: MessageView; replayed: boolean }[];
    expect(new Set(bodies.map((b) => b.message.id)).size).toBe(1);
    expect(bodies.filter((b) => !b.replayed)).toHaveLength(1);
    expect(await countRows("messages")).toBe(1);
    expect(await unreadBadge(creator)).toBe(1);

    const other = await makeCreator();
    await follow(fan.user.userId, other.user.userId);
    const elsewhere = await conversationOf(fan, other);
    expect((await send(fan, elsewhere.id, { clientId, text: "once" })).status).toBe(409);
    expect(await countRows("messages")).toBe(1);
    // A stale page posting its client id again with another text: refused, not taken for a resend of the first.
    expect((await send(fan, conversation.id, { clientId, text: "another message" })).status).toBe(409);
    expect(await countRows("messages")).toBe(1);
  });

  it("refuses bad messages with a translated 4xx and stores nothing", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(fan, creator);
    const someoneElses = await chatImage(creator.user.userId);
    const cases: [Member, Record<string, unknown>, number, string][] = [
      [fan, { text: "   " }, 422, "Write a message or attach a photo or video."],
      [fan, { text: "x".repeat(2001) }, 422, "A message is at most 2000 characters."],
      [fan, { text: "pay me", priceCents: 500 }, 422, "Only creators can put a price on a message."],
      [creator, { text: "no media", priceCents: 500 }, 422, "Only a message with a photo or video can have a price."],
      [
        fan,
        { text: "hi", mediaIds: [someoneElses.id] },
        422,
        "Attach finished photos or videos from your vault, each once.",
      ],
      [
        fan,
        { text: "a\u0000b" },
        422,
        "This text may not contain control characters; only line breaks and tabs are allowed.",
      ],
      [fan, { text: "hi", clientId: "short" }, 422, "Invalid value"],
    ];
    for (const [who, body, status, message] of cases) {
      const response = await send(who, conversation.id, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(((await response.json()) as { message: string }).message).toBe(message);
    }
    // In German too.
    const german = await postJson(
      `/conversations/${conversation.id}/messages?lng=de`,
      { clientId: newKey(), text: "" },
      { token: fan.token },
    );
    expect(((await german.json()) as { message: string }).message).not.toBe(
      "Write a message or attach a photo or video.",
    );
    expect(await countRows("messages")).toBe(0);
    expect((await api("/conversations/0/messages", { token: fan.token })).status).toBe(422);
  });

  it("removing a conversation hides it from one's own list until the next message", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(fan, creator);
    await sent(fan, conversation.id, { text: "hello" });
    expect((await api(`/conversations/${conversation.id}`, { method: "DELETE", token: creator.token })).status).toBe(
      204,
    );
    expect((await listOf(creator)).conversations).toEqual([]);
    expect(await unreadBadge(creator)).toBe(0);
    expect((await listOf(fan)).conversations).toHaveLength(1);
    await sent(fan, conversation.id, { text: "still there?" });
    expect((await listOf(creator)).conversations.map((c) => c.lastMessage?.text)).toEqual(["still there?"]);
  });
});

describe("paid messages", () => {
  it("charges the creator's per-message price for each message: 30 concurrent sends on a wallet for 10 store and charge 10", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await env.DB.prepare("UPDATE users SET message_price_cents = 200 WHERE id = ?").bind(creator.user.userId).run();
    await fundWallet(fan.user.userId, 2000);
    const conversation = await conversationOf(fan, creator);
    expect(conversation.messagePriceCents).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => send(fan, conversation.id, { text: `paid ${i}`, maxPaidCents: 200 })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(20);
    const refusal = (await answers.find((r) => r.status === 402)!.json()) as { message: string };
    expect(refusal.message).toBe("You need to fund your wallet!");
    expect(await countRows("messages")).toBe(10);
    expect(await walletOf(fan.user.userId)).toBe(0);
    const payments = await env.DB.prepare(
      "SELECT COUNT(*) AS n, SUM(amount_cents) AS total FROM payments WHERE user_id = ? AND kind = 'message'",
    )
      .bind(fan.user.userId)
      .first<{ n: number; total: number }>();
    expect(payments).toEqual({ n: 10, total: 2000 });
    expect((await messagesOf(creator, conversation.id)).messages.every((m) => m.paidCents === 200)).toBe(true);
    // The creator answers for free.
    await sent(creator, conversation.id, { text: "thanks!" });
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("a message sent from the offline outbox (maxPaidCents 0) is refused, not charged, once the creator has a price", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 1000);
    const conversation = await conversationOf(fan, creator);
    await env.DB.prepare("UPDATE users SET message_price_cents = 250 WHERE id = ?").bind(creator.user.userId).run();
    const refused = await send(fan, conversation.id, { text: "written offline", maxPaidCents: 0 });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Sending a message here now costs $2.50: it was not sent.",
    );
    expect(await countRows("messages")).toBe(0);
    expect(await walletOf(fan.user.userId)).toBe(1000);
    // Agreeing to the price sends it.
    expect((await send(fan, conversation.id, { text: "paid knowingly", maxPaidCents: 250 })).status).toBe(200);
    expect(await walletOf(fan.user.userId)).toBe(750);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("a resend of a paid message charges once", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await env.DB.prepare("UPDATE users SET message_price_cents = 300 WHERE id = ?").bind(creator.user.userId).run();
    await fundWallet(fan.user.userId, 1000);
    const conversation = await conversationOf(fan, creator);
    const clientId = newKey();
    const answers = await Promise.all(
      [1, 2, 3].map(() => send(fan, conversation.id, { clientId, text: "paid once", maxPaidCents: 300 })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await walletOf(fan.user.userId)).toBe(700);
    expect(await countRows("messages")).toBe(1);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });
});

describe("tips in a conversation", () => {
  const tip = (from: Member, conversationId: number, body: Record<string, unknown>) =>
    postJson(
      `/conversations/${conversationId}/tips`,
      { amountCents: 500, idempotencyKey: newKey(), ...body },
      { token: from.token },
    );

  it("a tip from the thread is one payment and one message with its note, on both sockets, charged once however often it is sent", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    // A per-message price is not charged on top of a tip.
    await env.DB.prepare("UPDATE users SET message_price_cents = 200 WHERE id = ?").bind(creator.user.userId).run();
    await fundWallet(fan.user.userId, 1000);
    const conversation = await conversationOf(fan, creator);
    const creatorSocket = await connect(creator, conversation.id);
    const idempotencyKey = newKey();

    const answers = await Promise.all(
      [1, 2, 3].map(() => tip(fan, conversation.id, { amountCents: 700, note: "For the sunrise set", idempotencyKey })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as {
      replayed: boolean;
      message: MessageView;
      payment: { amountCents: number; kind: string };
    }[];
    expect(bodies.filter((b) => !b.replayed)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.message.id)).size).toBe(1);
    expect(bodies[0]!.message).toMatchObject({
      senderId: fan.user.userId,
      text: "For the sunrise set",
      tipCents: 700,
      paidCents: 0,
    });
    expect(bodies[0]!.payment).toMatchObject({ amountCents: 700, kind: "tip" });
    expect(await walletOf(fan.user.userId)).toBe(300);
    expect(await countRows("messages")).toBe(1);

    // The creator's open thread gets it live, their list and badge show it, and they are notified of the tip.
    await until(() => creatorSocket.frames.length > 0, "the tip on the creator's socket");
    expect(creatorSocket.frames[0]).toMatchObject({
      type: "message",
      message: { tipCents: 700, text: "For the sunrise set" },
    });
    const [row] = (await listOf(creator)).conversations;
    expect(row!.lastMessage).toMatchObject({ fromMe: false, text: "For the sunrise set", tipCents: 700 });
    expect(row!.unreadCount).toBe(1);
    const notifications = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND kind = 'tip'",
    )
      .bind(creator.user.userId)
      .first<{ n: number }>();
    expect(notifications!.n).toBe(1);
    // A tip without a note is a message too; the wallet's limit holds.
    expect((await tip(fan, conversation.id, { amountCents: 300 })).status).toBe(200);
    const short = await tip(fan, conversation.id, { amountCents: 100 });
    expect(short.status).toBe(402);
    expect((await messagesOf(fan, conversation.id)).messages.map((m) => [m.text, m.tipCents])).toEqual([
      ["For the sunrise set", 700],
      ["", 300],
    ]);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("sent again after the pair blocked each other, answers the tip already made (its message too); the key for another amount is refused", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const stranger = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 1000);
    await fundWallet(stranger.user.userId, 1000);
    const conversation = await conversationOf(fan, creator);
    const idempotencyKey = newKey();
    const first = (await (
      await tip(fan, conversation.id, { amountCents: 400, note: "Before", idempotencyKey })
    ).json()) as { message: MessageView; payment: { id: number } };
    expect((await postJson(`/users/${fan.user.username}/block`, {}, { token: creator.token })).status).toBe(200);

    // The answer was lost on the way: the retry says what was charged instead of "you cannot message".
    const again = await tip(fan, conversation.id, { amountCents: 400, note: "Before", idempotencyKey });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      replayed: true,
      payment: { id: first.payment.id },
      message: { id: first.message.id, tipCents: 400 },
    });
    const otherAmount = await tip(fan, conversation.id, { amountCents: 500, note: "Before", idempotencyKey });
    expect(otherAmount.status).toBe(422);
    expect(((await otherAmount.json()) as { message: string }).message).toBe(
      "This request was already made with different details. Reload the page and try again.",
    );
    // A key is the payer's own: someone else's use of it is a request of theirs, checked as any other.
    expect((await tip(stranger, conversation.id, { amountCents: 400, note: "Before", idempotencyKey })).status).toBe(
      404,
    );
    expect(await walletOf(fan.user.userId)).toBe(600);
    expect(await walletOf(stranger.user.userId)).toBe(1000);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("is refused with a translated 4xx, moving nothing, to a non-creator, to a blocked pair, outside the conversation, and for bad amounts", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const stranger = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 5000);
    const conversation = await conversationOf(fan, creator);
    await fundWallet(creator.user.userId, 5000);

    const toFan = await tip(creator, conversation.id, {});
    expect(toFan.status).toBe(403);
    expect(((await toFan.json()) as { message: string }).message).toBe("Only creators can receive payments.");
    expect((await tip(stranger, conversation.id, {})).status).toBe(404);
    const tooMuch = await tip(fan, conversation.id, { amountCents: 1_000_000 });
    expect(tooMuch.status).toBe(422);
    expect(((await tooMuch.json()) as { errors: Record<string, string[]> }).errors.amountCents![0]).toBe(
      "A tip is between $1.00 and $200.00.",
    );
    expect((await tip(fan, conversation.id, { note: "x".repeat(501) })).status).toBe(422);
    expect((await tip(fan, conversation.id, { idempotencyKey: "no" })).status).toBe(422);
    await block(creator.user.userId, fan.user.userId);
    const blocked = await tip(fan, conversation.id, {});
    expect(blocked.status).toBe(403);

    expect(await countRows("messages")).toBe(0);
    expect(await walletOf(fan.user.userId)).toBe(5000);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });
});

describe("pay-per-view messages", () => {
  it("shows the recipient a blurred preview until bought; buying opens it once, forever, for them only", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const outsider = await createFan();
    await subscribe(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 2000);
    const conversation = await conversationOf(creator, fan);
    const image = await chatImage(creator.user.userId);
    const offer = await sent(creator, conversation.id, { text: "a treat", mediaIds: [image.id], priceCents: 500 });
    expect(offer).toMatchObject({ priceCents: 500, locked: false, purchased: false });
    expect(offer.media[0]!.url).toBe(`/media/${image.key}`);

    const [locked] = (await messagesOf(fan, conversation.id)).messages;
    expect(locked).toMatchObject({ text: "a treat", locked: true, purchased: false });
    expect(locked!.media).toEqual([
      {
        id: image.id,
        kind: "image",
        url: null,
        posterUrl: null,
        previewUrl: `/media/${image.previewKey}`,
        width: null,
        height: null,
        scaled: [],
        renditions: [],
        hlsUrl: null,
      },
    ]);
    expect(JSON.stringify(await messagesOf(fan, conversation.id))).not.toContain(image.key);
    expect(JSON.stringify(await messagesOf(fan, conversation.id))).not.toContain(image.w640Key);
    const [previewOfList] = (await listOf(fan)).conversations;
    expect(previewOfList!.lastMessage).toMatchObject({ locked: true, mediaKind: "image" });

    // /media checks every request: the file is 404 for the fan until bought and for anyone outside the pair.
    expect(await fetchMedia(image.key, fan.token)).toBe(404);
    expect(await fetchMedia(image.w640Key, fan.token)).toBe(404);
    expect(await fetchMedia(image.previewKey, fan.token)).toBe(200);
    expect(await fetchMedia(image.key, creator.token)).toBe(200);
    expect(await fetchMedia(image.key, outsider.token)).toBe(404);
    expect(await fetchMedia(image.previewKey, outsider.token)).toBe(404);
    expect(await fetchMedia(image.key)).toBe(404);

    // A price other than the one shown is refused; then the fan buys it.
    expect(
      (
        await postJson(
          `/messages/${offer.id}/unlock`,
          { priceCents: 400, idempotencyKey: newKey() },
          { token: fan.token },
        )
      ).status,
    ).toBe(409);
    const key = newKey();
    const bought = await postJson(
      `/messages/${offer.id}/unlock`,
      { priceCents: 500, idempotencyKey: key },
      { token: fan.token },
    );
    expect(bought.status).toBe(200);
    const { message: opened } = (await bought.json()) as { message: MessageView };
    expect(opened).toMatchObject({ locked: false, purchased: true });
    expect(opened.media[0]!.url).toBe(`/media/${image.key}`);
    expect(opened.media[0]!.scaled).toEqual([{ width: 640, url: `/media/${image.w640Key}` }]);
    expect(await fetchMedia(image.key, fan.token)).toBe(200);
    expect(await fetchMedia(image.w640Key, fan.token)).toBe(200);
    expect(await fetchMedia(image.w640Key, outsider.token)).toBe(404);
    expect(await fetchMedia(image.key, outsider.token)).toBe(404);

    // Twice: the same key replays, a new key is refused; either way one charge.
    const replay = await postJson(
      `/messages/${offer.id}/unlock`,
      { priceCents: 500, idempotencyKey: key },
      { token: fan.token },
    );
    expect(((await replay.json()) as { replayed: boolean }).replayed).toBe(true);
    const again = await postJson(
      `/messages/${offer.id}/unlock`,
      { priceCents: 500, idempotencyKey: newKey() },
      { token: fan.token },
    );
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe("You already unlocked this message.");
    expect(await walletOf(fan.user.userId)).toBe(1500);
    // The creator sees that it sold.
    expect((await messagesOf(creator, conversation.id)).messages[0]).toMatchObject({ purchased: true });
    // Nothing to buy in one's own message or a free one.
    expect(
      (
        await postJson(
          `/messages/${offer.id}/unlock`,
          { priceCents: 500, idempotencyKey: newKey() },
          { token: creator.token },
        )
      ).status,
    ).toBe(409);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("chat media lists the files of the conversation for its members only, locked ones as previews", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const outsider = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(creator, fan);
    const [free, paid] = [await chatImage(creator.user.userId), await chatImage(creator.user.userId)];
    await sent(creator, conversation.id, { text: "free", mediaIds: [free.id] });
    await sent(creator, conversation.id, { text: "no file" });
    await sent(creator, conversation.id, { mediaIds: [paid.id], priceCents: 250 });
    type Gallery = {
      items: { seq: number; locked: boolean; media: { url: string | null; previewUrl: string | null } }[];
    };
    const gallery = (await (
      await api(`/conversations/${conversation.id}/media`, { token: fan.token })
    ).json()) as Gallery;
    expect(gallery.items.map((item) => [item.seq, item.locked, item.media.url, item.media.previewUrl])).toEqual([
      [3, true, null, `/media/${paid.previewKey}`],
      [1, false, `/media/${free.key}`, `/media/${free.previewKey}`],
    ]);
    expect((await api(`/conversations/${conversation.id}/media`, { token: outsider.token })).status).toBe(404);
  });

  it("two concurrent unlocks with different keys charge once", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 3000);
    const conversation = await conversationOf(creator, fan);
    const image = await chatImage(creator.user.userId);
    const offer = await sent(creator, conversation.id, { mediaIds: [image.id], priceCents: 700 });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        postJson(`/messages/${offer.id}/unlock`, { priceCents: 700, idempotencyKey: newKey() }, { token: fan.token }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await walletOf(fan.user.userId)).toBe(2300);
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });
});

// ── The ChatRoom socket ──

interface Client {
  socket: WebSocket;
  frames: unknown[];
}

const sockets: WebSocket[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) {
    try {
      socket.close(1000, "test over");
    } catch {
      // already closed
    }
  }
});

async function connect(member: Member, conversationId: number, headers: Record<string, string> = {}): Promise<Client> {
  const response = await SELF.fetch(`https://app.test/ws/conversations/${conversationId}`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${member.token}`, ...headers },
  });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  const frames: unknown[] = [];
  socket.addEventListener("message", (event) => frames.push(JSON.parse(event.data as string)));
  socket.accept();
  sockets.push(socket);
  return { socket, frames };
}

describe("a conversation's page", () => {
  it("reads the access, the messages and their media in one round trip; a non-member gets 'not found'", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    const outsider = await createFan();
    await subscribe(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(creator, fan);
    const image = await chatImage(creator.user.userId);
    const offer = await sent(creator, conversation.id, { text: "a look", mediaIds: [image.id], priceCents: 300 });
    const hello = await sent(fan, conversation.id, { text: "hello" });
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;

    const { database, calls } = counted(env.DB);
    const db = database;
    // What the thread's page reads: the access, the conversation, the page and its media, in one batch.
    const { conversation: view, firstPage: page } = await getThread(
      { db, t: translatorFor("en") },
      fanRow,
      conversation.id,
    );
    expect(calls).toMatchObject({ single: 0, batches: 1, batchSizes: [4] });
    expect(view.id).toBe(conversation.id);
    expect(page.messages.map((message) => message.id)).toEqual([offer.id, hello.id]);
    // Each as reading it alone gives: the pay-per-view file is its preview for the fan.
    for (const message of page.messages)
      expect(message).toEqual(await presentMessageById(env.DB, fan.user.userId, message.id));
    expect(page.messages[0]).toMatchObject({
      locked: true,
      media: [{ url: null, previewUrl: `/media/${image.previewKey}` }],
    });
    const media = await listChatMedia({ db }, fanRow, conversation.id, undefined);
    expect(media.items).toMatchObject([{ messageId: offer.id, locked: true, media: { url: null } }]);

    const outsiderRow = (await findUserById(env.DB, outsider.user.userId))!;
    await expect(listMessages({ db }, outsiderRow, conversation.id, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(getConversation({ db, t: translatorFor("en") }, outsiderRow, conversation.id)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(listChatMedia({ db }, outsiderRow, conversation.id, undefined)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getThread({ db, t: translatorFor("en") }, outsiderRow, conversation.id)).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("what a paid message, a tip in a conversation and a message bought read after paying", () => {
  it("nothing: the message comes back from the payment's batch, the same as reading it; a replay reads it", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await env.DB.prepare("UPDATE users SET message_price_cents = 150 WHERE id = ?").bind(creator.user.userId).run();
    await fundWallet(fan.user.userId, 5000);
    const conversation = await conversationOf(fan, creator);
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const { database, calls } = counted(env.DB);
    const ctx = { ...testContext(), db: database };

    const paid = await sendMessage(
      ctx,
      fanRow,
      conversation.id,
      SendMessageSchema.parse({
        clientId: newKey(),
        text: "paid hello",
        mediaIds: [],
        priceCents: 0,
        maxPaidCents: 150,
      }),
    );
    // The access check, then the payment's batch (which stores the message): nothing read after it.
    expect(calls).toMatchObject({ single: 1, batches: 1 });
    expect(paid.message).toMatchObject({ text: "paid hello", paidCents: 150 });
    expect(paid.message).toEqual(await presentMessageById(env.DB, fan.user.userId, paid.message.id));

    const input = { amountCents: 400, note: "For the sunrise set", idempotencyKey: newKey() };
    calls.single = 0;
    calls.batches = 0;
    const tipped = await sendTip(ctx, fanRow, { conversationId: conversation.id }, input);
    // The replay lookup with the access check, then the payment's batch: nothing read after it.
    expect(calls).toMatchObject({ single: 0, batches: 2 });
    expect(tipped.message).toMatchObject({ text: "For the sunrise set", tipCents: 400 });
    expect(tipped.message).toEqual(await presentMessageById(env.DB, fan.user.userId, tipped.message!.id));
    const sentEvents = ctx.published.filter((event) => event.type === "MessageSent");
    expect(sentEvents.map((event) => event.stored?.row.id)).toEqual([paid.message.id, tipped.message!.id]);

    const replay = await sendTip(ctx, fanRow, { conversationId: conversation.id }, input);
    expect(replay).toMatchObject({ replayed: true, message: tipped.message });
    expect(calls.batches).toBe(3);

    // A pay-per-view message bought: the message as the buyer now sees it (its file open) comes in the same batch.
    const image = await chatImage(creator.user.userId);
    const offer = await sent(creator, conversation.id, { text: "a look", mediaIds: [image.id], priceCents: 300 });
    calls.single = 0;
    calls.batches = 0;
    const bought = await unlockMessage(ctx, fanRow, offer.id, { priceCents: 300, idempotencyKey: newKey() });
    // The message's price, the conversation's access, then the payment's batch: nothing read after it.
    expect(calls).toMatchObject({ single: 2, batches: 1 });
    expect(bought.message).toMatchObject({ locked: false, purchased: true, media: [{ url: `/media/${image.key}` }] });
    expect(bought.message).toEqual(await presentMessageById(env.DB, fan.user.userId, offer.id));
    expect(await auditLedger(env.DB)).toEqual(BALANCED);
  });

  it("a message its buyer's wallet cannot cover is refused by the commit, and nothing is bought", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    await fundWallet(fan.user.userId, 200);
    const conversation = await conversationOf(fan, creator);
    const offer = await sent(creator, conversation.id, {
      text: "a look",
      mediaIds: [(await chatImage(creator.user.userId)).id],
      priceCents: 300,
    });
    const fanRow = (await findUserById(env.DB, fan.user.userId))!;
    const { database } = counted(env.DB);
    const ctx = { ...testContext(), db: database };
    await expect(
      unlockMessage(ctx, fanRow, offer.id, { priceCents: 300, idempotencyKey: newKey() }),
    ).rejects.toMatchObject({ code: "payment_required" });
    expect((await balancesOf(env.DB, fan.user.userId)).wallet).toBe(200);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM message_purchases WHERE message_id = ?")
        .bind(offer.id)
        .first("n"),
    ).toBe(0);
  });
});

describe("the delivery of a sent message", () => {
  it("presents what the command stored to each member under their policy, reading nothing from D1", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await subscribe(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(creator, fan);
    const image = await chatImage(creator.user.userId);
    const ctx = testContext();
    const creatorRow = (await findUserById(env.DB, creator.user.userId))!;
    const input = SendMessageSchema.parse({
      clientId: newKey(),
      text: "for you",
      mediaIds: [image.id],
      priceCents: 300,
    });
    const { message } = await sendMessage(ctx, creatorRow, conversation.id, input);
    const [event] = ctx.published;
    expect(event).toMatchObject({
      type: "MessageSent",
      messageId: message.id,
      senderId: creator.user.userId,
      recipientId: fan.user.userId,
    });

    const delivered: { userId: number; frame: { type: string; message: MessageView } }[] = [];
    const rooms = {
      idFromName: (name: string) => name,
      get: () => ({ deliver: async (items: typeof delivered) => (delivered.push(...items), items.length) }),
    };
    const noDatabase = new Proxy(env.DB, {
      get: () => () => {
        throw new Error("the delivery read D1");
      },
    });
    await deliverToSockets({ ...env, DB: noDatabase, CHAT_ROOM: rooms } as unknown as typeof env, event!);
    const framed = new Map(delivered.map(({ userId, frame }) => [userId, frame]));
    expect(framed.size).toBe(2);
    // Each member's frame is exactly what reading the message as them gives: the preview for the fan, the file for its sender.
    for (const member of [creator, fan]) {
      expect(framed.get(member.user.userId)).toEqual({
        type: "message",
        message: await presentMessageById(env.DB, member.user.userId, message.id),
      });
    }
    expect(framed.get(fan.user.userId)!.message).toMatchObject({
      locked: true,
      media: [{ url: null, previewUrl: `/media/${image.previewKey}` }],
    });
    expect(framed.get(creator.user.userId)!.message).toMatchObject({
      locked: false,
      media: [{ url: `/media/${image.key}` }],
    });
  });
});

describe("GET /ws/conversations/{id}", () => {
  it("delivers each member their view of a new message, relays typing to the other member, and tells who read what", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(creator, fan);
    const creatorSocket = await connect(creator, conversation.id);
    const fanSocket = await connect(fan, conversation.id);

    const image = await chatImage(creator.user.userId);
    const offer = await sent(creator, conversation.id, { text: "look", mediaIds: [image.id], priceCents: 300 });
    await until(() => fanSocket.frames.length > 0 && creatorSocket.frames.length > 0, "the message on both sockets");
    const [toFan] = fanSocket.frames as { type: string; message: MessageView }[];
    const [toCreator] = creatorSocket.frames as { type: string; message: MessageView }[];
    expect(toFan!.type).toBe("message");
    expect(toFan!.message).toMatchObject({ id: offer.id, locked: true });
    expect(toFan!.message.media[0]!.url).toBeNull();
    expect(toCreator!.message).toMatchObject({ id: offer.id, locked: false });
    expect(toCreator!.message.media[0]!.url).toBe(`/media/${image.key}`);

    fanSocket.socket.send(JSON.stringify({ type: "typing" }));
    await until(() => creatorSocket.frames.length === 2, "typing at the creator");
    expect(creatorSocket.frames[1]).toEqual({ type: "typing", userId: fan.user.userId });
    // Junk is ignored, and typing never echoes to the typist.
    fanSocket.socket.send("not json");
    fanSocket.socket.send(JSON.stringify({ type: "message", text: "forged" }));

    await postJson(`/conversations/${conversation.id}/read`, {}, { token: fan.token });
    await until(() => creatorSocket.frames.length === 3, "the read mark at the creator");
    expect(creatorSocket.frames[2]).toEqual({ type: "read", userId: fan.user.userId, seq: 1 });
    expect(fanSocket.frames.filter((f) => (f as { type: string }).type === "typing")).toEqual([]);
    expect(await countRows("messages")).toBe(1);
  });

  it("a dead socket and one that never reads do not hold up the room: a live tab gets every message, in order", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(creator, fan);
    const fanId = fan.user.userId;
    const [low, high] = [creator.user.userId, fanId].sort((a, b) => a - b) as [number, number];
    const room = chatRoomStub(env, low, high);
    // Before the fan's live tab joins, the room holds two other sockets of the fan: one whose far end never reads
    // (its frames pile up), and one that died (closed under the room, so sending to it throws).
    await runInDurableObject(room, async (_instance: ChatRoom, state) => {
      const silent = new WebSocketPair();
      const dead = new WebSocketPair();
      state.acceptWebSocket(silent[1], [`user:${fanId}`]);
      state.acceptWebSocket(dead[1], [`user:${fanId}`]);
      dead[1].close(1000, "gone");
    });
    const live = await connect(fan, conversation.id);

    const texts = Array.from({ length: 40 }, (_, i) => `message ${i + 1}`);
    for (const text of texts) await sent(creator, conversation.id, { text });
    await until(() => live.frames.length === texts.length, "every message on the live socket");
    expect(live.frames.map((f) => (f as { message: MessageView }).message.text)).toEqual(texts);
    // One more delivery straight to the room: it reaches the live and the silent socket, and skips the dead one.
    const reached = await room.deliver([{ userId: fanId, frame: { type: "typing", userId: creator.user.userId } }]);
    expect(reached).toBe(2);
  });

  it("refuses visitors, other origins and malformed ids", async () => {
    const creator = await makeCreator();
    const fan = await createUser();
    await follow(fan.user.userId, creator.user.userId);
    const conversation = await conversationOf(fan, creator);
    const url = `https://app.test/ws/conversations/${conversation.id}`;
    expect((await SELF.fetch(url, { headers: { Upgrade: "websocket" } })).status).toBe(401);
    expect(
      (
        await SELF.fetch(url, {
          headers: { Upgrade: "websocket", Authorization: `Bearer ${fan.token}`, Origin: "https://evil.test" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await SELF.fetch("https://app.test/ws/conversations/07", {
          headers: { Upgrade: "websocket", Authorization: `Bearer ${fan.token}` },
        })
      ).status,
    ).toBe(422);
    expect((await SELF.fetch(url, { headers: { Authorization: `Bearer ${fan.token}` } })).status).toBe(426);
  });
});
