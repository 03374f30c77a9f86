-- Accounts, sessions, one-time tokens, rate limits and the development mailbox.
-- Times are UTC ISO-8601 text unless the column name ends in _ms (epoch milliseconds).

CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL COLLATE NOCASE UNIQUE
    CHECK (length(username) BETWEEN 3 AND 30),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  email TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(email) <= 254),
  email_verified_at TEXT,
  password_hash TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  account_type TEXT NOT NULL CHECK (account_type IN (
    'male', 'female', 'couple', 'gay_couple', 'gay_man', 'lesbian', 'lesbian_couple',
    'studio', 'swinger', 'transsexual', 'transsexual_couple', 'other')),
  role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'creator', 'admin')),
  bio TEXT NOT NULL DEFAULT '',
  avatar_key TEXT,
  cover_key TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  user_agent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

-- Single-use secrets sent by email: magic sign-in links and password resets. Only the hash is kept.
CREATE TABLE one_time_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('magic_login', 'password_reset')),
  token_hash TEXT NOT NULL UNIQUE,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX one_time_tokens_user ON one_time_tokens(user_id, purpose);
CREATE INDEX one_time_tokens_expiry ON one_time_tokens(expires_at);

-- Fixed-window counters; a row per (action, subject).
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start_ms INTEGER NOT NULL,
  hits INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits(window_start_ms);

-- Every message a local run sends (worker/dev/mailbox.ts), shown at /dev/mailbox; the production Worker never writes here.
CREATE TABLE dev_mailbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX dev_mailbox_to ON dev_mailbox(to_address, id);

-- Posts exist from the start so that the demo creator has content; the composer and timeline come later.
CREATE TABLE posts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  text TEXT NOT NULL DEFAULT '',
  audience TEXT NOT NULL CHECK (audience IN ('everyone', 'followers', 'subscribers')),
  price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
  published_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX posts_user_published ON posts(user_id, published_at DESC);

CREATE TABLE post_media (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'video')),
  object_key TEXT NOT NULL UNIQUE,
  content_type TEXT NOT NULL,
  width INTEGER,
  height INTEGER
);
CREATE INDEX post_media_post ON post_media(post_id, position);
