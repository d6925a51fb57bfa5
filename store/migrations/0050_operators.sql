-- Issue 38: the operator, whoever runs the node (docs/decisions/operator.md). Operators are made
-- by the admin CLI only; they sign in with a password and a TOTP second factor (RFC 6238), or use
-- an operator key (`opk_...`). Secrets are stored as hashes (keys, session tokens, recovery
-- codes; passwords as PBKDF2); the TOTP secret is kept to check codes and never shown after
-- enrolment. `totp_last_step` is the last 30-second step a code was accepted for: a code of that
-- step or earlier is refused, so a code cannot be replayed within its window.
CREATE TABLE operators (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  totp_secret TEXT,
  totp_pending TEXT,
  totp_enabled_at INTEGER,
  totp_last_step INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

-- A session is `password` after the password (it may only finish the second factor or enrol
-- one) and `full` after it. `fresh_codes`: recovery codes just made, sealed under a key derived
-- from the session's cookie token (which the store never holds), shown once after a redirect.
CREATE TABLE operator_sessions (
  token_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  stage TEXT NOT NULL CHECK (stage IN ('password', 'full')),
  fresh_codes TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX operator_sessions_by_operator ON operator_sessions (operator_id, expires_at);

CREATE TABLE operator_recovery_codes (
  code_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX operator_recovery_codes_by_operator ON operator_recovery_codes (operator_id);

CREATE TABLE operator_keys (
  id TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX operator_keys_by_operator ON operator_keys (operator_id, created_at);
