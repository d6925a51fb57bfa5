-- Issue 38 part 2: receivables (docs/decisions/billing.md "Receivables"). An issued invoice's
-- state and what it asks for: the statement total less what was paid by card at checkout, rounded
-- to the cent, less the credit it applied. Payments are kept one row each, idempotent by key; the
-- credit balance is a ledger of signed entries, idempotent per source (an overpayment, a credit
-- note, an invoice that used credit). Suspension state lives on the buyer row, which every read
-- loads through the configuration cache (migration 0017 bumps its version on any buyer update).
CREATE TABLE invoices (
  seq INTEGER PRIMARY KEY REFERENCES invoice_numbers (seq),
  buyer_id TEXT NOT NULL,
  month TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  total_micros INTEGER NOT NULL,
  prepaid_micros INTEGER NOT NULL,
  credit_micros INTEGER NOT NULL DEFAULT 0,
  amount_due_micros INTEGER NOT NULL CHECK (amount_due_micros >= 0),
  paid_micros INTEGER NOT NULL DEFAULT 0 CHECK (paid_micros >= 0),
  state TEXT NOT NULL CHECK (state IN ('open', 'partially_paid', 'paid', 'void', 'uncollectible')),
  paid_at INTEGER,
  closed_reason TEXT,
  checkout_session_id TEXT,
  checkout_url TEXT,
  updated_at INTEGER NOT NULL,
  UNIQUE (buyer_id, month)
);
CREATE INDEX invoices_by_state_due ON invoices (state, due_at);
CREATE INDEX invoices_by_buyer ON invoices (buyer_id, seq);

CREATE TABLE invoice_payments (
  id TEXT PRIMARY KEY,
  invoice_seq INTEGER NOT NULL REFERENCES invoices (seq),
  buyer_id TEXT NOT NULL,
  amount_micros INTEGER NOT NULL CHECK (amount_micros > 0),
  -- The part that settled the invoice; the rest (an overpayment) went to the credit balance.
  applied_micros INTEGER NOT NULL CHECK (applied_micros >= 0),
  paid_on TEXT NOT NULL,
  method TEXT NOT NULL,
  reference TEXT NOT NULL DEFAULT '',
  idempotency_key TEXT NOT NULL UNIQUE,
  recorded_by TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX invoice_payments_by_invoice ON invoice_payments (invoice_seq, created_at);

CREATE TABLE buyer_credits (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL,
  amount_micros INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('overpayment', 'credit_note', 'invoice', 'void')),
  source_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX buyer_credits_by_buyer ON buyer_credits (buyer_id, created_at);

-- Reminders sent, once each per invoice (a webhook event is only kept when someone listens).
CREATE TABLE invoice_reminders (
  invoice_seq INTEGER NOT NULL REFERENCES invoices (seq),
  kind TEXT NOT NULL,
  sent_at INTEGER NOT NULL,
  PRIMARY KEY (invoice_seq, kind)
);

-- The buyer's suspension, if any: why ('payment_overdue' or 'manual'), the invoice, the note.
ALTER TABLE buyers ADD COLUMN suspension TEXT;

CREATE TABLE buyer_suspensions (
  id TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('payment_overdue', 'manual')),
  invoice_seq INTEGER,
  note TEXT NOT NULL DEFAULT '',
  started_at INTEGER NOT NULL,
  started_by TEXT NOT NULL,
  lifted_at INTEGER,
  lifted_by TEXT,
  lift_note TEXT
);
CREATE UNIQUE INDEX buyer_suspensions_one_open ON buyer_suspensions (buyer_id)
  WHERE lifted_at IS NULL;

-- Invoices issued before this migration: open, due 30 days after issue, nothing credited.
INSERT INTO invoices (seq, buyer_id, month, issued_at, due_at, total_micros, prepaid_micros,
                      amount_due_micros, state, updated_at)
SELECT n.seq, n.buyer_id, n.month, n.issued_at, n.issued_at + 30 * 86400000,
       s.total_micros, json_extract(s.document, '$.prepaidUsdCents') * 10000,
       json_extract(s.document, '$.amountDueUsdCents') * 10000,
       CASE WHEN json_extract(s.document, '$.amountDueUsdCents') = 0 THEN 'paid' ELSE 'open' END,
       n.issued_at
FROM invoice_numbers n JOIN statements s
  ON s.buyer_id = n.buyer_id AND s.month = n.month AND s.state = 'closed';
