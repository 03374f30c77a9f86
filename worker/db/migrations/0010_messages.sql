-- Chat (worker/domain/messages). Bodies live here in D1, not in the conversation's Durable Object: the
-- conversation list, the unread badge, chat media, the ledger batch of a paid message and the offline sync all
-- read them with SQL, and a paid message must be stored in the same batch as its payment. The ChatRoom object
-- only holds the sockets (typing, read receipts, delivery).

-- A conversation is one pair of members: user_low < user_high, at most one conversation per pair. The
-- Durable Object's name is derived from this pair (chat.{low}-{high}), never from what a client sends.
ALTER TABLE conversations ADD COLUMN user_low INTEGER REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE conversations ADD COLUMN user_high INTEGER REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE conversations ADD COLUMN last_message_id INTEGER;
CREATE UNIQUE INDEX conversations_pair ON conversations(user_low, user_high);

-- Per member: when the conversation last had activity (the list's order), what they have read (the other's
-- "Seen"), and whether they removed it from their list (it comes back with the next message).
ALTER TABLE conversation_members ADD COLUMN activity_at TEXT;
ALTER TABLE conversation_members ADD COLUMN last_read_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE conversation_members ADD COLUMN hidden_at TEXT;
CREATE INDEX conversation_members_list ON conversation_members(user_id, activity_at DESC, conversation_id DESC) WHERE hidden_at IS NULL;

-- A creator's message to many fans at once (subscribers, followers or both), delivered by the Queue consumer in
-- batches; `delivered` counts the messages written so far.
CREATE TABLE mass_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 8 AND 64),
  audience TEXT NOT NULL CHECK (audience IN ('subscribers', 'followers', 'both')),
  text TEXT NOT NULL CHECK (length(text) <= 2000),
  price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents BETWEEN 0 AND 20000),
  media_ids TEXT NOT NULL DEFAULT '[]',
  recipients INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'sent')),
  created_at TEXT NOT NULL,
  UNIQUE (sender_id, client_id)
);

-- One message. seq orders a conversation (assigned inside the INSERT, so two sends never share one); the
-- sender's client_id makes a send idempotent (the offline outbox resends with the same id). price_cents is a
-- pay-per-view price on a message with media (creators only); paid_cents what the sender paid to send it (a
-- fan writing to a creator with a per-message price).
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq > 0),
  sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 8 AND 64),
  text TEXT NOT NULL DEFAULT '' CHECK (length(text) <= 2000),
  price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents BETWEEN 0 AND 20000),
  paid_cents INTEGER NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  media_count INTEGER NOT NULL DEFAULT 0 CHECK (media_count BETWEEN 0 AND 10),
  mass_message_id INTEGER REFERENCES mass_messages(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  UNIQUE (conversation_id, seq),
  UNIQUE (sender_id, client_id)
);

-- A pay-per-view message bought: opens its media for that member, once and forever.
CREATE TABLE message_purchases (
  message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  price_cents INTEGER NOT NULL CHECK (price_cents > 0),
  created_at TEXT NOT NULL,
  PRIMARY KEY (message_id, user_id)
) WITHOUT ROWID;

-- The files of a message: uploads of the sender (purpose 'post': "content media", the same upload path as
-- posts). A file is in one post or in messages; one mass message's file is in each message it delivers.
CREATE TABLE message_media (
  message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (message_id, position)
) WITHOUT ROWID;
CREATE INDEX message_media_media ON message_media(media_id);

-- A mass message walks a creator's fans by id (keyset), through these two.
CREATE INDEX follows_creator_follower ON follows(creator_id, follower_id);
CREATE INDEX subscriptions_creator_live ON subscriptions(creator_id, fan_id) WHERE status IN ('active', 'cancelled');
