import { z } from "zod";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { findCounterpart } from "../profiles/find-member";
import { AppError } from "../shared/errors";
import { message } from "../shared/messages";
import { payFromWallet, presentPayment, type PaymentView } from "./payments";
import { clientKey, IdempotencyKeySchema } from "./rules";
import { NOT_A_CREATOR } from "./send-tip";

export const MessagePaymentSchema = z.object({ idempotencyKey: IdempotencyKeySchema });

export type MessageCharge = { charged: false } | { charged: true; payment: PaymentView; replayed: boolean };

/**
 * What a fan pays to send one message to a creator (users.message_price_cents; 0: messages are free and nothing
 * is charged). The chat calls this before it stores the message and passes the same key on retries, so a
 * message is paid once. The price is the creator's current one: the fan was shown it on the profile.
 */
export async function chargeMessage(ctx: Pick<DomainContext, "db" | "config">, fan: UserRow, username: string, input: z.output<typeof MessagePaymentSchema>): Promise<MessageCharge> {
  const creator = await findCounterpart(ctx.db, username, fan.id, message("You cannot send a message to yourself."));
  if (creator.role !== "creator") throw new AppError("forbidden", NOT_A_CREATOR);
  const row = await ctx.db.prepare("SELECT message_price_cents FROM users WHERE id = ?").bind(creator.id).first<{ message_price_cents: number }>();
  const priceCents = row?.message_price_cents ?? 0;
  if (priceCents === 0) return { charged: false };
  const outcome = await payFromWallet(ctx.db, {
    payer: fan,
    creatorId: creator.id,
    kind: "message",
    amountCents: priceCents,
    idempotencyKey: clientKey(input.idempotencyKey),
    feePercent: ctx.config.PLATFORM_FEE_PERCENT,
  });
  return { charged: true, payment: presentPayment(outcome.payment), replayed: outcome.replayed };
}
