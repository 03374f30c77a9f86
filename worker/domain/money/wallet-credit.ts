import { balanceSql, debtOf, walletOf, type Sql, type TransferSpec } from "./ledger";

/** How many times a credit is tried again when the member's debt moved between its read and its batch. */
export const CREDIT_ATTEMPTS = 3;

/**
 * Money coming into a member's wallet (a top-up, a won dispute) settles their debt first (docs/decisions/disputes.md):
 * the legs crediting `amountCents`, given the debt's balance as read (`debtCents`, 0 or negative), and the guard that
 * it is still that balance when the batch runs, so that a debt is never overpaid. A guard is checked as each entry is
 * written: the debt's leg comes last, and the caller's legs go before these.
 */
export function walletCreditLegs(
  userId: number,
  amountCents: number,
  debtCents: number,
): { legs: TransferSpec["legs"]; guard: Sql } {
  const settled = Math.min(amountCents, -debtCents);
  const debt = balanceSql(debtOf(userId));
  return {
    legs: [
      { account: walletOf(userId), amount: amountCents - settled },
      { account: debtOf(userId), amount: settled },
    ],
    guard: { sql: `${debt.sql} = ?`, binds: [...debt.binds, debtCents] },
  };
}

/** Joins two guards of one transfer. */
export const bothGuards = (first: Sql, second: Sql): Sql => ({
  sql: `(${first.sql}) AND (${second.sql})`,
  binds: [...first.binds, ...second.binds],
});
