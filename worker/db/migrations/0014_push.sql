-- Web push (worker/domain/push, sent by worker/push). One row per device that turned push on: the browser's
-- PushSubscription (endpoint, p256dh, auth), the app language the device used when it subscribed (the text of
-- its pushes is written in it) and a device name from its user agent for Settings → Notifications. An endpoint
-- belongs to one account at a time: subscribing it again moves it to the caller.
CREATE TABLE push_subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 1 AND 1024),
  p256dh TEXT NOT NULL CHECK (length(p256dh) BETWEEN 1 AND 128),
  auth TEXT NOT NULL CHECK (length(auth) BETWEEN 1 AND 64),
  language TEXT NOT NULL CHECK (length(language) BETWEEN 2 AND 10),
  label TEXT NOT NULL CHECK (length(label) <= 100),
  created_at TEXT NOT NULL,
  last_sent_at TEXT
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id, id);

-- Which kinds of push a user wants, on all their devices. No row: every kind is on.
CREATE TABLE push_preferences (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  messages INTEGER NOT NULL DEFAULT 1 CHECK (messages IN (0, 1)),
  posts INTEGER NOT NULL DEFAULT 1 CHECK (posts IN (0, 1)),
  earnings INTEGER NOT NULL DEFAULT 1 CHECK (earnings IN (0, 1)),
  subscriptions INTEGER NOT NULL DEFAULT 1 CHECK (subscriptions IN (0, 1)),
  interactions INTEGER NOT NULL DEFAULT 1 CHECK (interactions IN (0, 1)),
  live INTEGER NOT NULL DEFAULT 1 CHECK (live IN (0, 1)),
  updated_at TEXT NOT NULL
);
