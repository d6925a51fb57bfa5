-- One store-wide version of everything a search result is made of (articles and their text,
-- books' rights ceilings, chunks and their vectors, the search models), bumped by triggers on any
-- change whichever process commits it. A process keeps recent search results and serves one again
-- only while this number is unchanged (search/result_cache.ts): a change made anywhere is in the
-- next search's answer. Separate from config_version so ingestion does not empty the
-- configuration caches every request reads.
CREATE TABLE catalog_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0);

CREATE TRIGGER articles_insert_bumps_catalog AFTER INSERT ON articles
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER articles_update_bumps_catalog AFTER UPDATE ON articles
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER articles_delete_bumps_catalog AFTER DELETE ON articles
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER books_insert_bumps_catalog AFTER INSERT ON books
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER books_update_bumps_catalog AFTER UPDATE ON books
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER books_delete_bumps_catalog AFTER DELETE ON books
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER chunks_insert_bumps_catalog AFTER INSERT ON chunks
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER chunks_update_bumps_catalog AFTER UPDATE ON chunks
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER chunks_delete_bumps_catalog AFTER DELETE ON chunks
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER search_docs_update_bumps_catalog AFTER UPDATE ON search_docs
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER search_models_insert_bumps_catalog AFTER INSERT ON search_models
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER search_models_update_bumps_catalog AFTER UPDATE ON search_models
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER search_models_delete_bumps_catalog AFTER DELETE ON search_models
BEGIN UPDATE catalog_version SET version = version + 1 WHERE id = 1; END;
