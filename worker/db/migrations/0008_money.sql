-- Money: a double-entry ledger in integer cents (USD), the user-facing records it justifies
-- (payments, earnings, payouts), payout methods and provider events. worker/domain/money/ledger.ts explains
-- how writes use it; the rules that keep money exact live here, in the database:
--   * an entry goes only into an open transfer, and entries are never updated or deleted;
--   * a transfer closes only when its entries sum to zero (and there are at least two), and never reopens;
--   * an account's balance is kept by a trigger from its entries, and may not go below zero, except the
--     provider's clearing account, whose negative balance is the money that came in from outside.
-- A D1 batch is one transaction: a statement that breaks a rule aborts the whole batch, so a write that fails
-- half-way leaves nothing behind.

CREATE TABLE ledger_accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('wallet', 'earnings_pending', 'earnings_available', 'platform_fees', 'provider_clearing', 'payouts')),
  -- The owner of a wallet or of earnings; NULL for the platform's own accounts (ids 1 to 3 below).
  user_id INTEGER REFERENCES users(id),
  balance_cents INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT balance_not_negative CHECK (kind = 'provider_clearing' OR balance_cents >= 0),
  CHECK ((user_id IS NULL) = (kind IN ('platform_fees', 'provider_clearing', 'payouts')))
);
CREATE UNIQUE INDEX ledger_accounts_of_user ON ledger_accounts(user_id, kind) WHERE user_id IS NOT NULL;
INSERT INTO ledger_accounts (id, kind, user_id) VALUES (1, 'platform_fees', NULL), (2, 'provider_clearing', NULL), (3, 'payouts', NULL);

CREATE TABLE ledger_transfers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- A random handle the statements of one batch use to find the transfer they are writing.
  ref TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('top_up', 'subscription', 'renewal', 'tip', 'post', 'message', 'release', 'withdrawal', 'payout_paid', 'payout_rejected', 'correction')),
  memo TEXT NOT NULL DEFAULT '',
  closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
  created_at TEXT NOT NULL
);

CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  transfer_id INTEGER NOT NULL REFERENCES ledger_transfers(id),
  account_id INTEGER NOT NULL REFERENCES ledger_accounts(id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents <> 0)
);
CREATE INDEX ledger_entries_transfer ON ledger_entries(transfer_id);
CREATE INDEX ledger_entries_account ON ledger_entries(account_id, id);

CREATE TRIGGER ledger_entries_open_transfer BEFORE INSERT ON ledger_entries
WHEN NOT EXISTS (SELECT 1 FROM ledger_transfers WHERE id = NEW.transfer_id AND closed = 0)
BEGIN
  SELECT RAISE(ABORT, 'ledger: entries go into an open transfer');
END;
CREATE TRIGGER ledger_entries_balance AFTER INSERT ON ledger_entries BEGIN
  UPDATE ledger_accounts SET balance_cents = balance_cents + NEW.amount_cents WHERE id = NEW.account_id;
END;
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries BEGIN
  SELECT RAISE(ABORT, 'ledger: entries are immutable');
END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries BEGIN
  SELECT RAISE(ABORT, 'ledger: entries are immutable');
END;

CREATE TRIGGER ledger_transfers_close_only BEFORE UPDATE ON ledger_transfers
WHEN OLD.closed = 1 OR NEW.closed <> 1 OR NEW.id <> OLD.id OR NEW.ref <> OLD.ref OR NEW.kind <> OLD.kind
  OR NEW.memo <> OLD.memo OR NEW.created_at <> OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'ledger: transfers are immutable');
END;
CREATE TRIGGER ledger_transfers_balanced BEFORE UPDATE OF closed ON ledger_transfers
WHEN (SELECT COUNT(*) < 2 OR COALESCE(SUM(amount_cents), 0) <> 0 FROM ledger_entries WHERE transfer_id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'ledger: unbalanced transfer');
END;
CREATE TRIGGER ledger_transfers_no_delete BEFORE DELETE ON ledger_transfers BEGIN
  SELECT RAISE(ABORT, 'ledger: transfers are immutable');
END;
CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts BEGIN
  SELECT RAISE(ABORT, 'ledger: accounts are never deleted');
END;

-- What a member paid or tried to pay: the /wallet history. A top-up starts pending (or waiting for the card
-- holder's confirmation) and succeeds when the provider says so; a payment from the wallet is written with its
-- transfer in one batch, so it exists only if the money moved. `idempotency_key` is the client's key ("u:…") or
-- the cron's ("s:…"); `request_hash` tells a replay from another request that reuses a key.
CREATE TABLE payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('top_up', 'subscription', 'renewal', 'tip', 'post', 'message')),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  status TEXT NOT NULL CHECK (status IN ('pending', 'requires_confirmation', 'succeeded', 'failed')),
  creator_id INTEGER REFERENCES users(id),
  post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
  subscription_id INTEGER REFERENCES subscriptions(id),
  -- A tip's message to the creator (at most 500 characters).
  note TEXT,
  provider TEXT CHECK (provider IN ('sandbox', 'stripe')),
  provider_ref TEXT,
  failure_reason TEXT,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  transfer_id INTEGER REFERENCES ledger_transfers(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CONSTRAINT payments_idempotency UNIQUE (user_id, idempotency_key),
  CHECK ((kind = 'top_up') = (provider IS NOT NULL)),
  CHECK (status <> 'succeeded' OR transfer_id IS NOT NULL)
);
CREATE INDEX payments_of_user ON payments(user_id, id DESC);
CREATE UNIQUE INDEX payments_provider_ref ON payments(provider, provider_ref) WHERE provider_ref IS NOT NULL;

-- A provider event (a Stripe webhook delivery, a sandbox card result) is applied once: its id is recorded in the
-- same batch as its effect, and a second delivery breaks this key and changes nothing.
CREATE TABLE provider_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  payment_id INTEGER REFERENCES payments(id),
  received_at TEXT NOT NULL,
  PRIMARY KEY (provider, event_id)
) WITHOUT ROWID;

-- One row per creator earning: the gross a fan paid, the platform's fee, the creator's net (held in
-- earnings_pending) and when it frees up. The release cron stamps `release_transfer_id` in the batch that moves
-- the money to earnings_available, so each earning is released exactly once.
CREATE TABLE earnings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id),
  payment_id INTEGER NOT NULL UNIQUE REFERENCES payments(id),
  source TEXT NOT NULL CHECK (source IN ('subscription', 'tip', 'post', 'message')),
  gross_cents INTEGER NOT NULL CHECK (gross_cents > 0),
  fee_cents INTEGER NOT NULL CHECK (fee_cents >= 0),
  net_cents INTEGER NOT NULL CHECK (net_cents >= 0),
  created_at TEXT NOT NULL,
  release_at TEXT NOT NULL,
  release_transfer_id INTEGER REFERENCES ledger_transfers(id),
  CHECK (gross_cents = fee_cents + net_cents)
);
CREATE INDEX earnings_of_creator ON earnings(creator_id, created_at);
CREATE INDEX earnings_held ON earnings(creator_id, release_at) WHERE release_transfer_id IS NULL;
CREATE INDEX earnings_due ON earnings(release_at) WHERE release_transfer_id IS NULL;
CREATE TRIGGER earnings_immutable BEFORE UPDATE ON earnings
WHEN OLD.release_transfer_id IS NOT NULL OR NEW.gross_cents <> OLD.gross_cents
  OR NEW.fee_cents <> OLD.fee_cents OR NEW.net_cents <> OLD.net_cents OR NEW.creator_id <> OLD.creator_id
BEGIN
  SELECT RAISE(ABORT, 'ledger: an earning never changes once released');
END;

-- Where a creator's payouts go: PayPal (the address, confirmed by typing it twice) or a bank transfer.
CREATE TABLE payout_methods (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('paypal', 'bank')),
  paypal_email TEXT,
  bank_account_holder TEXT,
  bank_name TEXT,
  bank_account_number TEXT,
  bank_routing_code TEXT,
  bank_country TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((kind = 'paypal') = (paypal_email IS NOT NULL))
);

-- A withdrawal request and its outcome. Requesting moves the amount from earnings_available to the platform's
-- payouts account; paid sends it out (to provider_clearing), rejected brings it back. The partial unique index
-- is spec §4's "only one withdrawal can be requested at a time", held by the database under races too.
CREATE TABLE payouts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id),
  amount_cents INTEGER NOT NULL CHECK (amount_cents >= 5000),
  status TEXT NOT NULL CHECK (status IN ('requested', 'paid', 'rejected')),
  method_kind TEXT NOT NULL CHECK (method_kind IN ('paypal', 'bank')),
  -- The payout method as it was when requested (JSON), so a later change does not redirect this payout.
  method_details TEXT NOT NULL CHECK (json_valid(method_details)),
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  request_transfer_id INTEGER NOT NULL REFERENCES ledger_transfers(id),
  decision_transfer_id INTEGER REFERENCES ledger_transfers(id),
  rejection_reason TEXT,
  decided_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  decided_at TEXT,
  CONSTRAINT payouts_idempotency UNIQUE (creator_id, idempotency_key)
);
CREATE UNIQUE INDEX payouts_one_open ON payouts(creator_id) WHERE status = 'requested';
CREATE INDEX payouts_of_creator ON payouts(creator_id, id DESC);
CREATE INDEX payouts_queue ON payouts(status, id);

-- The price a fan pays to send one message to a creator (0: messages are free).
ALTER TABLE users ADD COLUMN message_price_cents INTEGER NOT NULL DEFAULT 0 CHECK (message_price_cents BETWEEN 0 AND 20000);

-- New notification kinds: a renewal that failed for lack of funds, a post bought, a payout decided, a top-up
-- credited. SQLite cannot alter a CHECK, so the table is rebuilt with the same rows and indexes.
CREATE TABLE notifications_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('test', 'follow', 'subscription', 'tip', 'like', 'comment', 'message', 'creator_request',
                                     'renewal_failed', 'purchase', 'payout', 'top_up')),
  actor_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  read_at TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO notifications_new (id, user_id, kind, actor_id, params, read_at, created_at)
  SELECT id, user_id, kind, actor_id, params, read_at, created_at FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_user ON notifications(user_id, id DESC);
CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL;
