-- Issue 38 part 5: payouts paid (docs/decisions/billing.md "Payouts paid").
-- A publisher's payee details: the whole of them sealed (JWE, A256GCM) under FOLIO_PAYEE_KEY_SECRET
-- or the store's own key; beside it only what a list may show (method, last four, country, currency).
CREATE TABLE payee_details (
  publisher_id TEXT PRIMARY KEY REFERENCES publishers(id),
  sealed TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('iban', 'us_account', 'email')),
  last4 TEXT NOT NULL,
  country TEXT NOT NULL,
  currency TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Keys the node keeps for itself when the operator gave no secret (development): made once, by
-- INSERT OR IGNORE, so two processes agree on one.
CREATE TABLE node_keys (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- A batch the operator approved: its payouts are paid together from one export.
CREATE TABLE payout_batches (
  id TEXT PRIMARY KEY,
  month TEXT NOT NULL,
  payout_count INTEGER NOT NULL,
  total_micros INTEGER NOT NULL,
  approved_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  exported_at INTEGER
);

-- A payout's way to paid: `amount_micros` stays what the month earned (accrued); `paid_micros` is
-- what its batch pays (the collected basis, whole cents). In a batch once `batch_id` is set (never
-- unset); `state` 'paid' with `paid_at` and `reference`. A review hold is the operator's, with reason.
ALTER TABLE payouts ADD COLUMN batch_id TEXT REFERENCES payout_batches(id);
ALTER TABLE payouts ADD COLUMN paid_micros INTEGER;
ALTER TABLE payouts ADD COLUMN paid_at INTEGER;
ALTER TABLE payouts ADD COLUMN reference TEXT;
ALTER TABLE payouts ADD COLUMN review_hold TEXT;
CREATE INDEX payouts_by_month ON payouts (month, publisher_id);
CREATE INDEX payouts_by_batch ON payouts (batch_id);
