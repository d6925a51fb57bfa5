-- Buyer budgets and cancel at period end (issue 12).
-- A buyer's own monthly limits on per-read spend, below the platform cap: scope '*' is every
-- publisher together, any other scope is one publisher's id. Checked in the same conditional
-- write as the cap (store/charges.ts insertChargeWithinCap).
CREATE TABLE buyer_budgets (
  buyer_id TEXT NOT NULL REFERENCES buyers(id),
  scope TEXT NOT NULL,
  monthly_micros INTEGER NOT NULL CHECK (monthly_micros >= 0),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (buyer_id, scope)
);

-- When the buyer asked to end a license at the end of the paid month; the license keeps its rights
-- until `expires_at` (the next month's start) and is never billed again.
ALTER TABLE licenses ADD COLUMN cancel_requested_at INTEGER;
