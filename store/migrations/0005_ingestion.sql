-- Ingestion jobs (issue 3): what a job needs to resume after a restart with its counts and
-- failure reasons intact, and how often it has been resumed (so a job that keeps dying ends).
ALTER TABLE ingestion_jobs ADD COLUMN unchanged INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ingestion_jobs ADD COLUMN reasons TEXT NOT NULL DEFAULT '{}';
ALTER TABLE ingestion_jobs ADD COLUMN resumes INTEGER NOT NULL DEFAULT 0;
-- One drain or sync at a time per publisher: a second request returns the job already active.
CREATE UNIQUE INDEX ingestion_jobs_one_active
  ON ingestion_jobs (publisher_id, kind) WHERE state != 'finished';
