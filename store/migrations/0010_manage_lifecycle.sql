-- The management operations of issue 11 (part 2).

-- A rule's name, for people: the management API, explain and the public terms page show it.
ALTER TABLE content_rules ADD COLUMN name TEXT;

-- Unpublished articles: NULL = published. An unpublished article is left out of search, listings
-- and reads on every agent surface; its ledger rows (charges, call log, intents) stay.
ALTER TABLE articles ADD COLUMN unpublished_at INTEGER;

-- The management API lists the last 100 calls without the protocol trace rows (`_method:*` with
-- status trace) that MCP and A2A write beside each call; this keeps that a short index walk.
CREATE INDEX call_log_calls ON call_log (publisher_id, id DESC) WHERE status != 'trace';
