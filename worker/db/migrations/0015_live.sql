-- Live streams: the streams that lists and access checks read, and money of its own kind.
-- A stream is live until its creator ends it or goes silent (the LiveRoom's alarm); the LiveRoom Durable Object
-- holds its sockets, chat and heartbeat, and writes the viewer counts back here for the lists.
CREATE TABLE live_streams (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 100),
  audience TEXT NOT NULL CHECK (audience IN ('everyone', 'followers', 'subscribers')),
  -- The entry price, paid once from the wallet (0: free).
  price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents = 0 OR price_cents BETWEEN 100 AND 20000),
  -- An optional tip goal: what the tips of this stream should reach, and what for.
  goal_cents INTEGER CHECK (goal_cents IS NULL OR goal_cents BETWEEN 100 AND 10000000),
  goal_title TEXT CHECK (goal_title IS NULL OR length(goal_title) <= 100),
  transport TEXT NOT NULL CHECK (transport IN ('p2p', 'whip')),
  -- whip: the SFU's input (a Cloudflare Stream live input's uid), where the creator publishes (secret: the creator
  -- only) and where viewers play (given only to who may watch).
  media_input_id TEXT,
  publish_url TEXT,
  play_url TEXT,
  status TEXT NOT NULL CHECK (status IN ('live', 'ended')),
  started_at TEXT NOT NULL,
  ended_at TEXT,
  end_reason TEXT CHECK (end_reason IN ('creator', 'silent', 'moderation')),
  viewers INTEGER NOT NULL DEFAULT 0 CHECK (viewers >= 0),
  peak_viewers INTEGER NOT NULL DEFAULT 0 CHECK (peak_viewers >= 0),
  tips_cents INTEGER NOT NULL DEFAULT 0 CHECK (tips_cents >= 0),
  CHECK ((status = 'ended') = (ended_at IS NOT NULL)),
  CHECK ((status = 'ended') = (end_reason IS NOT NULL)),
  CHECK ((transport = 'whip') = (publish_url IS NOT NULL AND play_url IS NOT NULL))
);
-- One live stream per creator at a time.
CREATE UNIQUE INDEX live_streams_one_live ON live_streams(creator_id) WHERE status = 'live';
-- "Streaming right now", newest first.
CREATE INDEX live_streams_now ON live_streams(started_at DESC) WHERE status = 'live';
CREATE INDEX live_streams_of_creator ON live_streams(creator_id, id DESC);

-- New kinds of money: 'live' (a stream's entry price) and 'live_tip' (a tip during a stream), both earning under
-- the source 'live'; and the 'live' notification (a creator one follows went live). SQLite cannot alter a CHECK,
-- so these tables are rebuilt with the same rows, indexes and triggers: the rows are set aside, the table is dropped
-- and made again under its own name (the foreign keys that point at it, deferred, find their rows again when they
-- are copied back: renaming a new table instead would leave them counted as broken), and the rows copied back.
PRAGMA defer_foreign_keys = on;

CREATE TABLE ledger_transfers_rows AS SELECT * FROM ledger_transfers;
DROP TABLE ledger_transfers;
CREATE TABLE ledger_transfers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ref TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('top_up', 'subscription', 'renewal', 'tip', 'post', 'message', 'live', 'live_tip',
                                     'release', 'withdrawal', 'payout_paid', 'payout_rejected', 'correction')),
  memo TEXT NOT NULL DEFAULT '',
  closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
  created_at TEXT NOT NULL
);
INSERT INTO ledger_transfers (id, ref, kind, memo, closed, created_at)
  SELECT id, ref, kind, memo, closed, created_at FROM ledger_transfers_rows;
DROP TABLE ledger_transfers_rows;
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

CREATE TABLE payments_rows AS SELECT * FROM payments;
DROP TABLE payments;
CREATE TABLE payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('top_up', 'subscription', 'renewal', 'tip', 'post', 'message', 'live', 'live_tip')),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  status TEXT NOT NULL CHECK (status IN ('pending', 'requires_confirmation', 'succeeded', 'failed')),
  creator_id INTEGER REFERENCES users(id),
  post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
  subscription_id INTEGER REFERENCES subscriptions(id),
  -- The stream an entry price or a live tip was paid in.
  live_stream_id INTEGER REFERENCES live_streams(id),
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
  CHECK (status <> 'succeeded' OR transfer_id IS NOT NULL),
  CHECK ((kind IN ('live', 'live_tip')) = (live_stream_id IS NOT NULL))
);
INSERT INTO payments (id, user_id, kind, amount_cents, status, creator_id, post_id, subscription_id, note, provider, provider_ref,
                          failure_reason, idempotency_key, request_hash, transfer_id, created_at, updated_at)
  SELECT id, user_id, kind, amount_cents, status, creator_id, post_id, subscription_id, note, provider, provider_ref,
         failure_reason, idempotency_key, request_hash, transfer_id, created_at, updated_at FROM payments_rows;
DROP TABLE payments_rows;
CREATE INDEX payments_of_user ON payments(user_id, id DESC);
CREATE UNIQUE INDEX payments_provider_ref ON payments(provider, provider_ref) WHERE provider_ref IS NOT NULL;
CREATE INDEX payments_open_top_ups ON payments(provider, created_at) WHERE status IN ('pending', 'requires_confirmation');
-- Who paid a stream's entry price (the entitlement), and its tips.
CREATE INDEX payments_of_stream ON payments(live_stream_id, kind, user_id) WHERE live_stream_id IS NOT NULL;

CREATE TABLE earnings_rows AS SELECT * FROM earnings;
DROP TABLE earnings;
CREATE TABLE earnings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id),
  payment_id INTEGER NOT NULL UNIQUE REFERENCES payments(id),
  source TEXT NOT NULL CHECK (source IN ('subscription', 'tip', 'post', 'message', 'live')),
  gross_cents INTEGER NOT NULL CHECK (gross_cents > 0),
  fee_cents INTEGER NOT NULL CHECK (fee_cents >= 0),
  net_cents INTEGER NOT NULL CHECK (net_cents >= 0),
  created_at TEXT NOT NULL,
  release_at TEXT NOT NULL,
  release_transfer_id INTEGER REFERENCES ledger_transfers(id),
  CHECK (gross_cents = fee_cents + net_cents)
);
INSERT INTO earnings (id, creator_id, payment_id, source, gross_cents, fee_cents, net_cents, created_at, release_at, release_transfer_id)
  SELECT id, creator_id, payment_id, source, gross_cents, fee_cents, net_cents, created_at, release_at, release_transfer_id FROM earnings_rows;
DROP TABLE earnings_rows;
CREATE INDEX earnings_of_creator ON earnings(creator_id, created_at);
CREATE INDEX earnings_held ON earnings(creator_id, release_at) WHERE release_transfer_id IS NULL;
CREATE INDEX earnings_due ON earnings(release_at) WHERE release_transfer_id IS NULL;
CREATE TRIGGER earnings_immutable BEFORE UPDATE ON earnings
WHEN OLD.release_transfer_id IS NOT NULL OR NEW.gross_cents <> OLD.gross_cents
  OR NEW.fee_cents <> OLD.fee_cents OR NEW.net_cents <> OLD.net_cents OR NEW.creator_id <> OLD.creator_id
BEGIN
  SELECT RAISE(ABORT, 'ledger: an earning never changes once released');
END;

CREATE TABLE notifications_rows AS SELECT * FROM notifications;
DROP TABLE notifications;
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('test', 'follow', 'subscription', 'tip', 'like', 'comment', 'message', 'creator_request',
                                     'renewal_failed', 'purchase', 'payout', 'top_up', 'live')),
  actor_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  read_at TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO notifications (id, user_id, kind, actor_id, params, read_at, created_at)
  SELECT id, user_id, kind, actor_id, params, read_at, created_at FROM notifications_rows;
DROP TABLE notifications_rows;
CREATE INDEX notifications_user ON notifications(user_id, id DESC);
CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL;
