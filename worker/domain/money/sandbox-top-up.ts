/**
 * The sandbox's card form at work: a test card's outcome becomes a provider event of the sandbox, credited or
 * failed through top-ups.ts like Stripe's, once per payment and outcome. Only the payment's owner may pay it.
 */
import type { Config } from "../../env";
import type { DomainContext } from "../context";
import { AppError } from "../shared/errors";
import { message } from "@shared/messages";
import { firstRow, readOne, type Read } from "../shared/reads";
import { isoNow } from "../shared/time";
import type { PaymentRow } from "./payments";
import { sandboxAllowed, TOP_UPS_UNAVAILABLE } from "./providers/provider";
import type { CardInput } from "@shared/contracts/money-bodies";
import { CARD_DECLINED, PAYMENT_CANCELLED, sandboxOutcome } from "./providers/sandbox";
import { creditTopUp, failTopUp } from "./top-ups";

const TOP_UP_NOT_FOUND = message("This top-up does not exist.");

type SandboxContext = Pick<DomainContext, "env" | "db" | "publish"> & { config: Pick<Config, "APP_ENV"> };

/** The caller's own top-up: anyone else's is "not found", not "forbidden", so ids reveal nothing. */
/** The member's own top-up `paymentId`, or null. */
export const ownTopUpRead = (db: D1Database, userId: number, paymentId: number): Read<PaymentRow | null> =>
  firstRow(
    db.prepare("SELECT * FROM payments WHERE id = ? AND user_id = ? AND kind = 'top_up'").bind(paymentId, userId),
  );

export async function findOwnTopUp(db: D1Database, userId: number, paymentId: number): Promise<PaymentRow> {
  const payment = await readOne(ownTopUpRead(db, userId, paymentId));
  if (!payment) throw new AppError("not_found", TOP_UP_NOT_FOUND);
  return payment;
}

async function ownSandboxTopUp(ctx: SandboxContext, userId: number, paymentId: number): Promise<PaymentRow> {
  if (!sandboxAllowed(ctx.config)) throw new AppError("forbidden", TOP_UPS_UNAVAILABLE);
  const payment = await findOwnTopUp(ctx.env.DB, userId, paymentId);
  if (payment.provider !== "sandbox") throw new AppError("not_found", TOP_UP_NOT_FOUND);
  return payment;
}

const eventOf = (payment: PaymentRow, outcome: string) => ({
  provider: "sandbox" as const,
  eventId: `sandbox:${payment.id}:${outcome}`,
  paymentId: payment.id,
});

/**
 * Pays a pending sandbox top-up with a test card. A payment already past this step (a double submit) is
 * answered as it stands.
 */
export async function payWithSandboxCard(
  ctx: SandboxContext,
  userId: number,
  paymentId: number,
  card: CardInput,
): Promise<PaymentRow> {
  const payment = await ownSandboxTopUp(ctx, userId, paymentId);
  if (payment.status !== "pending") return payment;
  const outcome = sandboxOutcome(card.cardNumber);
  if (outcome === "succeeded")
    await creditTopUp(ctx, { ...eventOf(payment, outcome), amountCents: payment.amount_cents });
  else if (outcome === "declined") await failTopUp(ctx.env, { ...eventOf(payment, outcome), reason: CARD_DECLINED });
  else
    await ctx.env.DB.prepare(
      "UPDATE payments SET status = 'requires_confirmation', updated_at = ? WHERE id = ? AND status = 'pending'",
    )
      .bind(isoNow(), payment.id)
      .run();
  return findOwnTopUp(ctx.env.DB, userId, paymentId);
}

/** The card holder's answer to "Confirm this payment": confirming credits the wallet, cancelling fails it. */
export async function confirmSandboxTopUp(
  ctx: SandboxContext,
  userId: number,
  paymentId: number,
  decision: "confirm" | "cancel",
): Promise<PaymentRow> {
  const payment = await ownSandboxTopUp(ctx, userId, paymentId);
  if (payment.status !== "requires_confirmation") return payment;
  if (decision === "confirm")
    await creditTopUp(ctx, { ...eventOf(payment, "confirmed"), amountCents: payment.amount_cents });
  else await failTopUp(ctx.env, { ...eventOf(payment, "cancelled"), reason: PAYMENT_CANCELLED });
  return findOwnTopUp(ctx.env.DB, userId, paymentId);
}
