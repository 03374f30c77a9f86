import type { AccountDeletionView } from "@shared/contracts/account-deletion";
import { type Read, readOne } from "../shared/reads";
export { type AccountDeletionView };

interface StateRow {
  deletion_due_at: string | null;
  is_creator: number;
  wallet_cents: number;
  pending_cents: number;
  available_cents: number;
  open_payout_cents: number;
  has_payout_method: number;
}

const balance = (kind: string) =>
  `COALESCE((SELECT balance_cents FROM ledger_accounts WHERE user_id = u.id AND kind = '${kind}'), 0)`;

/**
 * Whether the account is leaving, and the money its deletion concerns: what the person is told before confirming,
 * and what the deletion job settles (one statement).
 */
const deletionStateRead = (db: D1Database, userId: number): Read<AccountDeletionView> => ({
  statement: db
    .prepare(
      `SELECT u.deletion_due_at, u.role = 'creator' AS is_creator,
              ${balance("wallet")} AS wallet_cents, ${balance("earnings_pending")} AS pending_cents,
              ${balance("earnings_available")} AS available_cents,
              COALESCE((SELECT amount_cents FROM payouts WHERE creator_id = u.id AND status = 'requested'), 0) AS open_payout_cents,
              EXISTS (SELECT 1 FROM payout_methods WHERE user_id = u.id) AS has_payout_method
       FROM users u WHERE u.id = ?`,
    )
    .bind(userId),
  answer: (result) => {
    const row = result.results[0] as StateRow;
    return {
      deletesAt: row.deletion_due_at,
      isCreator: row.is_creator === 1,
      walletCents: row.wallet_cents,
      pendingCents: row.pending_cents,
      availableCents: row.available_cents,
      openPayoutCents: row.open_payout_cents,
      hasPayoutMethod: row.has_payout_method === 1,
    };
  },
});

export const getDeletionState = (db: D1Database, userId: number) => readOne(deletionStateRead(db, userId));
