import { z } from "zod";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { requirePostAccess } from "../policies/posts";
import { notificationStatement } from "../notifications/notifications";
import { findCounterpart } from "../profiles/find-member";
import { AppError, fieldError, INVALID_VALUE } from "../shared/errors";
import { message } from "../shared/messages";
import { multilineText } from "../shared/validation";
import { payFromWallet, presentPayment, type PaymentView } from "./payments";
import { dollars } from "@shared/money";
import { clientKey, IdempotencyKeySchema, MAX_TIP_CENTS, MAX_TIP_NOTE_LENGTH, MIN_TIP_CENTS, TIP_AMOUNT_RANGE } from "./rules";

export const TipSchema = z.object({
  // The range is checked by sendTip, whose error carries the amounts for the translated sentence.
  amountCents: z.number({ message: INVALID_VALUE }).int({ message: INVALID_VALUE }).max(Number.MAX_SAFE_INTEGER, { message: INVALID_VALUE }),
  note: multilineText().trim().max(MAX_TIP_NOTE_LENGTH, { message: message("A message is at most 500 characters.") }).optional(),
  idempotencyKey: IdempotencyKeySchema,
});
export type TipInput = z.output<typeof TipSchema>;

/** The values TIP_AMOUNT_RANGE needs. */
export const tipRangeVars = { min: dollars(MIN_TIP_CENTS), max: dollars(MAX_TIP_CENTS) };

export const CANNOT_TIP_SELF = message("You cannot tip yourself.");
export const NOT_A_CREATOR = message("Only creators can receive payments.");

export type TipTarget = { postId: number } | { username: string };

/**
 * A tip on a post or on a profile: the fan's wallet pays the creator (minus the platform's fee), and the creator
 * is notified with the amount, in the same batch. The post must exist for the fan (a tip does not need it
 * unlocked); neither may block the other.
 */
export async function sendTip(ctx: Pick<DomainContext, "db" | "publish" | "config">, fan: UserRow, target: TipTarget, input: TipInput): Promise<{ payment: PaymentView; replayed: boolean }> {
  const { db } = ctx;
  let creatorId: number;
  let postId: number | null = null;
  if ("postId" in target) {
    const post = await requirePostAccess(db, target.postId, fan.id, "see");
    if (post.authorId === fan.id) throw new AppError("forbidden", CANNOT_TIP_SELF);
    if (!post.authorIsCreator) throw new AppError("forbidden", NOT_A_CREATOR);
    creatorId = post.authorId;
    postId = target.postId;
  } else {
    const creator = await findCounterpart(db, target.username, fan.id, CANNOT_TIP_SELF);
    if (creator.role !== "creator") throw new AppError("forbidden", NOT_A_CREATOR);
    creatorId = creator.id;
  }
  if (input.amountCents < MIN_TIP_CENTS || input.amountCents > MAX_TIP_CENTS) throw fieldError("amountCents", TIP_AMOUNT_RANGE, tipRangeVars);
  const note = input.note ? input.note : null;
  const outcome = await payFromWallet(db, {
    payer: fan,
    creatorId,
    kind: "tip",
    amountCents: input.amountCents,
    idempotencyKey: clientKey(input.idempotencyKey),
    request: { postId, note },
    postId,
    note,
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
    effects: () => [
      notificationStatement(db, { userId: creatorId, kind: "tip", actorId: fan.id, params: { amountCents: input.amountCents, ...(postId ? { postId } : {}) } }),
    ],
  });
  if (!outcome.replayed) ctx.publish({ type: "NotificationCreated", userId: creatorId, kind: "tip" });
  return { payment: presentPayment(outcome.payment), replayed: outcome.replayed };
}
