-- Search (docs/DESIGN.md section 7): full text on FTS5 inside the store, kept in sync by triggers, plus
-- the bookkeeping that lets every node's in-memory vector index follow changes (section 9).

-- One row per article ever indexed. doc is the FTS rowid: an INTEGER PRIMARY KEY never changes,
-- unlike articles' implicit rowid, which VACUUM may renumber. dirty = chunks must be rebuilt;
-- vseq = a store-wide sequence bumped whenever the article's vectors change (new chunks,
-- embeddings, deletion), so a node refreshes only what changed since the sequence it last saw.
CREATE TABLE search_docs (
  doc INTEGER PRIMARY KEY,
  article_id TEXT NOT NULL UNIQUE,
  publisher_id TEXT NOT NULL,
  dirty INTEGER NOT NULL DEFAULT 1,
  deleted INTEGER NOT NULL DEFAULT 0,
  vseq INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX search_docs_by_vseq ON search_docs (vseq);
CREATE INDEX search_docs_changes ON search_docs (publisher_id, vseq);
CREATE INDEX search_docs_dirty ON search_docs (publisher_id) WHERE dirty = 1;

-- Contentless (the text lives in articles; no second copy) with deletes. pub holds one token per
-- publisher ('p' + hex of its id + 'x', a shape the porter stemmer leaves alone) so a query is
-- scoped to its publisher inside the index; its bm25 weight is 0.
CREATE VIRTUAL TABLE articles_fts USING fts5(
  pub, title, summary, tags, body,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER articles_search_insert AFTER INSERT ON articles BEGIN
  INSERT INTO search_docs (article_id, publisher_id, dirty, deleted)
    VALUES (new.id, new.publisher_id, 1, 0)
    ON CONFLICT (article_id) DO UPDATE SET dirty = 1, deleted = 0;
  INSERT INTO articles_fts (rowid, pub, title, summary, tags, body)
    VALUES ((SELECT doc FROM search_docs WHERE article_id = new.id),
      'p' || lower(hex(new.publisher_id)) || 'x', new.title, new.summary, new.tags, new.body);
END;

CREATE TRIGGER articles_search_update AFTER UPDATE OF title, summary, tags, body ON articles BEGIN
  DELETE FROM articles_fts WHERE rowid = (SELECT doc FROM search_docs WHERE article_id = old.id);
  INSERT INTO articles_fts (rowid, pub, title, summary, tags, body)
    VALUES ((SELECT doc FROM search_docs WHERE article_id = new.id),
      'p' || lower(hex(new.publisher_id)) || 'x', new.title, new.summary, new.tags, new.body);
  UPDATE search_docs SET dirty = 1 WHERE article_id = new.id;
END;

CREATE TRIGGER articles_search_delete AFTER DELETE ON articles BEGIN
  DELETE FROM articles_fts WHERE rowid = (SELECT doc FROM search_docs WHERE article_id = old.id);
  UPDATE search_docs SET deleted = 1, dirty = 0,
    vseq = (SELECT COALESCE(MAX(vseq), 0) + 1 FROM search_docs)
    WHERE article_id = old.id;
END;

-- Articles that existed before this migration.
INSERT INTO search_docs (article_id, publisher_id) SELECT id, publisher_id FROM articles;
INSERT INTO articles_fts (rowid, pub, title, summary, tags, body)
  SELECT d.doc, 'p' || lower(hex(a.publisher_id)) || 'x', a.title, a.summary, a.tags, a.body
  FROM search_docs d JOIN articles a ON a.id = d.article_id;

-- Built-in embedder models, one per publisher, shared by every node so their vectors agree.
-- embedder is the id written to chunks.embedder for vectors this model made.
CREATE TABLE search_models (
  publisher_id TEXT PRIMARY KEY,
  embedder TEXT NOT NULL,
  version INTEGER NOT NULL,
  docs INTEGER NOT NULL,
  model BLOB NOT NULL,
  created_at INTEGER NOT NULL
);

-- Document frequency per indexed term: lets the query builder skip terms so common that bm25
-- gives them almost no weight but scanning their postings would dominate query time.
CREATE VIRTUAL TABLE articles_fts_vocab USING fts5vocab(articles_fts, 'row');
