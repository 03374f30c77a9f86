/**
 * A refund or a dispute takes a top-up's money back (docs/decisions/disputes.md). One batch records the provider's
 * event, moves the amount back to the provider's clearing account (from the wallet first, the rest as the member's
 * debt), writes the dispute row and, for a dispute that made a debt, holds the creators' pending earnings from
 * what the member spent since that top-up, up to the debt. The event id makes a second delivery change nothing,
 * and guards on the balances and the top-up's reversed total make a batch that raced another one start again.
 */
import type { DomainContext } from "../context";
import { isoNow } from "../shared/time";
import {
  balanceSql,
  debtOf,
  ledgerRefusal,
  newTransferRef,
  PROVIDER_CLEARING,
  transferIdSql,
  transferStatements,
  walletOf,
  type Sql,
} from "./ledger";
import type { EventOutcome, ProviderName } from "./top-ups";
import { CREDIT_ATTEMPTS } from "./wallet-credit";

export interface TopUpReversal {
  provider: ProviderName;
  eventId: string;
  /** The provider's id of the top-up's payment (Stripe's PaymentIntent). */
  paymentRef: string;
  kind: "refund" | "dispute";
  /** A dispute's id; for a refund, the charge's id with its refunded total ("ch_…:2500"). */
  providerRef: string;
  /** A dispute's amount; for a refund, the charge's refunded total so far (Stripe sends the sum of its refunds). */
  amountCents: number;
  reason: string;
}

interface ReversedTopUp {
  id: number;
  user_id: number;
  amount_cents: number;
  transfer_id: number;
  reversed_cents: number;
  refunded_cents: number;
  wallet_cents: number;
}

/** Earnings looked at for a hold, oldest first; a member's spending since one top-up rarely comes near this. */
const HOLD_CANDIDATES = 500;

export async function reverseTopUp(ctx: Pick<DomainContext, "db">, event: TopUpReversal): Promise<EventOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await tryReverseTopUp(ctx.db, event);
    if (outcome !== "state_changed") return outcome;
    // The provider delivers the event again later.
    if (attempt === CREDIT_ATTEMPTS) throw new Error("reverseTopUp: the member's balances kept changing");
  }
}

const reversedSql = (paymentId: number): Sql => ({
  sql: "(SELECT COALESCE(SUM(amount_cents), 0) FROM disputes WHERE payment_id = ? AND status <> 'won')",
  binds: [paymentId],
});

async function tryReverseTopUp(db: D1Database, event: TopUpReversal): Promise<EventOutcome | "state_changed"> {
  const topUp = await db
    .prepare(
      `SELECT p.id, p.user_id, p.amount_cents, p.transfer_id,
         (SELECT COALESCE(SUM(amount_cents), 0) FROM disputes WHERE payment_id = p.id AND status <> 'won') AS reversed_cents,
         (SELECT COALESCE(SUM(amount_cents), 0) FROM disputes WHERE payment_id = p.id AND kind = 'refund') AS refunded_cents,
         COALESCE((SELECT balance_cents FROM ledger_accounts WHERE user_id = p.user_id AND kind = 'wallet'), 0) AS wallet_cents
       FROM payments p
       WHERE p.provider = ? AND p.provider_payment_ref = ? AND p.kind = 'top_up' AND p.status = 'succeeded'`,
    )
    .bind(event.provider, event.paymentRef)
    .first<ReversedTopUp>();
  if (!topUp) return "ignored";
  const asked = event.kind === "refund" ? event.amountCents - topUp.refunded_cents : event.amountCents;
  // Never more than the top-up brought in, whatever the provider's events add up to.
  const amount = Math.min(asked, topUp.amount_cents - topUp.reversed_cents);
  if (amount <= 0) return "ignored";
  const fromWallet = Math.min(amount, topUp.wallet_cents);
  const owed = amount - fromWallet;
  const held = event.kind === "dispute" && owed > 0 ? await earningsToHold(db, topUp, owed) : [];

  const now = isoNow();
  const ref = newTransferRef();
  const transferId = transferIdSql(ref);
  const wallet = balanceSql(walletOf(topUp.user_id));
  const reversed = reversedSql(topUp.id);
  const statements = [
    db
      .prepare("INSERT INTO provider_events (provider, event_id, payment_id, received_at) VALUES (?, ?, ?, ?)")
      .bind(event.provider, event.eventId, topUp.id, now),
    ...transferStatements(db, {
      ref,
      kind: "correction",
      createdAt: now,
      memo: `${event.kind}:${event.provider}:${event.eventId}`,
      // The guard is checked as each entry is written, so it reads only the wallet, whose entry comes last.
      guard: {
        sql: `${wallet.sql} = ? AND ${reversed.sql} = ?`,
        binds: [...wallet.binds, topUp.wallet_cents, ...reversed.binds, topUp.reversed_cents],
      },
      legs: [
        { account: PROVIDER_CLEARING, amount },
        { account: debtOf(topUp.user_id), amount: -owed },
        { account: walletOf(topUp.user_id), amount: -fromWallet },
      ],
    }),
    db
      .prepare(
        `INSERT INTO disputes (payment_id, user_id, kind, provider_ref, amount_cents, owed_cents, reason, status, reversal_transfer_id, opened_at, closed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ${transferId.sql}, ?, ?)`,
      )
      .bind(
        topUp.id,
        topUp.user_id,
        event.kind,
        event.providerRef,
        amount,
        owed,
        event.reason.slice(0, 200),
        event.kind === "refund" ? "refunded" : "open",
        ...transferId.binds,
        now,
        event.kind === "refund" ? now : null,
      ),
  ];
  if (held.length > 0)
    statements.push(
      db
        .prepare(
          `UPDATE earnings SET held_by_dispute_id = (SELECT id FROM disputes WHERE kind = ? AND provider_ref = ?)
           WHERE id IN (${held.map(() => "?").join(", ")}) AND release_transfer_id IS NULL AND held_by_dispute_id IS NULL`,
        )
        .bind(event.kind, event.providerRef, ...held),
    );
  try {
    await db.batch(statements);
  } catch (error) {
    const refusal = ledgerRefusal(error);
    if (refusal === "duplicate_event" || String(error).includes("disputes.kind, disputes.provider_ref"))
      return "duplicate";
    if (refusal === "state_changed") return "state_changed";
    throw error;
  }
  return "applied";
}

/**
 * The pending earnings a dispute holds: those of the member's payments made after the top-up was credited, oldest
 * first, until their gross covers what the member owes (the earning that crosses it is held whole).
 */
async function earningsToHold(db: D1Database, topUp: ReversedTopUp, owedCents: number): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT e.id, e.gross_cents FROM earnings e JOIN payments p ON p.id = e.payment_id
       WHERE p.user_id = ? AND p.transfer_id > ? AND e.release_transfer_id IS NULL AND e.held_by_dispute_id IS NULL
       ORDER BY e.id LIMIT ?`,
    )
    .bind(topUp.user_id, topUp.transfer_id, HOLD_CANDIDATES)
    .all<{ id: number; gross_cents: number }>();
  const held: number[] = [];
  let covered = 0;
  for (const earning of results) {
    if (covered >= owedCents) break;
    held.push(earning.id);
    covered += earning.gross_cents;
  }
  return held;
}
