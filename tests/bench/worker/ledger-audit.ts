import { auditLedger, type LedgerAudit } from "../../../worker/domain/money/ledger";

export interface BenchBooks extends LedgerAudit {
  /** Wallets that paid out more than was ever credited to them (top-ups in, payments out). */
  overspentWallets: number;
  /** Tips recorded as succeeded, to compare with the 200 answers the benchmark counted. */
  succeededTips: number;
  /** Their total, to compare with what the creators' pending earnings and the fees gained. */
  tippedCents: number;
}

/**
 * For `npm run bench` only (GET /__bench/ledger-audit): the books after the money benchmark. Besides
 * auditLedger, it recomputes every wallet from its payments, independently of the ledger's own balances.
 */
export async function auditBooksForBench(db: D1Database): Promise<BenchBooks> {
  const audit = await auditLedger(db);
  const [overspent, tips] = await db.batch<{ n: number; cents: number }>([
    db.prepare(
      `SELECT COUNT(*) AS n, 0 AS cents FROM (
         SELECT user_id,
                SUM(CASE WHEN kind = 'top_up' THEN amount_cents ELSE 0 END) AS credited,
                SUM(CASE WHEN kind <> 'top_up' THEN amount_cents ELSE 0 END) AS spent
         FROM payments WHERE status = 'succeeded' GROUP BY user_id
       ) w JOIN ledger_accounts a ON a.user_id = w.user_id AND a.kind = 'wallet'
       WHERE w.spent > w.credited OR a.balance_cents <> w.credited - w.spent`,
    ),
    db.prepare(
      "SELECT COUNT(*) AS n, COALESCE(SUM(amount_cents), 0) AS cents FROM payments WHERE kind = 'tip' AND status = 'succeeded'",
    ),
  ]);
  return {
    ...audit,
    overspentWallets: overspent!.results[0]!.n,
    succeededTips: tips!.results[0]!.n,
    tippedCents: tips!.results[0]!.cents,
  };
}
