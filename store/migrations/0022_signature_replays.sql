-- Web Bot Auth signatures are single-use (issue 28): each verified signature's replay key (a
-- SHA-256 of its keyid and nonce, or of the signature itself when it has no nonce) is held here
-- until the signature expires, so a replay is refused by every process on this store.
CREATE TABLE signature_replays (
  replay_key TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX signature_replays_by_expiry ON signature_replays (expires_at);
