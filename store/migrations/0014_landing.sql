-- The landing path (issue 13): publisher-host pages, crawler payments, chapter URLs.

-- Agent-payment settings (JSON; NULL = the defaults in store/publishers.ts).
ALTER TABLE publishers ADD COLUMN agent_payments TEXT;

-- The path an article answers at on its publisher's host: the path of its canonical URL (or URL);
-- `/books/<bookId>/chapters/<n>` for a chapter. Filled by upsertArticle; older rows by
-- backfillSitePaths() at start, found through the partial index.
ALTER TABLE articles ADD COLUMN site_path TEXT;
CREATE INDEX articles_by_site_path ON articles (publisher_id, site_path) WHERE site_path IS NOT NULL;
CREATE INDEX articles_without_site_path ON articles (id) WHERE site_path IS NULL;

-- Chapters carry a date everywhere: the day their book was uploaded.
UPDATE articles SET published_at = (SELECT b.created_at FROM books b WHERE b.id = articles.book_id)
  WHERE kind = 'chapter' AND published_at IS NULL;

-- Web Bot Auth key directories a buyer registered: a request signed by a key of this directory is
-- that buyer's (origin of the Signature-Agent, e.g. https://bot.example).
CREATE TABLE buyer_signature_agents (
  agent TEXT PRIMARY KEY,
  buyer_id TEXT NOT NULL REFERENCES buyers(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
CREATE INDEX buyer_signature_agents_by_buyer ON buyer_signature_agents (buyer_id);
