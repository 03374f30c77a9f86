import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { AppError, emailNotVerified, fieldError } from "../shared/errors";
import { isoNow } from "../shared/time";
import { ledgerRefusal } from "./ledger";
import { presentPayment, replayOf, requestHash, type PaymentRow, type PaymentView } from "./payments";
import { topUpProvider, type PaymentProvider } from "./providers/provider";
import type { TopUpInput } from "@shared/contracts/money-bodies";
import { clientKey, MAX_TOP_UP_CENTS, MIN_TOP_UP_CENTS, TOP_UP_AMOUNT_RANGE } from "./rules";
import { failTopUp } from "./top-ups";

const topUpRangeVars = { min: MIN_TOP_UP_CENTS, max: MAX_TOP_UP_CENTS };

export interface TopUpStart {
  payment: PaymentView;
  /** Where the browser goes next: the provider's checkout, or /wallet?topUp={id} once the outcome is known. */
  redirectUrl: string;
  replayed: boolean;
}

/** `fetch` reaches the provider's API; tests put a double of Stripe there. */
export type TopUpContext = Pick<DomainContext, "db" | "env" | "config" | "origin"> & { fetch?: typeof fetch };

const isLive = (payment: PaymentRow) => payment.status === "pending" || payment.status === "requires_confirmation";
export const topUpResultPath = (paymentId: number) => `/wallet?topUp=${paymentId}`;

/** A replayed request leads to the same checkout while the payment waits, else to its outcome on /wallet. */
async function resume(provider: PaymentProvider, payment: PaymentRow, origin: string): Promise<string> {
  if (!isLive(payment) || payment.provider !== provider.name) return topUpResultPath(payment.id);
  return (await provider.checkout({ id: payment.id, amountCents: payment.amount_cents }, origin)).redirectUrl;
}

/**
 * Starts a wallet top-up: a pending payment of ours, then the provider's checkout. Nothing is credited here; the
 * provider's outcome is (top-ups.ts). The client's idempotency key makes a double submit lead to the same
 * payment and checkout.
 */
export async function startTopUp(ctx: TopUpContext, user: UserRow, input: TopUpInput): Promise<TopUpStart> {
  const provider = topUpProvider(ctx.config, ctx.fetch);
  if (user.email_verified_at === null) throw emailNotVerified();
  if (input.amountCents < MIN_TOP_UP_CENTS || input.amountCents > MAX_TOP_UP_CENTS)
    throw fieldError("amountCents", TOP_UP_AMOUNT_RANGE, topUpRangeVars);
  const key = clientKey(input.idempotencyKey);
  const hash = await requestHash({ kind: "top_up", amount: input.amountCents });
  const replay = await replayOf(ctx.db, user.id, key, hash);
  if (replay)
    return { payment: presentPayment(replay), redirectUrl: await resume(provider, replay, ctx.origin), replayed: true };

  const now = isoNow();
  let payment: PaymentRow;
  try {
    payment = (await ctx.db
      .prepare(
        `INSERT INTO payments (user_id, kind, amount_cents, status, provider, idempotency_key, request_hash, created_at, updated_at)
         VALUES (?, 'top_up', ?, 'pending', ?, ?, ?, ?, ?) RETURNING *`,
      )
      .bind(user.id, input.amountCents, provider.name, key, hash, now, now)
      .first<PaymentRow>())!;
  } catch (error) {
    // A concurrent request with the same key won: answer with its payment.
    if (ledgerRefusal(error) !== "duplicate_payment") throw error;
    const winner = await replayOf(ctx.db, user.id, key, hash);
    if (!winner) throw error;
    return { payment: presentPayment(winner), redirectUrl: await resume(provider, winner, ctx.origin), replayed: true };
  }

  try {
    const checkout = await provider.checkout({ id: payment.id, amountCents: payment.amount_cents }, ctx.origin);
    if (checkout.providerRef) {
      await ctx.db
        .prepare("UPDATE payments SET provider_ref = ?, updated_at = ? WHERE id = ?")
        .bind(checkout.providerRef, isoNow(), payment.id)
        .run();
    }
    return { payment: presentPayment(payment), redirectUrl: checkout.redirectUrl, replayed: false };
  } catch (error) {
    // No checkout exists for it, so no provider event will ever end it: it fails now, visibly in the history.
    if (error instanceof AppError)
      await failTopUp(ctx.env, {
        provider: provider.name,
        eventId: `checkout-failed:${payment.id}`,
        paymentId: payment.id,
        reason: error.message,
      });
    throw error;
  }
}
