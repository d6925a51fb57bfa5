-- Buyer passwords and sessions (issue 12 part 2): the buyer portal signs in with an email and
-- password or with the API key. Passwords are optional (accounts made before, or by the API, have
-- none); sessions are stored by the hash of their cookie token only, like dashboard_sessions.
-- `via` says how the session was opened ('password' or 'key'): rotating the key ends the other
-- sessions a key opened (ARCHITECTURE.md "Buyer portal").
ALTER TABLE buyers ADD COLUMN password_hash TEXT;

CREATE TABLE buyer_sessions (
  token_hash TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  via TEXT NOT NULL CHECK (via IN ('password', 'key')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX buyer_sessions_by_buyer ON buyer_sessions (buyer_id, expires_at);
