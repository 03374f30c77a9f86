-- Refunds and chargebacks of top-ups (docs/decisions/disputes.md).
--
-- A fan's debt: when a reversed top-up takes more than the wallet holds, the rest is owed to the platform in an
-- account of kind 'debt', whose balance is never positive (like the provider's clearing account, a negative
-- balance is money the platform is owed). The wallet itself still never goes below zero; the wallet screen shows
-- wallet + debt. SQLite cannot alter a CHECK, so ledger_accounts is rebuilt with the same rows, ids, index and
-- trigger, the way 0015 rebuilt ledger_transfers (the foreign keys of ledger_entries, deferred, find their rows
-- again when they are copied back).
PRAGMA defer_foreign_keys = on;

CREATE TABLE ledger_accounts_rows AS SELECT * FROM ledger_accounts;
DROP TABLE ledger_accounts;
CREATE TABLE ledger_accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('wallet', 'earnings_pending', 'earnings_available', 'platform_fees', 'provider_clearing', 'payouts', 'debt')),
  user_id INTEGER REFERENCES users(id),
  balance_cents INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT balance_not_negative CHECK (kind IN ('provider_clearing', 'debt') OR balance_cents >= 0),
  CONSTRAINT debt_not_positive CHECK (kind <> 'debt' OR balance_cents <= 0),
  CHECK ((user_id IS NULL) = (kind IN ('platform_fees', 'provider_clearing', 'payouts')))
);
INSERT INTO ledger_accounts (id, kind, user_id, balance_cents)
  SELECT id, kind, user_id, balance_cents FROM ledger_accounts_rows;
DROP TABLE ledger_accounts_rows;
CREATE UNIQUE INDEX ledger_accounts_of_user ON ledger_accounts(user_id, kind) WHERE user_id IS NOT NULL;
CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts BEGIN
  SELECT RAISE(ABORT, 'ledger: accounts are never deleted');
END;

-- A Stripe top-up's PaymentIntent (pi_…), recorded when its Checkout Session is paid: charges and disputes name
-- the PaymentIntent, not the session.
ALTER TABLE payments ADD COLUMN provider_payment_ref TEXT;
CREATE UNIQUE INDEX payments_provider_payment_ref ON payments(provider, provider_payment_ref)
  WHERE provider_payment_ref IS NOT NULL;

-- A reversal of a top-up: a refund (final at once) or a dispute (open until the bank decides: won or lost).
-- `reversal_transfer_id` took the amount back (wallet first, the rest as debt); `closing_transfer_id` is a won
-- dispute's re-credit or a lost one's reversal of the held earnings to the platform (none when nothing was held).
CREATE TABLE disputes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('refund', 'dispute')),
  -- The dispute's id (du_…), or a refund's charge id with the charge's refunded total ("ch_…:2500").
  provider_ref TEXT NOT NULL,
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  -- What the wallet could not give back: the debt this reversal made.
  owed_cents INTEGER NOT NULL CHECK (owed_cents BETWEEN 0 AND amount_cents),
  reason TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('refunded', 'open', 'won', 'lost')),
  reversal_transfer_id INTEGER NOT NULL REFERENCES ledger_transfers(id),
  closing_transfer_id INTEGER REFERENCES ledger_transfers(id),
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  CONSTRAINT disputes_provider_ref UNIQUE (kind, provider_ref),
  CHECK ((kind = 'refund') = (status = 'refunded'))
);
CREATE INDEX disputes_of_payment ON disputes(payment_id);
CREATE INDEX disputes_newest ON disputes(id DESC);

-- A creator's pending earning held by an open dispute: the release cron skips it until the dispute is won (the
-- hold is lifted) or lost (the earning goes back to the platform, stamped with that transfer as its release).
ALTER TABLE earnings ADD COLUMN held_by_dispute_id INTEGER REFERENCES disputes(id);
CREATE INDEX earnings_held_by_dispute ON earnings(held_by_dispute_id) WHERE held_by_dispute_id IS NOT NULL;
