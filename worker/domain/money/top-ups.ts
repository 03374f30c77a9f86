/**
 * Wallet top-ups, provider-neutral. A top-up is a payment that starts `pending` and is credited only when its
 * provider says the money arrived (a verified Stripe webhook, or the sandbox's card result): `creditTopUp` moves
 * the amount from the provider's clearing account to the wallet, records the provider event and marks the
 * payment succeeded in one batch. The event id's primary key makes a second delivery change nothing, and the
 * guard makes a payment credited by one event immune to any other.
 */
import type { Env } from "../../env";
import type { DomainContext } from "../context";
import { notificationStatement } from "../notifications/notifications";
import { HOUR, isoNow } from "../shared/time";
import { ledgerRefusal, newTransferRef, PROVIDER_CLEARING, transferIdSql, transferStatements } from "./ledger";
import { bothGuards, CREDIT_ATTEMPTS, walletCreditLegs } from "./wallet-credit";
import type { PaymentRow } from "./payments";
import { message } from "@shared/messages";

export type ProviderName = "sandbox" | "stripe";

export interface ProviderEvent {
  provider: ProviderName;
  /** The provider's id for this event (Stripe's evt_…), unique per provider. */
  eventId: string;
  paymentId: number;
}

export type EventOutcome = "applied" | "duplicate" | "ignored";

const LIVE_TOP_UP = "status IN ('pending', 'requires_confirmation')";

/**
 * Credits a top-up once. `amountCents` is what the provider collected; it must equal the payment's amount. A debt
 * left by a reversed top-up is settled first (walletCreditLegs). `paymentRef` is the provider's id of the payment
 * (Stripe's PaymentIntent), which its later refunds and disputes name.
 */
export async function creditTopUp(
  ctx: Pick<DomainContext, "db" | "publish">,
  event: ProviderEvent & { amountCents: number; paymentRef?: string | null },
): Promise<EventOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await tryCreditTopUp(ctx.db, event);
    if (outcome.kind === "applied") {
      ctx.publish({ type: "NotificationCreated", userId: outcome.userId, kind: "top_up" });
      return "applied";
    }
    if (outcome.kind !== "state_changed") return outcome.kind;
    // Stripe delivers the event again later; the sandbox's card form can be submitted again.
    if (attempt === CREDIT_ATTEMPTS) throw new Error("creditTopUp: the payer's debt kept changing");
  }
}

type CreditAttempt = { kind: "applied"; userId: number } | { kind: "duplicate" | "ignored" | "state_changed" };

async function tryCreditTopUp(
  db: D1Database,
  event: ProviderEvent & { amountCents: number; paymentRef?: string | null },
): Promise<CreditAttempt> {
  const payment = await db
    .prepare(
      `SELECT p.*, COALESCE((SELECT balance_cents FROM ledger_accounts WHERE user_id = p.user_id AND kind = 'debt'), 0) AS debt_cents
       FROM payments p WHERE p.id = ? AND p.kind = 'top_up' AND p.provider = ?`,
    )
    .bind(event.paymentId, event.provider)
    .first<PaymentRow & { debt_cents: number }>();
  if (
    !payment ||
    payment.amount_cents !== event.amountCents ||
    !["pending", "requires_confirmation"].includes(payment.status)
  )
    return { kind: "ignored" };
  const now = isoNow();
  const ref = newTransferRef();
  const transferId = transferIdSql(ref);
  const credit = walletCreditLegs(payment.user_id, payment.amount_cents, payment.debt_cents);
  try {
    await db.batch([
      db
        .prepare("INSERT INTO provider_events (provider, event_id, payment_id, received_at) VALUES (?, ?, ?, ?)")
        .bind(event.provider, event.eventId, payment.id, now),
      ...transferStatements(db, {
        ref,
        kind: "top_up",
        createdAt: now,
        memo: `${event.provider}:${event.eventId}`,
        guard: bothGuards(
          {
            sql: `EXISTS (SELECT 1 FROM payments WHERE id = ? AND amount_cents = ? AND ${LIVE_TOP_UP})`,
            binds: [payment.id, payment.amount_cents],
          },
          credit.guard,
        ),
        legs: [{ account: PROVIDER_CLEARING, amount: -payment.amount_cents }, ...credit.legs],
      }),
      db
        .prepare(
          `UPDATE payments SET status = 'succeeded', transfer_id = ${transferId.sql}, failure_reason = NULL,
             provider_payment_ref = COALESCE(?, provider_payment_ref), updated_at = ? WHERE id = ? AND ${LIVE_TOP_UP}`,
        )
        .bind(...transferId.binds, event.paymentRef ?? null, now, payment.id),
      notificationStatement(db, {
        userId: payment.user_id,
        kind: "top_up",
        params: { amountCents: payment.amount_cents },
      }),
    ]);
  } catch (error) {
    const refusal = ledgerRefusal(error);
    if (refusal === "duplicate_event") return { kind: "duplicate" };
    // The payment was credited by another event meanwhile, or the debt this credit settles moved: read again.
    if (refusal === "state_changed") return { kind: "state_changed" };
    throw error;
  }
  return { kind: "applied", userId: payment.user_id };
}

/** A declined, cancelled or expired top-up: marked failed with the provider's reason, once; no money moves. */
export async function failTopUp(
  env: Pick<Env, "DB">,
  event: ProviderEvent & { reason: string },
): Promise<EventOutcome> {
  const db = env.DB;
  const now = isoNow();
  try {
    const [, update] = await db.batch([
      db
        .prepare("INSERT INTO provider_events (provider, event_id, payment_id, received_at) VALUES (?, ?, ?, ?)")
        .bind(event.provider, event.eventId, event.paymentId, now),
      db
        .prepare(
          `UPDATE payments SET status = 'failed', failure_reason = ?, updated_at = ? WHERE id = ? AND kind = 'top_up' AND provider = ? AND ${LIVE_TOP_UP} RETURNING id`,
        )
        .bind(event.reason.slice(0, 200), now, event.paymentId, event.provider),
    ]);
    return update!.results.length > 0 ? "applied" : "ignored";
  } catch (error) {
    if (ledgerRefusal(error) === "duplicate_event") return "duplicate";
    throw error;
  }
}

/** A checkout the payer never finished: Stripe's expired session, or a sandbox card form left open. */
export const CHECKOUT_EXPIRED = message("The payment was not completed in time.");

/** How long a sandbox top-up may wait at the card form before the cron gives up on it. */
export const SANDBOX_TOP_UP_LIFETIME_MS = HOUR;

/**
 * The cron's clean-up of sandbox top-ups left at the card form: failed as "not completed in time", each through
 * failTopUp (an event of its own, so a card submitted at the same moment wins or loses cleanly). Stripe top-ups
 * are left alone: only Stripe knows whether the money came, and it says so with checkout.session.expired.
 */
export async function expireAbandonedSandboxTopUps(env: Pick<Env, "DB">): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM payments INDEXED BY payments_open_top_ups
     WHERE provider = 'sandbox' AND status IN ('pending', 'requires_confirmation') AND created_at < ? LIMIT 100`,
  )
    .bind(new Date(Date.now() - SANDBOX_TOP_UP_LIFETIME_MS).toISOString())
    .all<{ id: number }>();
  let expired = 0;
  for (const { id } of results) {
    const outcome = await failTopUp(env, {
      provider: "sandbox",
      eventId: `sandbox:${id}:expired`,
      paymentId: id,
      reason: CHECKOUT_EXPIRED,
    });
    if (outcome === "applied") expired += 1;
  }
  return expired;
}
