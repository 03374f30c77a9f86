-- Account deletion (docs/decisions/account-deletion.md). A person asks: the account is hidden at once (suspended_at,
-- the mark every query already reads) and `deletion_due_at` says when the cron deletes it; signing in before then
-- and keeping the account clears both. Once deleted, the users row stays as a nameless tombstone (`deleted_at`):
-- the ledger's accounts, payments and earnings still point at it.
ALTER TABLE users ADD COLUMN deletion_due_at TEXT;
ALTER TABLE users ADD COLUMN deleted_at TEXT;
CREATE INDEX users_deletion_due ON users(deletion_due_at) WHERE deletion_due_at IS NOT NULL;

-- The payout the deletion job requests for what a leaving creator has available: `closing` waives the $50 minimum,
-- so that no amount is stranded on a deleted account. SQLite cannot alter a CHECK, so the table is rebuilt with the
-- same rows and indexes (nothing points at payouts).
CREATE TABLE payouts_rows AS SELECT * FROM payouts;
DROP TABLE payouts;
CREATE TABLE payouts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  status TEXT NOT NULL CHECK (status IN ('requested', 'paid', 'rejected')),
  method_kind TEXT NOT NULL CHECK (method_kind IN ('paypal', 'bank')),
  method_details TEXT NOT NULL CHECK (json_valid(method_details)),
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  request_transfer_id INTEGER NOT NULL REFERENCES ledger_transfers(id),
  decision_transfer_id INTEGER REFERENCES ledger_transfers(id),
  rejection_reason TEXT,
  decided_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  decided_at TEXT,
  closing INTEGER NOT NULL DEFAULT 0 CHECK (closing IN (0, 1)),
  CONSTRAINT payouts_idempotency UNIQUE (creator_id, idempotency_key),
  CHECK (amount_cents >= 5000 OR closing = 1)
);
INSERT INTO payouts (id, creator_id, amount_cents, status, method_kind, method_details, idempotency_key, request_hash,
                     request_transfer_id, decision_transfer_id, rejection_reason, decided_by, created_at, decided_at)
  SELECT id, creator_id, amount_cents, status, method_kind, method_details, idempotency_key, request_hash,
         request_transfer_id, decision_transfer_id, rejection_reason, decided_by, created_at, decided_at FROM payouts_rows;
DROP TABLE payouts_rows;
CREATE UNIQUE INDEX payouts_one_open ON payouts(creator_id) WHERE status = 'requested';
CREATE INDEX payouts_of_creator ON payouts(creator_id, id DESC);
CREATE INDEX payouts_queue ON payouts(status, id);
