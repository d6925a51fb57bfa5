-- Issue 38 part 4: disputes and credit notes (docs/decisions/billing.md "Disputes and credit notes").

-- A buyer's dispute of one or more of its items, all of one publisher. open → escalated (to the
-- operator, after FOLIO_DISPUTE_ESCALATE_DAYS undecided) → accepted | partially_accepted | refused.
CREATE TABLE disputes (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id),
  publisher_id TEXT NOT NULL REFERENCES publishers(id),
  state TEXT NOT NULL
    CHECK (state IN ('open', 'escalated', 'accepted', 'partially_accepted', 'refused')),
  reason TEXT NOT NULL,
  disputed_micros INTEGER NOT NULL CHECK (disputed_micros > 0),
  credited_micros INTEGER NOT NULL DEFAULT 0 CHECK (credited_micros >= 0),
  decision_reason TEXT,
  -- Who decided: "publisher:<id>", "operator:<id>".
  decided_by TEXT,
  decided_at INTEGER,
  escalated_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX disputes_by_buyer ON disputes (buyer_id, created_at);
CREATE INDEX disputes_by_publisher ON disputes (publisher_id, created_at);
CREATE INDEX disputes_by_state ON disputes (state, created_at);

-- The disputed items. UNIQUE (charge_id): an item is disputed once (a decision is final).
CREATE TABLE dispute_items (
  dispute_id TEXT NOT NULL REFERENCES disputes(id),
  charge_id TEXT NOT NULL UNIQUE REFERENCES charges(id),
  -- What the buyer was billed for it (price + fee) when disputed.
  amount_micros INTEGER NOT NULL CHECK (amount_micros > 0),
  credited_micros INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (dispute_id, charge_id)
);

-- Credit notes: one global sequence FOLIO-CN-000001… given out in the transaction that accepts
-- the dispute (AUTOINCREMENT: a rolled-back decision takes no number, none is ever reused).
CREATE TABLE credit_notes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  dispute_id TEXT NOT NULL UNIQUE REFERENCES disputes(id),
  buyer_id TEXT NOT NULL,
  publisher_id TEXT NOT NULL,
  amount_micros INTEGER NOT NULL CHECK (amount_micros > 0),
  -- statement: negative items on the original's still-open statement; balance: the original's
  -- statement is closed (or was paid by card), so the amount is a credit for the next invoice.
  applied_to TEXT NOT NULL CHECK (applied_to IN ('statement', 'balance')),
  statement_month TEXT NOT NULL,
  issued_at INTEGER NOT NULL
);
CREATE INDEX credit_notes_by_buyer ON credit_notes (buyer_id, seq);

-- A credit note's items are ledger rows (kind 'adjustment', negative amounts) naming the item they
-- credit and their note. credit_via 'balance' rows count in the publisher's payout of their
-- statement month but not on the buyer's statement (the credit balance carries them instead).
ALTER TABLE charges ADD COLUMN credit_of TEXT;
ALTER TABLE charges ADD COLUMN credit_note_id TEXT;
ALTER TABLE charges ADD COLUMN credit_via TEXT
  CHECK (credit_via IS NULL OR credit_via IN ('statement', 'balance'));
-- One credit row per original item at most: a decision retried or raced doubles nothing.
CREATE UNIQUE INDEX charges_one_credit ON charges (credit_of) WHERE credit_of IS NOT NULL;
