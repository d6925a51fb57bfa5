-- RSL Open License Protocol clients (docs/decisions/rsl.md): one confidential OAuth client per
-- buyer, whose secret is stored as its SHA-256 only; rotating replaces the hash.
CREATE TABLE olp_clients (
  client_id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL UNIQUE REFERENCES buyers(id),
  secret_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  rotated_at INTEGER NOT NULL
);
