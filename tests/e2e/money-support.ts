import { unique } from "./support";

/**
 * Money seeds for the e2e tests, written the way the app writes them so the books stay balanced: a verified
 * email (paying needs it) and a wallet funded exactly as creditTopUp credits a sandbox top-up — a closed top_up
 * transfer (provider clearing −X, wallet +X), the succeeded top_up payment that points at it, and the provider
 * event that was applied. Answers SQL, to run in the test's one await sql() call (each call is a slow wrangler process).
 */
export function fundedFanSql(username: string, cents: number): string {
  const ref = `seed${unique().replace(/[^a-z0-9]/gi, "")}`;
  const at = new Date().toISOString();
  const user = `(SELECT id FROM users WHERE username = '${username}')`;
  const transfer = `(SELECT id FROM ledger_transfers WHERE ref = '${ref}')`;
  return `UPDATE users SET email_verified_at = '${at}' WHERE username = '${username}';
     INSERT OR IGNORE INTO ledger_accounts (kind, user_id) VALUES ('wallet', ${user});
     INSERT INTO ledger_transfers (ref, kind, memo, created_at) VALUES ('${ref}', 'top_up', 'sandbox:${ref}', '${at}');
     INSERT INTO ledger_entries (transfer_id, account_id, amount_cents) VALUES (${transfer}, 2, ${-cents});
     INSERT INTO ledger_entries (transfer_id, account_id, amount_cents)
       VALUES (${transfer}, (SELECT id FROM ledger_accounts WHERE user_id = ${user} AND kind = 'wallet'), ${cents});
     UPDATE ledger_transfers SET closed = 1 WHERE ref = '${ref}';
     INSERT INTO payments (user_id, kind, amount_cents, status, provider, provider_ref, idempotency_key, request_hash, transfer_id, created_at, updated_at)
       VALUES (${user}, 'top_up', ${cents}, 'succeeded', 'sandbox', '${ref}', 'u:${ref}', 'seed', ${transfer}, '${at}', '${at}');
     INSERT INTO provider_events (provider, event_id, payment_id, received_at)
       VALUES ('sandbox', '${ref}', (SELECT id FROM payments WHERE provider = 'sandbox' AND provider_ref = '${ref}'), '${at}');`;
}

/** A verified member with an empty wallet. */
export const verifiedFanSql = (username: string) =>
  `UPDATE users SET email_verified_at = '${new Date().toISOString()}' WHERE username = '${username}';`;
