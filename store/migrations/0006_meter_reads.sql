-- The paywall meter counts distinct articles: reading the same article again in the same month
-- (a retry, or an MCP host reading the article resource after get_article) uses no second read.
CREATE TABLE meter_reads (
  publisher_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  month TEXT NOT NULL,
  article_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (publisher_id, identity, month, article_id)
);
