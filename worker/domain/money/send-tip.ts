import type { MessageView } from "@shared/contracts/messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { messageStatements } from "../messages/send-message";
import {
  MESSAGE_COLUMNS,
  presentMessages,
  presentStored,
  storedMessage,
  type MessageRow,
} from "../messages/present-messages";
import { conversationAccessCheck, type ConversationAccess } from "../policies/conversations";
import { postAccessCheck } from "../policies/posts";
import { notificationStatements } from "../notifications/notifications";
import { counterpartRead } from "../profiles/find-member";
import { AppError, fieldError } from "../shared/errors";
import { sha256Hex } from "../shared/crypto";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import type { TipInput } from "@shared/contracts/money-bodies";
import {
  paymentByKeyRead,
  payFromWallet,
  presentPayment,
  replayedFrom,
  type PaymentRow,
  type PaymentView,
} from "./payments";
import type { Read } from "../shared/reads";
import { clientKey, IDEMPOTENCY_KEY_REUSED, MAX_TIP_CENTS, MIN_TIP_CENTS, TIP_AMOUNT_RANGE } from "./rules";

/** The values TIP_AMOUNT_RANGE needs. */
export const tipRangeVars = { min: MIN_TIP_CENTS, max: MAX_TIP_CENTS };

const CANNOT_TIP_SELF = message("You cannot tip yourself.");
export const NOT_A_CREATOR = message("Only creators can receive payments.");

export type TipTarget = { postId: number } | { username: string } | { conversationId: number };

/** The client id of the message a conversation tip writes: derived from the tip's key, so a replay finds it. */
const tipMessageClientId = async (idempotencyKey: string) => `tip-${(await sha256Hex(idempotencyKey)).slice(0, 40)}`;

/**
 * A tip on a post, on a profile or in a conversation: the fan's wallet pays the creator (minus the platform's
 * fee), and the creator is notified with the amount, in the same batch. The post must exist for the fan (a tip
 * does not need it unlocked); neither may block the other. A tip in a conversation is also a message (its note
 * the text, the amount on it) stored in that batch, so the thread shows it exactly when it is paid; the pair must
 * be allowed to write, and it costs no per-message price on top.
 */
export async function sendTip(
  ctx: Pick<DomainContext, "db" | "publish" | "config">,
  fan: UserRow,
  target: TipTarget,
  input: TipInput,
): Promise<{ payment: PaymentView; replayed: boolean; message?: MessageView }> {
  const { db } = ctx;
  // The replay lookup and the access check, in one batch. A replay answers even when the check would now refuse.
  const replay = paymentByKeyRead(db, fan.id, clientKey(input.idempotencyKey));
  const check = tipTargetCheck(db, fan, target);
  const [found, checked] = await db.batch([replay.statement, check.statement]);
  const earlier = await earlierTip(db, fan, target, input, replay.answer(found!));
  if (earlier) return earlier;
  const { creatorId, postId, conversation } = check.answer(checked!);
  if (input.amountCents < MIN_TIP_CENTS || input.amountCents > MAX_TIP_CENTS)
    throw fieldError("amountCents", TIP_AMOUNT_RANGE, tipRangeVars);
  const note = input.note ? input.note : null;
  const messageClientId = conversation ? await tipMessageClientId(input.idempotencyKey) : null;
  const notification = notificationStatements(ctx, {
    userId: creatorId,
    kind: "tip",
    actorId: fan.id,
    // A tip in a conversation: its push opens the thread, where the tip and its note are.
    params: {
      amountCents: input.amountCents,
      ...(postId ? { postId } : {}),
      ...(conversation ? { conversationId: conversation.id } : {}),
    },
  });
  const outcome = await payFromWallet(db, {
    payer: fan,
    creatorId,
    kind: "tip",
    amountCents: input.amountCents,
    idempotencyKey: clientKey(input.idempotencyKey),
    request: { postId, note, ...(conversation ? { conversationId: conversation.id } : {}) },
    postId,
    note,
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
    effects: () => [
      ...notification.statements,
      ...(conversation
        ? messageStatements(db, {
            conversationId: conversation.id,
            senderId: fan.id,
            recipientId: creatorId,
            clientId: messageClientId!,
            text: note ?? "",
            priceCents: 0,
            paidCents: 0,
            tipCents: input.amountCents,
            mediaIds: [],
            at: isoNow(),
          })
        : []),
    ],
  });
  const result = { payment: presentPayment(outcome.payment), replayed: outcome.replayed };
  if (!conversation) {
    if (!outcome.replayed) ctx.publish(notification.created(outcome.effects));
    return result;
  }
  // The message the batch stored comes back from its INSERT (the first effect after the notification's); a replay
  // reads the one its first request stored. A tip's message has no media, so storedMessage reads nothing more.
  const row = outcome.replayed
    ? await db
        .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.sender_id = ? AND m.client_id = ?`)
        .bind(fan.id, messageClientId)
        .first<MessageRow>()
    : { ...(outcome.effects[notification.statements.length]!.results[0] as MessageRow), bought: 0 };
  const stored = await storedMessage(db, row!);
  if (!outcome.replayed) {
    ctx.publish(notification.created(outcome.effects));
    const { id: conversationId, userLow, userHigh } = conversation;
    // One action, one push: the tip's notification tells the creator (its push opens this thread); the message
    // it also is pushes nothing of its own, or the phone would show the same tip twice.
    ctx.publish({
      type: "MessageSent",
      conversationId,
      messageId: row!.id,
      senderId: fan.id,
      recipientId: creatorId,
      userLow,
      userHigh,
      stored,
      pushJobs: [],
    });
  }
  return { ...result, message: presentStored(stored, fan.id) };
}

type TipOutcome = Awaited<ReturnType<typeof sendTip>>;

/** Who a tip on `target` pays, if the fan may tip there: one statement, and the rule over its answer. */
function tipTargetCheck(
  db: D1Database,
  fan: UserRow,
  target: TipTarget,
): Read<{ creatorId: number; postId: number | null; conversation: ConversationAccess | null }> {
  if ("conversationId" in target) {
    const { statement, answer } = conversationAccessCheck(db, fan, target.conversationId, "write");
    return {
      statement,
      answer(result) {
        const conversation = answer(result);
        if (conversation.facts.otherRole !== "creator") throw new AppError("forbidden", NOT_A_CREATOR);
        return { creatorId: conversation.otherId, postId: null, conversation };
      },
    };
  }
  if ("postId" in target) {
    const { statement, answer } = postAccessCheck(db, target.postId, fan.id, "see");
    return {
      statement,
      answer(result) {
        const post = answer(result);
        if (post.authorId === fan.id) throw new AppError("forbidden", CANNOT_TIP_SELF);
        if (!post.authorIsCreator) throw new AppError("forbidden", NOT_A_CREATOR);
        return { creatorId: post.authorId, postId: target.postId, conversation: null };
      },
    };
  }
  const { statement, answer } = counterpartRead(db, target.username, fan.id, CANNOT_TIP_SELF);
  return {
    statement,
    answer(result) {
      const creator = answer(result);
      if (creator.role !== "creator") throw new AppError("forbidden", NOT_A_CREATOR);
      return { creatorId: creator.id, postId: null, conversation: null };
    },
  };
}

/**
 * A tip already made with this key answers again as it did the first time, before any access check: the fan was
 * charged, and a retry after a lost answer must say so even if the pair has blocked each other or the post is
 * gone since (replayedFrom: the same details are required, a key reused for another tip is refused).
 */
async function earlierTip(
  db: D1Database,
  fan: UserRow,
  target: TipTarget,
  input: TipInput,
  found: PaymentRow | null,
): Promise<TipOutcome | null> {
  const request = {
    postId: "postId" in target ? target.postId : null,
    note: input.note ? input.note : null,
    ...("conversationId" in target ? { conversationId: target.conversationId } : {}),
  };
  const earlier = await replayedFrom(found, { kind: "tip", amountCents: input.amountCents, request });
  if (!earlier) return null;
  if ("username" in target) {
    const named = await db
      .prepare("SELECT id FROM users WHERE username = ?")
      .bind(target.username)
      .first<{ id: number }>();
    if (named?.id !== earlier.creator_id)
      throw new AppError("validation", IDEMPOTENCY_KEY_REUSED, { idempotencyKey: [IDEMPOTENCY_KEY_REUSED] });
  }
  const result = { payment: presentPayment(earlier), replayed: true };
  if (!("conversationId" in target)) return result;
  const stored = await db
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.sender_id = ? AND m.client_id = ?`)
    .bind(fan.id, await tipMessageClientId(input.idempotencyKey))
    .first<MessageRow>();
  return stored ? { ...result, message: (await presentMessages(db, fan.id, [stored]))[0]! } : result;
}
