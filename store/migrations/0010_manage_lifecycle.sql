-- The management operations of issue 11 (part 2).

-- A rule's name, for people: the management API, explain and the public terms page show it.
ALTER TABLE content_rules ADD COLUMN name TEXT;

-- Unpublished articles: NULL = published. An unpublished article is left out of search, listings
-- and reads on every agent surface; its ledger rows (charges, call log, intents) stay.
ALTER TABLE articles ADD COLUMN unpublished_at INTEGER;

-- The management API lists the last 100 calls without the protocol trace rows (`_method:*` with
-- status trace) that MCP and A2A write beside each call; this keeps that a short index walk.
CREATE INDEX call_log_calls ON call_log (publisher_id, id DESC) WHERE status != 'trace';

-- License requests are approved with a monthly price and a term, or denied with a reason.
ALTER TABLE license_requests ADD COLUMN price_micros INTEGER CHECK (price_micros IS NULL OR price_micros >= 0);
ALTER TABLE license_requests ADD COLUMN term_months INTEGER CHECK (term_months IS NULL OR term_months > 0);
ALTER TABLE license_requests ADD COLUMN reason TEXT;
-- A license with a term ends at expires_at (the first instant of the month after its last month):
-- it grants nothing and is billed no more from then on. NULL: until canceled.
ALTER TABLE licenses ADD COLUMN term_months INTEGER CHECK (term_months IS NULL OR term_months > 0);
ALTER TABLE licenses ADD COLUMN expires_at INTEGER;
