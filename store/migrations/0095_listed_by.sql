-- Issue 39: a site sync queues the pages its discovery finds as it reads them, in batches, so
-- nothing is held per page. listed_by: the sync job whose discovery last found the URL listed;
-- a URL listed twice in one run is recognised by it, and the site's pages no run found listed
-- (to re-check whether they are gone) are the ones whose listed_by is another job's.
ALTER TABLE source_urls ADD COLUMN listed_by TEXT;
-- A run's unchanged pages are counted by it (those it listed that it left alone).
CREATE INDEX source_urls_by_listing ON source_urls (publisher_id, listed_by, state);
