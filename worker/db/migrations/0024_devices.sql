-- Each session's device and place, and when it was last used; the devices each account has signed in from.

-- The browser and system are read from user_agent when shown; the place is the request's at sign-in.
ALTER TABLE sessions ADD COLUMN country TEXT NOT NULL DEFAULT 'XX' CHECK (length(country) = 2);
ALTER TABLE sessions ADD COLUMN region TEXT CHECK (region IS NULL OR length(region) BETWEEN 1 AND 3);
-- Moved forward at most once an hour, when the session is read from D1 anyway.
ALTER TABLE sessions ADD COLUMN last_active_at TEXT NOT NULL DEFAULT '';
UPDATE sessions SET last_active_at = created_at;

-- Every browser + system + country an account has signed in from: a sign-in from one not listed mails the
-- owner. Kept when sessions end, so that signing out does not make a device new again. '' is an unknown name.
CREATE TABLE known_devices (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  browser TEXT NOT NULL,
  system TEXT NOT NULL,
  country TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  PRIMARY KEY (user_id, browser, system, country)
) WITHOUT ROWID;
