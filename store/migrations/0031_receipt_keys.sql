-- Issue 29 item 6: the keys that sign charge receipts (server/domain/billing/receipts.ts). The newest
-- key without retired_at signs; every key stays, so the JWKS keeps verifying old receipts after a
-- rotation. private_jwk is a JWE (dir, A256GCM) when FOLIO_RECEIPT_KEY_SECRET is set, else the JWK;
-- no route ever reads it.
CREATE TABLE receipt_keys (
  kid TEXT PRIMARY KEY,
  public_jwk TEXT NOT NULL,
  private_jwk TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  retired_at INTEGER
);
