/**
 * Withdrawals (spec §4, §5, §9): a creator asks for at least $50 of their available earnings, one request at a
 * time, confirmed with their password; an admin then marks it paid (the money leaves through the provider's
 * clearing account) or rejected (the money returns to available). Each step is one guarded batch.
 */
import type { UserRow } from "../accounts/users";
import { confirmPassword } from "../accounts/confirm-password";
import type { RejectPayoutInput, WithdrawalInput } from "@shared/contracts/money-bodies";
import type { DomainContext } from "../context";
import { notificationStatement } from "../notifications/notifications";
import { AppError, emailNotVerified, fieldError } from "../shared/errors";
import { message } from "@shared/messages";
import { isoNow } from "../shared/time";
import {
  availableOf,
  balanceOf,
  ledgerRefusal,
  newTransferRef,
  PAYOUTS,
  PROVIDER_CLEARING,
  transferIdSql,
  transferStatements,
} from "./ledger";
import { requestHash } from "./payments";
import { findPayoutMethod, maskDestination, payoutDetailsOf } from "./payout-methods";
import { clientKey, IDEMPOTENCY_KEY_REUSED, MIN_WITHDRAWAL_CENTS } from "./rules";
import type { PayoutStatus, PayoutView } from "@shared/contracts/money";
export { type PayoutView };

const MIN_WITHDRAWAL = message("The minimum withdrawal is {{min, money}}.");
const OVER_AVAILABLE = message("You can withdraw at most {{available, money}}.");
const ONE_OPEN_WITHDRAWAL = message(
  "You already have a withdrawal request pending. You can request another once it is processed.",
);
const NO_PAYOUT_METHOD = message("Add a payout method first.");
const PAYOUT_ALREADY_DECIDED = message("This withdrawal was already processed.");

export interface PayoutRow {
  id: number;
  creator_id: number;
  amount_cents: number;
  status: PayoutStatus;
  method_kind: "paypal" | "bank";
  method_details: string;
  idempotency_key: string;
  request_hash: string;
  request_transfer_id: number;
  decision_transfer_id: number | null;
  rejection_reason: string | null;
  decided_by: number | null;
  created_at: string;
  decided_at: string | null;
}

/** A line of the payout history (spec §3 "Payout: date, status, amount"). */

export function presentPayout(row: PayoutRow): PayoutView {
  return {
    id: row.id,
    amountCents: row.amount_cents,
    status: row.status,
    method: row.method_kind,
    destination: maskDestination(row.method_kind, JSON.parse(row.method_details) as Record<string, string | null>),
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
  };
}

/** Asks for a payout of `amountCents` of the creator's available earnings. */
export async function requestWithdrawal(
  ctx: Pick<DomainContext, "db" | "env" | "config">,
  creator: UserRow,
  input: WithdrawalInput,
): Promise<{ payout: PayoutView; replayed: boolean }> {
  const { db } = ctx;
  if (creator.role !== "creator") throw new AppError("forbidden", message("Only creators can request a withdrawal."));
  if (creator.email_verified_at === null) throw emailNotVerified();
  await confirmPassword(ctx, creator, input.password);
  const key = clientKey(input.idempotencyKey);
  const hash = await requestHash({ kind: "withdrawal", amount: input.amountCents });
  // One look for this key's payout (a replay, which may well be the open request) and for an open request, checked
  // first so that it, not the balance it holds, is the reason given; payouts_one_open still decides between
  // concurrent requests.
  const { results: known } = await db
    .prepare("SELECT * FROM payouts WHERE creator_id = ? AND (idempotency_key = ? OR status = 'requested')")
    .bind(creator.id, key)
    .all<PayoutRow>();
  const replay = known.find((payout) => payout.idempotency_key === key);
  if (replay) {
    if (replay.request_hash !== hash) throw new AppError("validation", IDEMPOTENCY_KEY_REUSED);
    return { payout: presentPayout(replay), replayed: true };
  }
  if (known.length > 0) throw new AppError("conflict", ONE_OPEN_WITHDRAWAL);
  if (input.amountCents < MIN_WITHDRAWAL_CENTS)
    throw fieldError("amountCents", MIN_WITHDRAWAL, { min: MIN_WITHDRAWAL_CENTS });
  const method = await findPayoutMethod(db, creator.id);
  if (!method) throw new AppError("validation", NO_PAYOUT_METHOD);
  const details = payoutDetailsOf(method);
  const now = isoNow();
  const ref = newTransferRef();
  const transferId = transferIdSql(ref);
  const transfer = transferStatements(db, {
    ref,
    kind: "withdrawal",
    createdAt: now,
    legs: [
      { account: availableOf(creator.id), amount: -input.amountCents },
      { account: PAYOUTS, amount: input.amountCents },
    ],
  });
  try {
    const results = await db.batch<PayoutRow>([
      ...transfer,
      db
        .prepare(
          `INSERT INTO payouts (creator_id, amount_cents, status, method_kind, method_details, idempotency_key, request_hash, request_transfer_id, created_at)
           VALUES (?, ?, 'requested', ?, ?, ?, ?, ${transferId.sql}, ?) RETURNING *`,
        )
        .bind(creator.id, input.amountCents, method.kind, JSON.stringify(details), key, hash, ...transferId.binds, now),
    ]);
    return { payout: presentPayout(results[transfer.length]!.results[0]!), replayed: false };
  } catch (error) {
    // A replay racing its first request is refused by whichever rule it meets first (the open payout, the
    // balance the first one took, or the key): answer it with the first request's payout.
    const winner = await findPayout(db, creator.id, key);
    if (winner) {
      if (winner.request_hash !== hash) throw new AppError("validation", IDEMPOTENCY_KEY_REUSED);
      return { payout: presentPayout(winner), replayed: true };
    }
    const refusal = ledgerRefusal(error);
    if (refusal === "insufficient_funds") {
      throw fieldError("amountCents", OVER_AVAILABLE, { available: await balanceOf(db, availableOf(creator.id)) });
    }
    if (refusal === "open_payout") throw new AppError("conflict", ONE_OPEN_WITHDRAWAL);
    throw error;
  }
}

const findPayout = (db: D1Database, creatorId: number, key: string) =>
  db
    .prepare("SELECT * FROM payouts WHERE creator_id = ? AND idempotency_key = ?")
    .bind(creatorId, key)
    .first<PayoutRow>();

type PayoutDecision = { decision: "paid" } | ({ decision: "rejected" } & RejectPayoutInput);

/** The admin's decision on a requested payout; a payout decided already (by another admin, a retry) is refused. */
export async function decidePayout(
  ctx: Pick<DomainContext, "db" | "publish">,
  admin: UserRow,
  payoutId: number,
  input: PayoutDecision,
): Promise<PayoutView> {
  const { db } = ctx;
  if (admin.role !== "admin") throw new AppError("not_found", message("Not found."));
  const payout = await db.prepare("SELECT * FROM payouts WHERE id = ?").bind(payoutId).first<PayoutRow>();
  if (!payout) throw new AppError("not_found", message("Not found."));
  if (payout.status !== "requested") throw new AppError("conflict", PAYOUT_ALREADY_DECIDED);
  const now = isoNow();
  const ref = newTransferRef();
  const transferId = transferIdSql(ref);
  const paid = input.decision === "paid";
  const reason = input.decision === "rejected" ? input.reason : null;
  try {
    const results = await db.batch<PayoutRow>([
      ...transferStatements(db, {
        ref,
        kind: paid ? "payout_paid" : "payout_rejected",
        createdAt: now,
        memo: `payout:${payout.id}`,
        guard: { sql: "EXISTS (SELECT 1 FROM payouts WHERE id = ? AND status = 'requested')", binds: [payout.id] },
        legs: [
          { account: PAYOUTS, amount: -payout.amount_cents },
          { account: paid ? PROVIDER_CLEARING : availableOf(payout.creator_id), amount: payout.amount_cents },
        ],
      }),
      db
        .prepare(
          `UPDATE payouts SET status = ?, decision_transfer_id = ${transferId.sql}, rejection_reason = ?, decided_by = ?, decided_at = ?
           WHERE id = ? AND status = 'requested' RETURNING *`,
        )
        .bind(input.decision, ...transferId.binds, reason, admin.id, now, payout.id),
      notificationStatement(db, {
        userId: payout.creator_id,
        kind: "payout",
        params: { status: input.decision, amountCents: payout.amount_cents, ...(reason ? { reason } : {}) },
      }),
    ]);
    ctx.publish({ type: "NotificationCreated", userId: payout.creator_id, kind: "payout" });
    return presentPayout(results[results.length - 2]!.results[0]!);
  } catch (error) {
    if (ledgerRefusal(error) === "state_changed") throw new AppError("conflict", PAYOUT_ALREADY_DECIDED);
    throw error;
  }
}
