-- Subscription offers (docs/decisions/subscription-offers.md): bundles of the monthly plan, promotions, free-trial
-- links and the retention offer; who claimed which; what a subscription is priced by; gifts; plan changes.

-- A creator's bundles: `months` months of the monthly plan paid at once, `discount_percent` off.
CREATE TABLE subscription_bundles (
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  months INTEGER NOT NULL CHECK (months IN (3, 6, 12)),
  discount_percent INTEGER NOT NULL CHECK (discount_percent BETWEEN 5 AND 50),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (creator_id, months)
) WITHOUT ROWID;

-- A promotion (percent off for new fans, expired fans or both; 100% is a free trial of trial_days), a trial link
-- (code, trial_days free) or the retention offer (percent off the next `periods` renewals, shown on cancelling).
-- `claims` is kept by the trigger on offer_claims; the CHECK on it is what holds a claim limit under concurrent
-- claims: the claim that would pass the limit aborts its whole batch, payment included.
CREATE TABLE offers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('promotion', 'trial', 'retention')),
  percent_off INTEGER NOT NULL CHECK (percent_off BETWEEN 5 AND 100),
  trial_days INTEGER CHECK (trial_days BETWEEN 1 AND 30),
  audience TEXT CHECK (audience IN ('new', 'expired', 'both')),
  periods INTEGER NOT NULL DEFAULT 1 CHECK (periods BETWEEN 1 AND 12),
  code TEXT,
  claim_limit INTEGER CHECK (claim_limit > 0),
  claims INTEGER NOT NULL DEFAULT 0,
  ends_at TEXT,
  ended_at TEXT,
  created_at TEXT NOT NULL,
  CONSTRAINT offers_claim_limit CHECK (claim_limit IS NULL OR claims <= claim_limit),
  CHECK ((percent_off = 100) = (trial_days IS NOT NULL)),
  CHECK ((kind = 'promotion') = (audience IS NOT NULL)),
  CHECK ((kind = 'trial') = (code IS NOT NULL)),
  CHECK ((kind = 'retention') = (ends_at IS NULL))
);
CREATE UNIQUE INDEX offers_trial_code ON offers(creator_id, code) WHERE code IS NOT NULL;
CREATE UNIQUE INDEX offers_one_retention ON offers(creator_id) WHERE kind = 'retention' AND ended_at IS NULL;
CREATE INDEX offers_of_creator ON offers(creator_id, kind, id);

-- One row per claim. A fan claims an offer once; a free trial (a trial link or a 100% promotion) once per creator.
CREATE TABLE offer_claims (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  offer_id INTEGER NOT NULL REFERENCES offers(id) ON DELETE CASCADE,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  fan_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscription_id INTEGER NOT NULL REFERENCES subscriptions(id),
  free_trial INTEGER NOT NULL CHECK (free_trial IN (0, 1)),
  claimed_at TEXT NOT NULL,
  UNIQUE (offer_id, fan_id)
);
CREATE UNIQUE INDEX offer_claims_one_trial ON offer_claims(creator_id, fan_id) WHERE free_trial = 1;
CREATE INDEX offer_claims_of_offer ON offer_claims(offer_id, subscription_id);
CREATE TRIGGER offer_claims_running BEFORE INSERT ON offer_claims
WHEN NOT EXISTS (SELECT 1 FROM offers WHERE id = NEW.offer_id AND ended_at IS NULL AND (ends_at IS NULL OR ends_at > NEW.claimed_at))
BEGIN
  SELECT RAISE(ABORT, 'offer: not running');
END;
CREATE TRIGGER offer_claims_count AFTER INSERT ON offer_claims BEGIN
  UPDATE offers SET claims = claims + 1 WHERE id = NEW.offer_id;
END;

-- What prices a subscription. `price_cents` stays the plan's regular price the fan agreed to; an offer takes
-- `offer_percent` off the next `offer_renewals_left` renewals. A bundle is period 'month' with bundle_months.
-- A gift (gifted_by) is written cancelled: it ends at its date unless its member resumes it on their own money.
-- next_* is a plan change that takes over at the next renewal.
ALTER TABLE subscriptions ADD COLUMN bundle_months INTEGER CHECK (bundle_months IN (3, 6, 12));
ALTER TABLE subscriptions ADD COLUMN trial_ends_at TEXT;
ALTER TABLE subscriptions ADD COLUMN offer_id INTEGER REFERENCES offers(id);
ALTER TABLE subscriptions ADD COLUMN offer_percent INTEGER NOT NULL DEFAULT 0 CHECK (offer_percent BETWEEN 0 AND 100);
ALTER TABLE subscriptions ADD COLUMN offer_renewals_left INTEGER NOT NULL DEFAULT 0 CHECK (offer_renewals_left >= 0);
ALTER TABLE subscriptions ADD COLUMN gifted_by INTEGER REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE subscriptions ADD COLUMN next_period TEXT CHECK (next_period IN ('week', 'month', 'year'));
ALTER TABLE subscriptions ADD COLUMN next_bundle_months INTEGER CHECK (next_bundle_months IN (3, 6, 12));
ALTER TABLE subscriptions ADD COLUMN next_price_cents INTEGER CHECK (next_price_cents >= 0);

-- The offer that priced a payment (a promotion's first charge or discounted renewal, a trial's conversion, a
-- retention renewal), and the member a gift was for.
ALTER TABLE payments ADD COLUMN offer_id INTEGER REFERENCES offers(id);
ALTER TABLE payments ADD COLUMN gift_for_id INTEGER REFERENCES users(id);
-- An offer's revenue sums the payments of the subscriptions it brought (Dashboard → Promotions).
CREATE INDEX payments_of_subscription ON payments(subscription_id, created_at) WHERE subscription_id IS NOT NULL;

-- A gift's notification to its member. The CHECK of a kind changes only by making the table again (see 0015).
PRAGMA defer_foreign_keys = on;
CREATE TABLE notifications_rows AS SELECT * FROM notifications;
DROP TABLE notifications;
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('test', 'follow', 'subscription', 'tip', 'like', 'comment', 'message', 'creator_request',
                                     'renewal_failed', 'purchase', 'payout', 'top_up', 'live', 'gift')),
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
