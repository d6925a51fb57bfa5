-- Onboarding by site (issue 30): a site is a source of kind 'site' whose URLs are found in its
-- sitemaps and feeds; each run of it is a 'sync' job of scope 'urls' that first discovers.
-- site_url: the address the publisher gave; last_synced_at: when its last run was queued;
-- sync_every_hours: how often the cron syncs it (null: daily).
ALTER TABLE sources ADD COLUMN site_url TEXT;
ALTER TABLE sources ADD COLUMN last_synced_at INTEGER;
ALTER TABLE sources ADD COLUMN sync_every_hours INTEGER;
CREATE UNIQUE INDEX sources_one_site ON sources (publisher_id, site_url) WHERE kind = 'site';

-- discovery: what a site run found (documents read, pages listed, problems), JSON, null until
-- the run has discovered; unpublished: pages that answered 404 or 410 and were unpublished.
ALTER TABLE ingestion_jobs ADD COLUMN discovery TEXT;
ALTER TABLE ingestion_jobs ADD COLUMN unpublished INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX ingestion_jobs_one_per_site
  ON ingestion_jobs (source_id) WHERE state != 'finished' AND kind = 'sync' AND scope = 'urls';

-- 'removed': the page answered 404 or 410 and its article was unpublished. SQLite cannot change a
-- CHECK constraint, so the table is rebuilt as in 0009 (create, copy in rowid order, swap).
CREATE TABLE source_urls_new (
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
  title TEXT,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'ingested', 'unchanged',
    'failed', 'blocked', 'cancelled', 'removed')),
  reason TEXT,
  article_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  etag TEXT,
  last_modified TEXT,
  fetched_at INTEGER,
  created_at INTEGER NOT NULL,
  job_id TEXT,
  PRIMARY KEY (publisher_id, url)
);
INSERT INTO source_urls_new (publisher_id, url, source_id, title, state, reason, article_id,
    attempts, etag, last_modified, fetched_at, created_at, job_id)
  SELECT publisher_id, url, source_id, title, state, reason, article_id, attempts, etag,
    last_modified, fetched_at, created_at, job_id
  FROM source_urls ORDER BY rowid;
DROP TABLE source_urls;
ALTER TABLE source_urls_new RENAME TO source_urls;
CREATE INDEX source_urls_by_state ON source_urls (publisher_id, state);
CREATE INDEX source_urls_by_job ON source_urls (job_id, state);
CREATE INDEX source_urls_by_source ON source_urls (publisher_id, source_id, state);
