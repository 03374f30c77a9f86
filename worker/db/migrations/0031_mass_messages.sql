-- Mass messages aimed at lists (docs/decisions/mass-messages.md): a mass message names the lists it goes to
-- (`include`, a JSON array of ListRef) and those it skips (`exclude`), instead of one audience; it may wait for a
-- time (`send_at`, status 'scheduled'), be cancelled before it goes, or be unsent after.
--
-- SQLite cannot alter a CHECK, so the table is made again with the same ids (see 0015). Dropping it sets
-- messages.mass_message_id to NULL (ON DELETE SET NULL), so those links are set aside and written back.
PRAGMA defer_foreign_keys = on;

CREATE TABLE mass_messages_rows AS SELECT * FROM mass_messages;
CREATE TABLE mass_message_links AS SELECT id, mass_message_id FROM messages WHERE mass_message_id IS NOT NULL;
DROP TABLE mass_messages;
CREATE TABLE mass_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 8 AND 64),
  include_lists TEXT NOT NULL CHECK (json_valid(include_lists) AND json_array_length(include_lists) > 0),
  exclude_lists TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(exclude_lists)),
  text TEXT NOT NULL CHECK (length(text) <= 2000),
  price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents BETWEEN 0 AND 20000),
  media_ids TEXT NOT NULL DEFAULT '[]',
  -- Fans in the audience when it started going (0 while scheduled).
  recipients INTEGER NOT NULL DEFAULT 0,
  -- Copies written so far: "sent" in its results.
  delivered INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'sending' CHECK (status IN ('scheduled', 'sending', 'sent', 'cancelled', 'unsent')),
  -- When it goes: the time chosen, or when it was sent.
  send_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (sender_id, client_id)
);
INSERT INTO mass_messages (id, sender_id, client_id, include_lists, text, price_cents, media_ids, recipients, delivered, status, send_at, created_at)
  SELECT id, sender_id, client_id,
         CASE audience WHEN 'both' THEN '["subscribers","followers"]' ELSE json_array(audience) END,
         text, price_cents, media_ids, recipients, delivered, status, created_at, created_at
  FROM mass_messages_rows;
UPDATE messages SET mass_message_id = (SELECT l.mass_message_id FROM mass_message_links l WHERE l.id = messages.id)
  WHERE id IN (SELECT id FROM mass_message_links);
DROP TABLE mass_message_links;
DROP TABLE mass_messages_rows;

-- The cron finds the scheduled ones that are due; the list of a creator's mass messages, newest first.
CREATE INDEX mass_messages_due ON mass_messages(send_at) WHERE status = 'scheduled';
CREATE INDEX mass_messages_sender ON mass_messages(sender_id, id DESC);
-- A mass message's copies: its results and its unsend.
CREATE INDEX messages_mass_message ON messages(mass_message_id) WHERE mass_message_id IS NOT NULL;

-- The fans a mass message still has to reach, written once when it starts going (its audience at that moment);
-- each delivered batch removes its fans in the same D1 batch that writes their copies, so a retried or doubled
-- batch finds them gone and never sends twice.
CREATE TABLE mass_message_recipients (
  mass_message_id INTEGER NOT NULL REFERENCES mass_messages(id) ON DELETE CASCADE,
  fan_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (mass_message_id, fan_id)
) WITHOUT ROWID;
