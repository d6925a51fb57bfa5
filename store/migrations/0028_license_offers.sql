-- Offers the buyer accepts (issue 29 item 2, docs/decisions/billing.md "Offers"): approving a
-- license request makes an offer; nothing is billed until the buyer accepts it.

-- The most the buyer says it will pay a month for the license it asks for (NULL: not said).
ALTER TABLE license_requests ADD COLUMN max_monthly_micros INTEGER
  CHECK (max_monthly_micros IS NULL OR max_monthly_micros >= 0);

-- One offer per approved request. `state` moves once from 'open' to 'accepted', 'declined' or
-- 'expired'; an open offer past `expires_at` is expired whether or not the row says so yet (the
-- clock decides, at accept time and in every list).
CREATE TABLE license_offers (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL UNIQUE REFERENCES license_requests(id) ON DELETE CASCADE,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  buyer_id TEXT NOT NULL REFERENCES buyers(id),
  kind TEXT NOT NULL CHECK (kind IN ('request', 'enterprise')),
  use_cases TEXT NOT NULL,
  monthly_micros INTEGER NOT NULL CHECK (monthly_micros >= 0),
  term_months INTEGER CHECK (term_months IS NULL OR term_months > 0),
  terms TEXT,
  note TEXT,
  expires_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'open'
    CHECK (state IN ('open', 'accepted', 'declined', 'expired')),
  license_id TEXT REFERENCES licenses(id) ON DELETE SET NULL,
  decline_reason TEXT,
  decided_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX license_offers_by_buyer ON license_offers (buyer_id, created_at);

-- License fees billed in the month (subscriptions and accepted offers): the buyer's budgets count
-- them with per-read spend; the platform cap still counts per-read spend only.
ALTER TABLE monthly_spend ADD COLUMN license_micros INTEGER NOT NULL DEFAULT 0;

-- The buyer's own requests (GET /api/marketplace/license-requests) and an agent's (MCP status).
CREATE INDEX license_requests_by_buyer ON license_requests (buyer_id, created_at);
CREATE INDEX license_requests_by_identity ON license_requests (publisher_id, identity, created_at);
