-- Passkeys (worker/domain/passkeys). One row per WebAuthn credential a person registered: its id and COSE public
-- key (base64url), the signature counter and the backup flags the authenticator reported (kept for a later
-- policy on synced keys), the transports the browser named (JSON array), a name the person chose, and when it
-- was made and last used.
CREATE TABLE passkeys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id TEXT NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 1 AND 1400),
  public_key TEXT NOT NULL CHECK (length(public_key) BETWEEN 1 AND 4096),
  counter INTEGER NOT NULL DEFAULT 0 CHECK (counter >= 0),
  device_type TEXT NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up INTEGER NOT NULL CHECK (backed_up IN (0, 1)),
  transports TEXT NOT NULL DEFAULT '[]',
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX passkeys_user ON passkeys(user_id, id);

-- The challenges of ceremonies under way: single use (taking one deletes it) and short-lived. A registration's
-- belongs to the person adding a key; a sign-in's to nobody yet (discoverable credentials name no account).
CREATE TABLE passkey_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('registration', 'authentication')),
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges(expires_at);
