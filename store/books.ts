/** Persistence of uploaded books. */
import type { Rights } from "./vocabulary.ts";
import { cachedCatalog } from "./config_cache.ts";
import { type Client, inWriteTx } from "./db.ts";

/** A book as stored; its chapters are articles of kind "chapter". */
export interface Book {
  id: string;
  title: string;
  author: string;
  format: "pdf" | "markdown" | "text";
  originalName: string | null;
  rightsCeiling: Rights;
  chapters: number;
  createdAt: string;
}

const BOOK_COLUMNS =
  "id, title, author, format, original_name, rights_ceiling, chapters, created_at";

/**
 * The author-contract rights ceiling of a publisher's book, or null when unknown; kept until the
 * catalog changes (store/config_cache.ts); `db` may be the request's `readView()`.
 */
export function bookCeiling(
  db: Client,
  publisherId: string,
  bookId: string,
): Promise<Rights | null> {
  return cachedCatalog(db, `ceiling\n${publisherId}\n${bookId}`, async () => {
    const rs = await db.execute({
      sql: "SELECT rights_ceiling FROM books WHERE publisher_id = ? AND id = ?",
      args: [publisherId, bookId],
    });
    return rs.rows[0] ? JSON.parse(String(rs.rows[0].rights_ceiling)) : null;
  });
}

/** Inserts a book (chapters are counted later with setBookChapters). */
export async function insertBook(
  db: Client,
  publisherId: string,
  book: Omit<Book, "chapters" | "createdAt">,
  options: { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO books (id, publisher_id, title, author, format, original_name,
            rights_ceiling, chapters, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
    args: [
      book.id,
      publisherId,
      book.title,
      book.author,
      book.format,
      book.originalName,
      JSON.stringify(book.rightsCeiling),
      options.now.getTime(),
    ],
  });
}

/** Records how many chapters a book was split into. */
export async function setBookChapters(
  db: Client,
  publisherId: string,
  bookId: string,
  chapters: number,
): Promise<void> {
  await db.execute({
    sql: "UPDATE books SET chapters = ? WHERE publisher_id = ? AND id = ?",
    args: [chapters, publisherId, bookId],
  });
}

/**
 * Removes a book and its chapter articles (with their tags; search rows follow by trigger), and
 * returns the chapters' article ids so the caller can drop their passages from search. Ledger
 * rows (charges, the call log, statements) name articles by id and are not touched.
 */
export async function deleteBook(
  db: Client,
  publisherId: string,
  bookId: string,
): Promise<string[]> {
  // The chapters go explicitly (not only by the books foreign key) to learn their ids.
  return await inWriteTx(db, async (tx) => {
    const rs = await tx.execute({
      sql: "DELETE FROM articles WHERE publisher_id = ? AND book_id = ? RETURNING id",
      args: [publisherId, bookId],
    });
    const ids = rs.rows.map((r) => String(r.id));
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      await tx.execute({
        sql: `DELETE FROM article_tags WHERE publisher_id = ? AND article_id IN (${
          batch.map(() => "?").join(",")
        })`,
        args: [publisherId, ...batch],
      });
    }
    await tx.execute({
      sql: "DELETE FROM books WHERE publisher_id = ? AND id = ?",
      args: [publisherId, bookId],
    });
    return ids;
  });
}

/** One chapter of a book, with its text (for counting words). */
export interface BookChapter {
  number: number;
  title: string;
  articleId: string;
  body: string;
}

/** A book's chapters in order. */
export async function bookChapters(
  db: Client,
  publisherId: string,
  bookId: string,
): Promise<BookChapter[]> {
  const rs = await db.execute({
    sql: `SELECT id, chapter_no, title, body FROM articles
          WHERE publisher_id = ? AND book_id = ? ORDER BY chapter_no`,
    args: [publisherId, bookId],
  });
  return rs.rows.map((r) => ({
    number: Number(r.chapter_no),
    title: String(r.title),
    articleId: String(r.id),
    body: String(r.body),
  }));
}

/** One of a publisher's books. */
export async function getBook(db: Client, publisherId: string, id: string): Promise<Book | null> {
  const rs = await db.execute({
    sql: `SELECT ${BOOK_COLUMNS} FROM books WHERE publisher_id = ? AND id = ?`,
    args: [publisherId, id],
  });
  return rs.rows[0] ? toBook(rs.rows[0]) : null;
}

/** A publisher's books, newest first. */
export async function listBooks(db: Client, publisherId: string): Promise<Book[]> {
  const rs = await db.execute({
    sql: `SELECT ${BOOK_COLUMNS} FROM books WHERE publisher_id = ?
          ORDER BY created_at DESC, id LIMIT 500`,
    args: [publisherId],
  });
  return rs.rows.map(toBook);
}

// deno-lint-ignore no-explicit-any
function toBook(r: any): Book {
  return {
    id: String(r.id),
    title: String(r.title),
    author: String(r.author),
    format: String(r.format) as Book["format"],
    originalName: r.original_name === null ? null : String(r.original_name),
    rightsCeiling: JSON.parse(String(r.rights_ceiling)),
    chapters: Number(r.chapters),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}
