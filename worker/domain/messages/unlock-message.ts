import type { UnlockMessageInput } from "@shared/contracts/message-bodies";
import type { MessageView } from "@shared/contracts/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { findPaymentByKey, payFromWallet, presentPayment, type PaymentView } from "../money/payments";
import { clientKey } from "../money/rules";
import { NOT_A_CREATOR } from "../money/send-tip";
import { CONVERSATION_NOT_FOUND, requireConversationAccess, MESSAGING_BLOCKED } from "../policies/conversations";
import { AppError, PriceChangedError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import {
  MESSAGE_COLUMNS,
  messageMediaSql,
  presentMessageById,
  presentMessagesWith,
  type ChatMediaRow,
  type MessageRow,
} from "./present-messages";

const MESSAGE_NOT_FOR_SALE = message("This message is not for sale.");
const MESSAGE_ALREADY_UNLOCKED = message("You already unlocked this message.");

/**
 * Buys a pay-per-view message: the recipient's wallet pays its price and a message_purchases row (primary key:
 * message and buyer) opens its media, in one batch, so it is bought once, forever, and never opened unpaid.
 */
export async function unlockMessage(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  fan: UserRow,
  messageId: number,
  input: UnlockMessageInput,
): Promise<{ message: MessageView; payment: PaymentView; replayed: boolean }> {
  const { db } = ctx;
  const row = await db
    .prepare(
      `SELECT m.conversation_id, m.sender_id, m.price_cents, u.role AS sender_role,
              EXISTS (SELECT 1 FROM message_purchases mp WHERE mp.message_id = m.id AND mp.user_id = ?2) AS bought
       FROM messages m JOIN users u ON u.id = m.sender_id WHERE m.id = ?1`,
    )
    .bind(messageId, fan.id)
    .first<{ conversation_id: number; sender_id: number; price_cents: number; sender_role: string; bought: number }>();
  if (!row) throw new AppError("not_found", CONVERSATION_NOT_FOUND);
  const access = await requireConversationAccess(db, fan, row.conversation_id, "read");
  const key = clientKey(input.idempotencyKey);
  if (row.bought === 1) {
    const replay = await findPaymentByKey(db, fan.id, key);
    if (replay && replay.kind === "message")
      return {
        message: (await presentMessageById(db, fan.id, messageId))!,
        payment: presentPayment(replay),
        replayed: true,
      };
    throw new AppError("conflict", MESSAGE_ALREADY_UNLOCKED);
  }
  if (row.price_cents === 0 || row.sender_id === fan.id) throw new AppError("conflict", MESSAGE_NOT_FOR_SALE);
  if (access.facts.blocked || access.facts.otherSuspended) throw new AppError("forbidden", MESSAGING_BLOCKED);
  if (row.sender_role !== "creator") throw new AppError("forbidden", NOT_A_CREATOR);
  if (row.price_cents !== input.priceCents) throw new PriceChangedError(row.price_cents);
  const outcome = await payFromWallet(db, {
    payer: fan,
    creatorId: row.sender_id,
    kind: "message",
    amountCents: row.price_cents,
    idempotencyKey: key,
    request: { messageId },
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
    // The message as the buyer now sees it (bought, its media open) is read in the same batch, after the purchase.
    effects: () => [
      db
        .prepare("INSERT INTO message_purchases (message_id, user_id, price_cents, created_at) VALUES (?, ?, ?, ?)")
        .bind(messageId, fan.id, row.price_cents, isoNow()),
      db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = ?`).bind(messageId),
      db.prepare(messageMediaSql("?1")).bind(messageId),
    ],
    refusal: (error) =>
      String(error).includes("message_purchases") ? new AppError("conflict", MESSAGE_ALREADY_UNLOCKED) : null,
  });
  if (!outcome.replayed) {
    ctx.publish({
      type: "MessageUnlocked",
      conversationId: row.conversation_id,
      messageId,
      buyerId: fan.id,
      senderId: row.sender_id,
      userLow: access.userLow,
      userHigh: access.userHigh,
    });
  }
  const message = outcome.replayed
    ? (await presentMessageById(db, fan.id, messageId))!
    : presentMessagesWith(
        outcome.effects[1]!.results as MessageRow[],
        outcome.effects[2]!.results as ChatMediaRow[],
        fan.id,
      )[0]!;
  return { message, payment: presentPayment(outcome.payment), replayed: outcome.replayed };
}
