-- The ingestion lifecycle (issue 11): jobs own the URLs they were started for, can be cancelled,
-- and are scheduled in turns. SQLite cannot change a CHECK constraint, so both tables are rebuilt
-- (create, copy, drop, rename); nothing references them, and the copy keeps upload order (rowid).
-- Foreign keys are enforced, so rows no publisher (or source) owns any more are not carried over.

-- scope: 'publisher' = the publisher's URLs at large (POST /jobs, the daily sync; one active per
-- kind); 'urls' = the URLs assigned to it when it was created (an upload, a retry).
-- queued_at orders the queue: a job that hands its turn back goes to the end of it.
-- cancelled = URLs a cancellation released from the queue.
CREATE TABLE ingestion_jobs_new (
  id TEXT PRIMARY KEY,
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('drain', 'sync')),
  scope TEXT NOT NULL DEFAULT 'publisher' CHECK (scope IN ('publisher', 'urls')),
  source_id TEXT,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'finished')),
  outcome TEXT CHECK (outcome IN ('SUCCEEDED', 'FAILED', 'CANCELLED')),
  discovered INTEGER NOT NULL DEFAULT 0,
  ingested INTEGER NOT NULL DEFAULT 0,
  unchanged INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  cancelled INTEGER NOT NULL DEFAULT 0,
  reasons TEXT NOT NULL DEFAULT '{}',
  reason TEXT,
  runner TEXT,
  resumes INTEGER NOT NULL DEFAULT 0,
  heartbeat_at INTEGER,
  created_at INTEGER NOT NULL,
  queued_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
INSERT INTO ingestion_jobs_new (id, publisher_id, kind, state, outcome, discovered, ingested,
    unchanged, failed, reasons, reason, runner, resumes, heartbeat_at, created_at, queued_at,
    started_at, finished_at)
  SELECT id, publisher_id, kind, state, outcome, discovered, ingested, unchanged, failed, reasons,
    reason, runner, resumes, heartbeat_at, created_at, created_at, started_at, finished_at
  FROM ingestion_jobs WHERE publisher_id IN (SELECT id FROM publishers);
DROP TABLE ingestion_jobs;
ALTER TABLE ingestion_jobs_new RENAME TO ingestion_jobs;
CREATE INDEX ingestion_jobs_by_publisher ON ingestion_jobs (publisher_id, created_at DESC);
CREATE INDEX ingestion_jobs_queue ON ingestion_jobs (state, queued_at) WHERE state != 'finished';
CREATE INDEX ingestion_jobs_by_source ON ingestion_jobs (publisher_id, source_id, created_at);
CREATE UNIQUE INDEX ingestion_jobs_one_active
  ON ingestion_jobs (publisher_id, kind) WHERE state != 'finished' AND scope = 'publisher';

-- job_id: the job that owns the URL while it is queued, then the job that last processed it.
-- 'cancelled': released from the queue by a cancelled job (kept, with the reason, until retried).
CREATE TABLE source_urls_new (
  publisher_id TEXT NOT NULL REFERENCES publishers(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
  title TEXT,
  state TEXT NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'ingested', 'unchanged', 'failed', 'blocked', 'cancelled')),
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
  SELECT u.publisher_id, u.url,
    CASE WHEN u.source_id IN (SELECT id FROM sources) THEN u.source_id END, u.title, u.state, u.reason, u.article_id, u.attempts,
    u.etag, u.last_modified, u.fetched_at, u.created_at,
    -- URLs queued now belong to the publisher's active drain, if one is running or waiting.
    CASE WHEN u.state = 'queued' THEN (SELECT j.id FROM ingestion_jobs j
      WHERE j.publisher_id = u.publisher_id AND j.kind = 'drain' AND j.state != 'finished') END
  FROM source_urls u WHERE u.publisher_id IN (SELECT id FROM publishers) ORDER BY u.rowid;
DROP TABLE source_urls;
ALTER TABLE source_urls_new RENAME TO source_urls;
CREATE INDEX source_urls_by_state ON source_urls (publisher_id, state);
CREATE INDEX source_urls_by_job ON source_urls (job_id, state);
CREATE INDEX source_urls_by_source ON source_urls (publisher_id, source_id, state);
