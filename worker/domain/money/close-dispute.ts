/**
 * The bank's decision on a dispute (docs/decisions/disputes.md). Won: the money comes back, and a new transfer
 * credits it to the member (settling their debt first) while the creators' held earnings are released to the
 * cron again. Lost: the held earnings, still pending, go to the platform, each stamped with that transfer so the
 * cron never releases it; earnings already released before the dispute stay the creators' (the platform carries
 * that loss, and the member's debt stays until a top-up settles it). One batch each, applied once per event.
 */
import type { DomainContext } from "../context";
import { isoNow } from "../shared/time";
import {
  ledgerRefusal,
  newTransferRef,
  pendingOf,
  PLATFORM_FEES,
  PROVIDER_CLEARING,
  transferIdSql,
  transferStatements,
  type Sql,
} from "./ledger";
import type { EventOutcome, ProviderName } from "./top-ups";
import { bothGuards, CREDIT_ATTEMPTS, walletCreditLegs } from "./wallet-credit";

export interface DisputeClosing {
  provider: ProviderName;
  eventId: string;
  /** The dispute's id (du_…). */
  providerRef: string;
  won: boolean;
}

interface OpenDispute {
  id: number;
  payment_id: number;
  user_id: number;
  amount_cents: number;
  debt_cents: number;
}

export async function closeDispute(ctx: Pick<DomainContext, "db">, event: DisputeClosing): Promise<EventOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await tryCloseDispute(ctx.db, event);
    if (outcome !== "state_changed") return outcome;
    if (attempt === CREDIT_ATTEMPTS) throw new Error("closeDispute: the member's debt kept changing");
  }
}

const heldSql = (disputeId: number): Sql => ({
  sql: "(SELECT COALESCE(SUM(net_cents), 0) FROM earnings WHERE held_by_dispute_id = ? AND release_transfer_id IS NULL)",
  binds: [disputeId],
});

async function tryCloseDispute(db: D1Database, event: DisputeClosing): Promise<EventOutcome | "state_changed"> {
  const dispute = await db
    .prepare(
      `SELECT d.id, d.payment_id, d.user_id, d.amount_cents,
         COALESCE((SELECT balance_cents FROM ledger_accounts WHERE user_id = d.user_id AND kind = 'debt'), 0) AS debt_cents
       FROM disputes d WHERE d.kind = 'dispute' AND d.provider_ref = ? AND d.status = 'open'`,
    )
    .bind(event.providerRef)
    .first<OpenDispute>();
  if (!dispute) return "ignored";
  const now = isoNow();
  const ref = newTransferRef();
  const transferId = transferIdSql(ref);
  const open: Sql = { sql: "EXISTS (SELECT 1 FROM disputes WHERE id = ? AND status = 'open')", binds: [dispute.id] };
  const statements = [
    db
      .prepare("INSERT INTO provider_events (provider, event_id, payment_id, received_at) VALUES (?, ?, ?, ?)")
      .bind(event.provider, event.eventId, dispute.payment_id, now),
  ];
  let moved = true;
  if (event.won) {
    const credit = walletCreditLegs(dispute.user_id, dispute.amount_cents, dispute.debt_cents);
    statements.push(
      ...transferStatements(db, {
        ref,
        kind: "correction",
        createdAt: now,
        memo: `dispute_won:${event.provider}:${event.eventId}`,
        guard: bothGuards(open, credit.guard),
        legs: [{ account: PROVIDER_CLEARING, amount: -dispute.amount_cents }, ...credit.legs],
      }),
      db
        .prepare(
          "UPDATE earnings SET held_by_dispute_id = NULL WHERE held_by_dispute_id = ? AND release_transfer_id IS NULL",
        )
        .bind(dispute.id),
    );
  } else {
    const { results: held } = await db
      .prepare(
        `SELECT creator_id, SUM(net_cents) AS net_cents FROM earnings
         WHERE held_by_dispute_id = ? AND release_transfer_id IS NULL GROUP BY creator_id`,
      )
      .bind(dispute.id)
      .all<{ creator_id: number; net_cents: number }>();
    const heldCents = held.reduce((sum, row) => sum + row.net_cents, 0);
    moved = heldCents > 0;
    if (moved) {
      const stillHeld = heldSql(dispute.id);
      statements.push(
        ...transferStatements(db, {
          ref,
          kind: "correction",
          createdAt: now,
          memo: `dispute_lost:${event.provider}:${event.eventId}`,
          guard: bothGuards(open, { sql: `${stillHeld.sql} = ?`, binds: [...stillHeld.binds, heldCents] }),
          legs: [
            ...held.map((row) => ({ account: pendingOf(row.creator_id), amount: -row.net_cents })),
            { account: PLATFORM_FEES, amount: heldCents },
          ],
        }),
        db
          .prepare(
            `UPDATE earnings SET release_transfer_id = ${transferId.sql} WHERE held_by_dispute_id = ? AND release_transfer_id IS NULL`,
          )
          .bind(...transferId.binds, dispute.id),
      );
    }
  }
  const closing = moved ? transferId : { sql: "NULL", binds: [] };
  statements.push(
    db
      .prepare(
        `UPDATE disputes SET status = ?, closing_transfer_id = ${closing.sql}, closed_at = ? WHERE id = ? AND status = 'open' RETURNING id`,
      )
      .bind(event.won ? "won" : "lost", ...closing.binds, now, dispute.id),
  );
  try {
    const results = await db.batch(statements);
    return results[results.length - 1]!.results.length > 0 ? "applied" : "ignored";
  } catch (error) {
    const refusal = ledgerRefusal(error);
    if (refusal === "duplicate_event") return "duplicate";
    if (refusal === "state_changed") return "state_changed";
    throw error;
  }
}
