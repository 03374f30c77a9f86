-- A creator's welcome message (docs/decisions/welcome-message.md): sent once to each new subscriber.

-- The creator's settings: one row per creator who has saved them.
CREATE TABLE welcome_messages (
  creator_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  text TEXT NOT NULL CHECK (length(text) <= 2000),
  price_cents INTEGER NOT NULL CHECK (price_cents BETWEEN 0 AND 20000),
  media_ids TEXT NOT NULL DEFAULT '[]',
  updated_at TEXT NOT NULL
) WITHOUT ROWID;

-- The welcome messages still to send: written in the batch that creates a subscription, with the settings of that
-- moment, and deleted once the message is in the fan's conversation.
CREATE TABLE welcome_deliveries (
  subscription_id INTEGER PRIMARY KEY REFERENCES subscriptions(id) ON DELETE CASCADE,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  fan_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  price_cents INTEGER NOT NULL,
  media_ids TEXT NOT NULL,
  created_at TEXT NOT NULL
);
