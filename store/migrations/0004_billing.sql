-- Billing (issue 5): statements that close, checkout state on licenses, card-settled charges.

-- The statement a ledger row appears on. Usually its own month; a row written after its month's
-- statement closed lands on the next open month as an adjustment line (docs/TEST-PLAN.md B9/B15: a closed
-- statement is never edited).
ALTER TABLE charges ADD COLUMN statement_month TEXT;
UPDATE charges SET statement_month = month WHERE statement_month IS NULL;
CREATE INDEX charges_by_statement ON charges (buyer_id, statement_month);
CREATE INDEX charges_by_publisher_statement ON charges (publisher_id, statement_month);

-- 'card' when the payment processor collected the charge at checkout; NULL = settled by invoice.
ALTER TABLE charges ADD COLUMN paid_via TEXT CHECK (paid_via IS NULL OR paid_via = 'card');

-- Checkout (docs/SPEC.md "States": a license activates when checkout completes).
ALTER TABLE licenses ADD COLUMN checkout_url TEXT;
ALTER TABLE licenses ADD COLUMN processor_subscription_id TEXT;
-- One open checkout per buyer, publisher and bundle: a double-click reuses it (docs/TEST-PLAN.md B13).
CREATE UNIQUE INDEX licenses_one_pending ON licenses (buyer_id, publisher_id, use_cases)
  WHERE state = 'pending';
CREATE INDEX licenses_active ON licenses (state, monthly_fee_micros);

-- A closed statement is immutable, whoever tries to change it.
CREATE TRIGGER statements_closed_no_update BEFORE UPDATE ON statements
  WHEN OLD.state = 'closed'
BEGIN
  SELECT RAISE(ABORT, 'statement is closed');
END;
CREATE TRIGGER statements_closed_no_delete BEFORE DELETE ON statements
  WHEN OLD.state = 'closed'
BEGIN
  SELECT RAISE(ABORT, 'statement is closed');
END;

-- What a processor event did, for audit: the payment_events row is the idempotency record.
ALTER TABLE payment_events ADD COLUMN effect TEXT;
