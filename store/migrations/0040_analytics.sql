-- Issue 34, the publisher's analytics: which article each call read, calls listed by time with
-- paging and filters, and the policy and price new articles get.

-- The article a call read (the first one, for a call that read several); NULL for calls that read
-- none (search, listings, protocol messages). Set by the read path (server/domain/reads/).
ALTER TABLE call_log ADD COLUMN article_id TEXT;

-- GET /api/publisher/calls pages by (at, id), newest first, within a date range: one index walk.
CREATE INDEX call_log_calls_by_time ON call_log (publisher_id, at DESC, id DESC)
  WHERE status != 'trace';

-- What an article new to the catalog gets at ingestion when its source names no policy or price
-- (docs/decisions/management-api.md "Defaults for new articles"); re-ingests keep their own.
ALTER TABLE publishers ADD COLUMN default_policy TEXT NOT NULL DEFAULT 'OBSERVE'
  CHECK (default_policy IN ('OBSERVE', 'PAYWALL', 'BLOCKED'));
ALTER TABLE publishers ADD COLUMN default_price_micros INTEGER
  CHECK (default_price_micros IS NULL OR default_price_micros >= 0);

-- Top articles by earnings within a window.
CREATE INDEX charges_by_publisher_article ON charges (publisher_id, created_at, article_id);
