-- The management operations of issue 11 (part 2).

-- A rule's name, for people: the management API, explain and the public terms page show it.
ALTER TABLE content_rules ADD COLUMN name TEXT;

-- Unpublished articles: NULL = published. An unpublished article is left out of search, listings
-- and reads on every agent surface; its ledger rows (charges, call log, intents) stay.
ALTER TABLE articles ADD COLUMN unpublished_at INTEGER;
