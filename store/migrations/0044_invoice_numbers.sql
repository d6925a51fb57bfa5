-- Issue 34: a buyer's closed statement is an invoice with a number (docs/decisions/billing.md
-- "Invoices"). One global sequence, given out when a month's statement closes (in its write
-- transaction, so a rolled-back close takes no number) or, for statements closed before this
-- migration, the first time the invoice is asked for. AUTOINCREMENT: a number is never reused.
CREATE TABLE invoice_numbers (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  buyer_id TEXT NOT NULL,
  month TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  UNIQUE (buyer_id, month)
);
