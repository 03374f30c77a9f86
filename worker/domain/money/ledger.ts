/**
 * The double-entry ledger (migration 0008). Money moves only as a transfer: a set of entries, one per account,
 * that sums to zero. A write builds its transfer's statements with `transferStatements` and runs them in ONE D1
 * batch together with the records the transfer justifies (a payment, a purchase, a payout…). The batch is a
 * transaction, and the database refuses anything that would break the books:
 *
 * - `balance_not_negative`: a wallet or earnings account that would go below zero aborts the batch (that is how
 *   concurrent spending of one balance can never overspend: D1 runs batches one at a time);
 * - `debt_not_positive`: a member's debt (what a reversed top-up took beyond their wallet) is never above zero;
 * - a transfer closes only balanced, with at least two entries ("ledger: unbalanced transfer");
 * - entries and closed transfers never change; corrections are new transfers (kind 'correction').
 *
 * A `guard` makes the entries conditional on the state the caller read ("this payout is still requested"): when
 * the state has moved on, no entry is written, closing fails, and the whole batch is undone. It is checked as each
 * entry is written, so a guard on a balance the transfer changes must have that account's leg last.
 */
import { readOne, type Read } from "../shared/reads";
import { isoNow } from "../shared/time";

export type AccountKind =
  "wallet" | "earnings_pending" | "earnings_available" | "platform_fees" | "provider_clearing" | "payouts" | "debt";
type TransferKind =
  | "top_up"
  | "subscription"
  | "renewal"
  | "tip"
  | "post"
  | "message"
  | "live"
  | "live_tip"
  | "release"
  | "withdrawal"
  | "payout_paid"
  | "payout_rejected"
  | "correction";

/** The platform's own accounts, created by the migration with these ids. */
export const PLATFORM_ACCOUNT_IDS = { platform_fees: 1, provider_clearing: 2, payouts: 3 } as const;
type PlatformAccountKind = keyof typeof PLATFORM_ACCOUNT_IDS;

export type Account =
  | { kind: PlatformAccountKind }
  | { kind: "wallet" | "earnings_pending" | "earnings_available" | "debt"; userId: number };

export const walletOf = (userId: number): Account => ({ kind: "wallet", userId });
export const pendingOf = (userId: number): Account => ({ kind: "earnings_pending", userId });
export const availableOf = (userId: number): Account => ({ kind: "earnings_available", userId });
/**
 * What a member owes after a top-up was reversed beyond their wallet (migration 0029): never positive, like the
 * provider's clearing account a negative balance is money owed to the platform. The next credits settle it first.
 */
export const debtOf = (userId: number): Account => ({ kind: "debt", userId });
export const PLATFORM_FEES: Account = { kind: "platform_fees" };
export const PROVIDER_CLEARING: Account = { kind: "provider_clearing" };
export const PAYOUTS: Account = { kind: "payouts" };

/** A piece of SQL with its values, for amounts and guards computed inside the batch. */
export interface Sql {
  sql: string;
  binds: unknown[];
}

interface Leg {
  account: Account;
  /** Cents, positive in, negative out; or an SQL expression evaluated when the entry is written. */
  amount: number | Sql;
}

export interface TransferSpec {
  kind: TransferKind;
  legs: Leg[];
  memo?: string;
  /** A condition (SQL, no leading WHERE) that must hold for the transfer to happen. */
  guard?: Sql;
  /** Provided when other statements of the batch refer to the transfer (see transferIdSql). */
  ref?: string;
  createdAt?: string;
}

/** A fresh 128-bit handle for a transfer being written. */
export function newTransferRef(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The id of the transfer `ref` as an SQL scalar, for the statements that record what it paid for. */
export const transferIdSql = (ref: string): Sql => ({
  sql: "(SELECT id FROM ledger_transfers WHERE ref = ?)",
  binds: [ref],
});

function accountIdSql(account: Account): Sql {
  if (!("userId" in account)) return { sql: "?", binds: [PLATFORM_ACCOUNT_IDS[account.kind]] };
  return {
    sql: "(SELECT id FROM ledger_accounts WHERE user_id = ? AND kind = ?)",
    binds: [account.userId, account.kind],
  };
}

/**
 * The statements of one balanced transfer, in order: create the accounts it touches, open it, write each entry
 * (only if `guard` holds), close it. Zero legs are left out; a transfer with nothing left fails to close.
 */
export function transferStatements(db: D1Database, spec: TransferSpec): D1PreparedStatement[] {
  const ref = spec.ref ?? newTransferRef();
  const legs = spec.legs.filter((leg) => leg.amount !== 0);
  const statements: D1PreparedStatement[] = [];
  const userAccounts = new Map<string, { userId: number; kind: string }>();
  for (const { account } of legs)
    if ("userId" in account) userAccounts.set(`${account.userId}:${account.kind}`, account);
  if (userAccounts.size > 0) {
    const rows = [...userAccounts.values()];
    statements.push(
      db
        .prepare(`INSERT OR IGNORE INTO ledger_accounts (kind, user_id) VALUES ${rows.map(() => "(?, ?)").join(", ")}`)
        .bind(...rows.flatMap((account) => [account.kind, account.userId])),
    );
  }
  statements.push(
    db
      .prepare("INSERT INTO ledger_transfers (ref, kind, memo, created_at) VALUES (?, ?, ?, ?)")
      .bind(ref, spec.kind, spec.memo ?? "", spec.createdAt ?? isoNow()),
  );
  for (const leg of legs) {
    const account = accountIdSql(leg.account);
    const amount: Sql = typeof leg.amount === "number" ? { sql: "?", binds: [leg.amount] } : leg.amount;
    const guard = spec.guard ? ` AND (${spec.guard.sql})` : "";
    statements.push(
      db
        .prepare(
          `INSERT INTO ledger_entries (transfer_id, account_id, amount_cents)
           SELECT t.id, ${account.sql}, ${amount.sql} FROM ledger_transfers t WHERE t.ref = ?${guard}`,
        )
        .bind(...account.binds, ...amount.binds, ref, ...(spec.guard?.binds ?? [])),
    );
  }
  statements.push(db.prepare("UPDATE ledger_transfers SET closed = 1 WHERE ref = ?").bind(ref));
  return statements;
}

/** Why a money batch was refused by the database, or null when the error is something else. */
export type LedgerRefusal =
  "insufficient_funds" | "state_changed" | "duplicate_payment" | "duplicate_payout" | "open_payout" | "duplicate_event";

export function ledgerRefusal(error: unknown): LedgerRefusal | null {
  const text = String(error instanceof Error ? error.message : error);
  if (text.includes("balance_not_negative")) return "insufficient_funds";
  if (text.includes("ledger: unbalanced transfer")) return "state_changed";
  if (text.includes("payments.user_id, payments.idempotency_key") || text.includes("payments_idempotency"))
    return "duplicate_payment";
  if (text.includes("payouts.creator_id, payouts.idempotency_key") || text.includes("payouts_idempotency"))
    return "duplicate_payout";
  if (text.includes("payouts.creator_id") || text.includes("payouts_one_open")) return "open_payout";
  if (text.includes("provider_events.provider")) return "duplicate_event";
  return null;
}

/** The balance of one account as an SQL scalar (0 when it has never been used), for guards. */
export function balanceSql(account: Account): Sql {
  const id = accountIdSql(account);
  return { sql: `COALESCE((SELECT balance_cents FROM ledger_accounts WHERE id = ${id.sql}), 0)`, binds: id.binds };
}

/** The balance of one account, 0 when it has never been used. */
export function balanceRead(db: D1Database, account: Account): Read<number> {
  const id = accountIdSql(account);
  return {
    statement: db.prepare(`SELECT balance_cents FROM ledger_accounts WHERE id = ${id.sql}`).bind(...id.binds),
    answer: (result) => (result.results[0] as { balance_cents: number } | undefined)?.balance_cents ?? 0,
  };
}

export const balanceOf = (db: D1Database, account: Account): Promise<number> => readOne(balanceRead(db, account));

/** A user's three balances at once: wallet, pending and available earnings. */
export async function balancesOf(
  db: D1Database,
  userId: number,
): Promise<{ wallet: number; pending: number; available: number }> {
  const { results } = await db
    .prepare("SELECT kind, balance_cents FROM ledger_accounts WHERE user_id = ?")
    .bind(userId)
    .all<{ kind: AccountKind; balance_cents: number }>();
  const of = (kind: AccountKind) => results.find((row) => row.kind === kind)?.balance_cents ?? 0;
  return { wallet: of("wallet"), pending: of("earnings_pending"), available: of("earnings_available") };
}

export interface LedgerAudit {
  /** Transfers whose entries do not sum to zero, or with fewer than two entries. */
  unbalancedTransfers: number;
  /** Transfers left open (every write closes its transfer in the same batch). */
  openTransfers: number;
  /** Accounts below zero other than the provider's clearing account and debts, or a debt above zero. */
  negativeAccounts: number;
  /** Accounts whose stored balance differs from the sum of their entries. */
  driftedAccounts: number;
  /** The sum of every balance: 0 in a closed system. */
  totalCents: number;
}

/** Checks the books. Tests and the benchmark run it after their operations; every figure must be 0. */
export async function auditLedger(db: D1Database): Promise<LedgerAudit> {
  const [unbalanced, open, negative, drifted, total] = await db.batch<Record<string, number>>([
    db.prepare(
      `SELECT COUNT(*) AS n FROM (SELECT t.id FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
       GROUP BY t.id HAVING COUNT(e.id) < 2 OR COALESCE(SUM(e.amount_cents), 0) <> 0)`,
    ),
    db.prepare("SELECT COUNT(*) AS n FROM ledger_transfers WHERE closed = 0"),
    db.prepare(`SELECT COUNT(*) AS n FROM ledger_accounts
       WHERE (kind NOT IN ('provider_clearing', 'debt') AND balance_cents < 0) OR (kind = 'debt' AND balance_cents > 0)`),
    db.prepare(
      `SELECT COUNT(*) AS n FROM ledger_accounts a
       WHERE a.balance_cents <> (SELECT COALESCE(SUM(e.amount_cents), 0) FROM ledger_entries e WHERE e.account_id = a.id)`,
    ),
    db.prepare("SELECT COALESCE(SUM(balance_cents), 0) AS n FROM ledger_accounts"),
  ]);
  const n = (result: D1Result<Record<string, number>> | undefined) => Number(result?.results[0]?.n ?? 0);
  return {
    unbalancedTransfers: n(unbalanced),
    openTransfers: n(open),
    negativeAccounts: n(negative),
    driftedAccounts: n(drifted),
    totalCents: n(total),
  };
}
