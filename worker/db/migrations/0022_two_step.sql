-- Two-step sign-in: an authenticator app's secret (TOTP, RFC 6238), single-use recovery codes, the challenge a
-- sign-in answers with until its second step is given, and the devices trusted to skip it for 30 days.

-- One row per account that has started turning two-step sign-in on; it is on once `enabled_at` is set. The secret
-- is stored encrypted (AES-GCM, a key derived from APP_SECRET). `last_step` is the newest time step accepted, so
-- that a code once used is never accepted again (RFC 6238 §5.2).
CREATE TABLE two_step (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret TEXT NOT NULL,
  enabled_at TEXT,
  last_step INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE two_step_recovery_codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at TEXT,
  UNIQUE (user_id, code_hash)
);

-- A sign-in whose password (or magic link) was right, waiting for its second step. Only the token's hash is kept;
-- an emailed code, when asked for, is kept hashed beside it with its own expiry.
CREATE TABLE two_step_challenges (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  email_code_hash TEXT,
  email_code_expires_at TEXT,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX two_step_challenges_expiry ON two_step_challenges(expires_at);

-- "Trust this device for 30 days": the hash of the random token in the device's cookie.
CREATE TABLE two_step_trusted_devices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX two_step_trusted_devices_user ON two_step_trusted_devices(user_id);
CREATE INDEX two_step_trusted_devices_expiry ON two_step_trusted_devices(expires_at);
