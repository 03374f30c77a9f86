-- What the app shell reads: follows (suggested profiles, the home flag), notifications and conversation
-- membership (the unread counts of /api/updates), and the user search index.

-- Following a creator. Subscribing will add a follow too (as on OnlyFans), so the home flag and the timeline
-- only ever look here. follower_count is kept on users so that suggestions rank without a scan.
CREATE TABLE follows (
  follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (follower_id, creator_id),
  CHECK (follower_id <> creator_id)
) WITHOUT ROWID;
CREATE INDEX follows_creator ON follows(creator_id, created_at);

ALTER TABLE users ADD COLUMN follower_count INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0);
-- When the user last opened /home; posts published after it light the Home dot.
ALTER TABLE users ADD COLUMN home_seen_at TEXT;
CREATE INDEX users_creators_by_followers ON users(follower_count DESC, id) WHERE role = 'creator';

CREATE TRIGGER follows_count_insert AFTER INSERT ON follows BEGIN
  UPDATE users SET follower_count = follower_count + 1 WHERE id = NEW.creator_id;
END;
CREATE TRIGGER follows_count_delete AFTER DELETE ON follows BEGIN
  UPDATE users SET follower_count = follower_count - 1 WHERE id = OLD.creator_id;
END;

-- A notification for one user. `kind` says which sentence the client shows; `params` holds its JSON values.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('test', 'follow', 'subscription', 'tip', 'like', 'comment', 'message', 'creator_request')),
  actor_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  read_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX notifications_user ON notifications(user_id, id DESC);
CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL;

-- Conversations and who is in them; the chat work adds messages. unread_count is kept per member so that the
-- Messages badge (conversations with anything unread) is one indexed count.
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at TEXT NOT NULL,
  last_message_at TEXT
);
CREATE TABLE conversation_members (
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  unread_count INTEGER NOT NULL DEFAULT 0 CHECK (unread_count >= 0),
  last_read_at TEXT,
  PRIMARY KEY (conversation_id, user_id)
) WITHOUT ROWID;
CREATE INDEX conversation_members_unread ON conversation_members(user_id) WHERE unread_count > 0;

-- User search (spec §7 /searchUsers): FTS5 over username and name, kept in step with users by triggers.
-- unicode61 splits "mia.rivers" into "mia" and "rivers", so either part matches as a prefix.
CREATE VIRTUAL TABLE users_search USING fts5(
  username, name,
  content = 'users', content_rowid = 'id',
  tokenize = "unicode61 remove_diacritics 2"
);
INSERT INTO users_search(users_search) VALUES ('rebuild');

CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
  INSERT INTO users_search(rowid, username, name) VALUES (NEW.id, NEW.username, NEW.name);
END;
CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
  INSERT INTO users_search(users_search, rowid, username, name) VALUES ('delete', OLD.id, OLD.username, OLD.name);
END;
CREATE TRIGGER users_search_update AFTER UPDATE OF username, name ON users BEGIN
  INSERT INTO users_search(users_search, rowid, username, name) VALUES ('delete', OLD.id, OLD.username, OLD.name);
  INSERT INTO users_search(rowid, username, name) VALUES (NEW.id, NEW.username, NEW.name);
END;
