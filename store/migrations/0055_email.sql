-- Issue 38 part 7: email (docs/decisions/email.md). The outbox is written in the caller's
-- transaction and drained by each node's mail worker, which leases rows as the webhook worker
-- does (lease_until, leased_by). `dedupe` + `recipient` is unique: one email per event (or reset
-- request) and recipient, whoever writes it and however often. `data` is what the template reads;
-- a reset's link is cleared once the row is sent or expires. A row not sent by `expires_at` is
-- expired, not sent late (a node that had email off must not flood inboxes when it is turned on).
CREATE TABLE email_outbox (
  id TEXT PRIMARY KEY,
  dedupe TEXT NOT NULL,
  recipient TEXT NOT NULL,
  template TEXT NOT NULL,
  owner_kind TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  data TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed', 'expired')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  lease_until INTEGER,
  leased_by TEXT,
  last_error TEXT,
  message_id TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE UNIQUE INDEX email_outbox_once ON email_outbox (dedupe, recipient);
CREATE INDEX email_outbox_due ON email_outbox (next_attempt_at) WHERE state = 'pending';

-- Password reset links: the token is stored only as its SHA-256 (server/platform/secrets.ts), for
-- one account of one kind (publisher user, buyer, operator), single-use, valid until expires_at.
CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY,
  account_kind TEXT NOT NULL,
  account_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX password_resets_by_account ON password_resets (account_kind, account_id);
