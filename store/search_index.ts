/**
 * The search index's bookkeeping (migration 0002 and later): `search_docs` (one row per article:
 * its FTS rowid, dirty flag and vector sequence), `articles_fts`, and the article text search/
 * chunks and trains on. search/ derives everything from these; it holds no SQL of its own.
 */
import type { Client, InStatement } from "@libsql/client";

const marks = (ids: string[]) => ids.map(() => "?").join(",");

/** An article's text as search reads it. */
export interface ArticleText {
  id: string;
  title: string;
  summary: string;
  body: string;
}

/** Title, summary and body of the publisher's articles among `ids` (missing ids are left out). */
export async function articleTexts(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<ArticleText[]> {
  if (ids.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT id, title, summary, body FROM articles
          WHERE +publisher_id = ? AND id IN (${marks(ids)})`,
    args: [publisherId, ...ids],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    title: String(r.title),
    summary: String(r.summary),
    body: String(r.body),
  }));
}

/** Bytes of title, summary and body per article: `octet_length` answers without reading text. */
export async function articleSizes(
  db: Client,
  publisherId: string,
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT id, octet_length(title) + octet_length(summary) + octet_length(body) AS bytes
          FROM articles WHERE +publisher_id = ? AND id IN (${marks(ids)})`,
    args: [publisherId, ...ids],
  });
  return new Map(rs.rows.map((r) => [String(r.id), Number(r.bytes)]));
}

/** The statement that marks an article's chunks current (its text chunked as before). */
export function markCleanStatement(publisherId: string, articleId: string): InStatement {
  return {
    sql: "UPDATE search_docs SET dirty = 0 WHERE +publisher_id = ? AND article_id = ?",
    args: [publisherId, articleId],
  };
}

/** Ids of articles whose chunks are out of date (inserted or edited since last chunked). */
export async function dirtyArticles(
  db: Client,
  publisherId: string,
  limit: number,
): Promise<string[]> {
  const rs = await db.execute({
    sql: "SELECT article_id FROM search_docs WHERE publisher_id = ? AND dirty = 1 LIMIT ?",
    args: [publisherId, limit],
  });
  return rs.rows.map((r) => String(r.article_id));
}

/**
 * Publishers with work to do: dirty articles or chunks without vectors. Asked per publisher, so
 * each check stops at its first pending row: the background loop asks every round, and listing
 * every unembedded chunk (a book's 9,000 while its model waits) took 100-360 ms each time.
 */
export async function publishersWithWork(db: Client): Promise<string[]> {
  const rs = await db.execute(
    `SELECT id AS publisher_id FROM publishers p
     WHERE EXISTS (SELECT 1 FROM search_docs WHERE publisher_id = p.id AND dirty = 1)
       OR EXISTS (SELECT 1 FROM chunks WHERE publisher_id = p.id AND embedding IS NULL
         AND embed_attempts < 5)`,
  );
  return rs.rows.map((r) => String(r.publisher_id));
}

/** Indexed (not deleted) documents per publisher. */
export async function indexedCounts(db: Client): Promise<Map<string, number>> {
  const rs = await db.execute(
    "SELECT publisher_id, COUNT(*) AS n FROM search_docs WHERE deleted = 0 GROUP BY publisher_id",
  );
  return new Map(rs.rows.map((r) => [String(r.publisher_id), Number(r.n)]));
}

/** The publisher's latest vector change sequence. */
export async function maxSeq(db: Client, publisherId: string): Promise<number> {
  const rs = await db.execute({
    sql: "SELECT COALESCE(MAX(vseq), 0) AS v FROM search_docs WHERE publisher_id = ?",
    args: [publisherId],
  });
  return Number(rs.rows[0].v);
}

/** Up to `limit` articles whose vectors changed after sequence `after`. */
export async function changedSince(
  db: Client,
  publisherId: string,
  after: number,
  limit: number,
): Promise<string[]> {
  const rs = await db.execute({
    sql: `SELECT article_id FROM search_docs WHERE publisher_id = ? AND vseq > ? LIMIT ?`,
    args: [publisherId, after, limit],
  });
  return rs.rows.map((r) => String(r.article_id));
}

/**
 * Drops a publisher's chunks and model, marks every article dirty and writes its FTS rows again
 * from the articles, in one write batch: the start of a rebuild.
 */
export async function resetSearchIndex(db: Client, publisherId: string): Promise<void> {
  await db.batch([
    { sql: "DELETE FROM chunks WHERE publisher_id = ?", args: [publisherId] },
    { sql: "DELETE FROM search_models WHERE publisher_id = ?", args: [publisherId] },
    {
      sql: "UPDATE search_docs SET dirty = 1 WHERE publisher_id = ? AND deleted = 0",
      args: [publisherId],
    },
    {
      sql:
        "DELETE FROM articles_fts WHERE rowid IN (SELECT doc FROM search_docs WHERE publisher_id = ?)",
      args: [publisherId],
    },
    {
      sql: `INSERT INTO articles_fts (rowid, pub, title, summary, tags, body)
            SELECT d.doc, 'p' || lower(hex(a.publisher_id)) || 'x', a.title, a.summary, a.tags, a.body
            FROM search_docs d JOIN articles a ON a.id = d.article_id WHERE d.publisher_id = ?`,
      args: [publisherId],
    },
  ], "write");
}
