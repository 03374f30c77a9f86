-- Fan lists (docs/decisions/fan-lists.md): a creator's own named lists of fans. The lists the system keeps
-- (subscribers, tippers, top spenders, buyers…) are queries over existing rows (worker/domain/fan-lists/audience.ts)
-- and need no table; the indexes below are the ones those queries and the list pages walk.

CREATE TABLE fan_lists (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 50),
  created_at TEXT NOT NULL,
  -- Two lists of one name would be the same line twice in an "Add to list" menu.
  UNIQUE (creator_id, name)
);

-- A page of a list walks this primary key backwards from the last fan shown (keyset by fan id), so a page of a list
-- of 10,000 fans reads one page of rows, never the whole list.
CREATE TABLE fan_list_members (
  list_id INTEGER NOT NULL REFERENCES fan_lists(id) ON DELETE CASCADE,
  fan_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (list_id, fan_id)
) WITHOUT ROWID;
-- Which lists hold one fan (the "Add to list" menu), and the deletion of a member's rows.
CREATE INDEX fan_list_members_fan ON fan_list_members(fan_id, list_id);

-- What a fan spent with a creator (every list page shows it, top spenders and tippers are made of it): the paid
-- records of one pair, with what the sums need, in one index range.
CREATE INDEX payments_spent_with_creator ON payments(creator_id, user_id, created_at, kind, amount_cents)
  WHERE status = 'succeeded';
-- The buyers of one post (its primary key starts with the buyer).
CREATE INDEX post_purchases_post ON post_purchases(post_id, user_id);
-- Every copy of one mass message (its buyers).
CREATE INDEX messages_mass_copies ON messages(mass_message_id) WHERE mass_message_id IS NOT NULL;
