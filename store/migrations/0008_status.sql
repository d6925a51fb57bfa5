-- Status figures (docs/SPEC.md "Status endpoints"; docs/DESIGN.md: aggregated per hour so 90 days stay
-- cheap). The call-log writer adds to these in the same batch as the call rows it writes.

-- Calls and server errors per UTC hour and surface.
CREATE TABLE status_hourly (
  hour INTEGER NOT NULL,
  surface TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (hour, surface)
) WITHOUT ROWID;

-- A mergeable latency sketch per hour, surface and kind ('all' calls, or 'search' for successful
-- searches): log-spaced buckets with 1% relative error (store/status.ts); counts add up exactly.
CREATE TABLE latency_hourly (
  hour INTEGER NOT NULL,
  surface TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('all', 'search')),
  bucket INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (hour, surface, kind, bucket)
) WITHOUT ROWID;

-- Probe rounds: every check of one round shares `at`; publisher_id is null for the health check.
ALTER TABLE probes ADD COLUMN publisher_id TEXT;
ALTER TABLE probes ADD COLUMN db_latency_ms REAL;

-- Probe round tokens: a round's requests carry the token so they stay out of the call log and the
-- meters. Only the SHA-256 is kept, and only for the few minutes a round takes.
CREATE TABLE probe_tokens (
  hash TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
