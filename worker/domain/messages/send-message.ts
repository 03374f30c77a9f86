import type { MessageView } from "@shared/contracts/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { payFromWallet } from "../money/payments";
import { clientKey, IDEMPOTENCY_KEY_REUSED } from "../money/rules";
import { requireConversationAccess, writeRefusalOf } from "../policies/conversations";
import { AppError, fieldError, PriceChangedError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import type { SendMessageInput } from "@shared/contracts/message-bodies";
import { MAX_MESSAGE_LENGTH } from "@shared/contracts/message-limits";
import { deviceIdsOf, devicesWantingStatement } from "../push/settings";
import { pushIsOn } from "../push/devices";
import { messagePriceFor } from "./conversations";
import { MESSAGE_COLUMNS, presentMessages, presentStored, storedMessage, type MessageRow } from "./present-messages";

const MIN_MESSAGE_PRICE_CENTS = 100;
const MAX_MESSAGE_PRICE_CENTS = 20_000;

const EMPTY_MESSAGE = message("Write a message or attach a photo or video.");
const MESSAGE_TOO_LONG = message("A message is at most {{max}} characters.");
const PRICE_NEEDS_MEDIA = message("Only a message with a photo or video can have a price.");
const ONLY_CREATORS_SET_PRICES = message("Only creators can put a price on a message.");
const MESSAGE_PRICE_RANGE = message("A message's price is between {{min}} and {{max}}.");
const MEDIA_NOT_SENDABLE = message("Attach finished photos or videos from your vault, each once.");
const MESSAGE_NOW_COSTS = message("Sending a message here now costs {{price, money}}: it was not sent.");

/** A message as stored, for one sender and client id (a replay's answer). */
const findByClientId = (db: D1Database, senderId: number, clientId: string) =>
  db
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.sender_id = ? AND m.client_id = ?`)
    .bind(senderId, clientId)
    .first<MessageRow>();

/** The checks of what is sent that need no database; the text comes back trimmed. */
export function checkMessageInput(input: SendMessageInput, sender: Pick<UserRow, "role">): { text: string } {
  const text = input.text.trim();
  if (text === "" && input.mediaIds.length === 0) throw fieldError("text", EMPTY_MESSAGE);
  if (text.length > MAX_MESSAGE_LENGTH) throw fieldError("text", MESSAGE_TOO_LONG, { max: MAX_MESSAGE_LENGTH });
  if (new Set(input.mediaIds).size !== input.mediaIds.length) throw fieldError("mediaIds", MEDIA_NOT_SENDABLE);
  if (input.priceCents > 0) {
    if (sender.role !== "creator") throw fieldError("priceCents", ONLY_CREATORS_SET_PRICES);
    if (input.mediaIds.length === 0) throw fieldError("priceCents", PRICE_NEEDS_MEDIA);
    if (input.priceCents < MIN_MESSAGE_PRICE_CENTS || input.priceCents > MAX_MESSAGE_PRICE_CENTS) {
      throw fieldError("priceCents", MESSAGE_PRICE_RANGE, { min: "$1.00", max: "$200.00" });
    }
  }
  return { text };
}

/** The statements that store one message and its effects on the conversation, for one batch. */
export function messageStatements(
  db: D1Database,
  message: {
    conversationId: number;
    senderId: number;
    recipientId: number;
    clientId: string;
    text: string;
    priceCents: number;
    paidCents: number;
    /** A tip sent from the conversation: the amount the message carries (0: none). */
    tipCents?: number;
    mediaIds: number[];
    massMessageId?: number | null;
    /** One file sent to many (a welcome message's): it may already be in other messages. */
    sharesMedia?: boolean;
    at: string;
  },
): D1PreparedStatement[] {
  const { conversationId: c, senderId, recipientId, clientId, at } = message;
  const idOfNew = "(SELECT id FROM messages WHERE sender_id = ?1 AND client_id = ?2)";
  const statements = [
    db
      .prepare(
        `INSERT INTO messages (conversation_id, seq, sender_id, client_id, text, price_cents, paid_cents, tip_cents, media_count, mass_message_id, created_at)
         VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         RETURNING id, conversation_id, seq, sender_id, client_id, text, price_cents, paid_cents, tip_cents, media_count, created_at`,
      )
      .bind(
        c,
        senderId,
        clientId,
        message.text,
        message.priceCents,
        message.paidCents,
        message.tipCents ?? 0,
        message.mediaIds.length,
        message.massMessageId ?? null,
        at,
      ),
    db
      .prepare(`UPDATE conversations SET last_message_id = ${idOfNew}, last_message_at = ?3 WHERE id = ?4`)
      .bind(senderId, clientId, at, c),
    db
      .prepare(
        `UPDATE conversation_members SET activity_at = ?3, hidden_at = NULL,
                unread_count = unread_count + (user_id = ?5),
                last_read_seq = CASE WHEN user_id = ?1 THEN (SELECT seq FROM messages WHERE sender_id = ?1 AND client_id = ?2) ELSE last_read_seq END
         WHERE conversation_id = ?4`,
      )
      .bind(senderId, clientId, at, c, recipientId),
  ];
  if (message.mediaIds.length > 0) {
    // The same guard as the check before the batch: finished vault files of the sender, used elsewhere or not (a
    // file is stored once and used many times: docs/decisions/vault.md).
    statements.push(
      db
        .prepare(
          `INSERT INTO message_media (message_id, media_id, position)
           SELECT ${idOfNew}, media.id, wanted.key FROM (SELECT key, value FROM json_each(?3)) AS wanted
           JOIN media ON media.id = wanted.value
           WHERE ${SENDABLE_SQL}`,
        )
        .bind(senderId, clientId, JSON.stringify(message.mediaIds)),
    );
  }
  return statements;
}

/** A vault file of the sender (?1) that a message may take: finished (a chat shows it at once). */
const SENDABLE_SQL = "media.user_id = ?1 AND media.purpose = 'post' AND media.status = 'ready'";

/**
 * The friendly check before writing: each id names a finished vault file of the sender, once (a message, a mass
 * message and a welcome message take any, already used or not).
 */
export async function assertSendable(db: D1Database, senderId: number, mediaIds: number[]) {
  if (mediaIds.length === 0) return;
  if (new Set(mediaIds).size !== mediaIds.length) throw fieldError("mediaIds", MEDIA_NOT_SENDABLE);
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM media WHERE id IN (SELECT value FROM json_each(?2)) AND ${SENDABLE_SQL}`)
    .bind(senderId, JSON.stringify(mediaIds))
    .first<{ n: number }>();
  if (row!.n !== mediaIds.length) throw fieldError("mediaIds", MEDIA_NOT_SENDABLE);
}

const isUniqueClientId = (error: unknown) =>
  /UNIQUE constraint failed: messages\.sender_id, messages\.client_id/.test(String(error));

/**
 * Sends a message. The conversation must exist for the sender and the pair rule must allow writing
 * (policies/conversations.ts). A fan writing to a creator with a per-message price pays it from the wallet in the
 * same batch that stores the message, so a message is stored exactly when it is paid: thirty concurrent sends
 * against a wallet that covers ten store and charge ten. The client's id makes the send idempotent: a resend
 * answers with the stored message and charges nothing. The common case (a free text) is two round trips here: the
 * access check and the batch (whose INSERT returns the row, a paid one's too; a message with media reads them once
 * more); a resend
 * is found when the client id's unique key refuses the batch. The MessageSent event carries the stored message, so
 * the chat's delivery reads none of it again.
 */
export async function sendMessage(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  sender: UserRow,
  conversationId: number,
  input: SendMessageInput,
): Promise<{ message: MessageView; replayed: boolean }> {
  const { db } = ctx;
  const access = await requireConversationAccess(db, sender, conversationId, "read");
  const replay = async () => {
    const stored = await findByClientId(db, sender.id, input.clientId);
    if (!stored) return null;
    // A client id is one message: the same id with another conversation or text is a stale page's, not a resend.
    if (stored.conversation_id !== conversationId || stored.text !== input.text.trim()) {
      throw new AppError("conflict", IDEMPOTENCY_KEY_REUSED);
    }
    return { message: (await presentMessages(db, sender.id, [stored]))[0]!, replayed: true };
  };
  const refusal = writeRefusalOf(access.facts);
  if (refusal) {
    // A resend of a message stored before the pair stopped writing still answers with it.
    const earlier = await replay();
    if (earlier) return earlier;
    throw new AppError("forbidden", refusal);
  }
  const { text } = checkMessageInput(input, sender);
  await assertSendable(db, sender.id, input.mediaIds);
  const priceToSend = messagePriceFor(sender.role, {
    role: access.facts.otherRole,
    message_price_cents: access.otherMessagePriceCents,
  });
  if (priceToSend > (input.maxPaidCents ?? 0)) {
    // A resend of a message paid before the price rose answers with it; anything else is not sent.
    const earlier = await replay();
    if (earlier) return earlier;
    throw new PriceChangedError(priceToSend, MESSAGE_NOW_COSTS);
  }
  const statements = messageStatements(db, {
    conversationId,
    senderId: sender.id,
    recipientId: access.otherId,
    clientId: input.clientId,
    text,
    priceCents: input.priceCents,
    paidCents: priceToSend,
    mediaIds: input.mediaIds,
    at: isoNow(),
  });
  // The recipient's devices that want the message pushed, read last in the same batch (push on only): the push
  // adapter then needs no round trip of its own.
  const devices = pushIsOn(ctx.config) ? devicesWantingStatement(db, [access.otherId], "messages") : null;
  const batch = devices ? [...statements, devices] : statements;
  let stored: MessageRow | null;
  let deviceIds: number[] | undefined;
  try {
    if (priceToSend > 0) {
      const outcome = await payFromWallet(db, {
        payer: sender,
        creatorId: access.otherId,
        kind: "message",
        amountCents: priceToSend,
        idempotencyKey: clientKey(`message-${input.clientId}`),
        request: { conversationId },
        feePercent: ctx.config.PLATFORM_FEE_PERCENT,
        effects: () => batch,
        refusal: (error) => (isUniqueClientId(error) ? new AppError("conflict", IDEMPOTENCY_KEY_REUSED) : null),
      });
      if (outcome.replayed) return (await replay())!;
      if (devices) deviceIds = deviceIdsOf(outcome.effects.at(-1)!);
      stored = { ...(outcome.effects[0]!.results[0] as MessageRow), bought: 0 };
    } else {
      const results = await db.batch(batch);
      stored = { ...(results[0]!.results[0] as MessageRow), bought: 0 };
      if (devices) deviceIds = deviceIdsOf(results.at(-1)!);
    }
  } catch (error) {
    // A resend (or one racing its first attempt): the client id's unique key refused it, the first one answers.
    const raced = await replay();
    if (raced) return raced;
    throw error;
  }
  const sent = await storedMessage(db, stored!);
  const pushJobs = deviceIds?.map((subscriptionId) => ({
    subscriptionId,
    topic: { type: "message" as const, messageId: sent.row.id },
  }));
  ctx.publish({
    type: "MessageSent",
    conversationId,
    messageId: sent.row.id,
    senderId: sender.id,
    recipientId: access.otherId,
    userLow: access.userLow,
    userHigh: access.userHigh,
    stored: sent,
    ...(pushJobs ? { pushJobs } : {}),
  });
  return { message: presentStored(sent, sender.id), replayed: false };
}
