/** Persistence of uploaded books. */
import type { Rights } from "./vocabulary.ts";
import type { Client } from "./db.ts";

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

/** The author-contract rights ceiling of a publisher's book, or null when unknown. */
export async function bookCeiling(
  db: Client,
  publisherId: string,
  bookId: string,
): Promise<Rights | null> {
  const rs = await db.execute({
    sql: "SELECT rights_ceiling FROM books WHERE publisher_id = ? AND id = ?",
    args: [publisherId, bookId],
  });
  return rs.rows[0] ? JSON.parse(String(rs.rows[0].rights_ceiling)) : null;
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

/** Removes a book and its chapters (used when an upload fails half way). */
export async function deleteBook(db: Client, publisherId: string, bookId: string): Promise<void> {
  // Foreign keys are not enforced by the store's connection, so the chapters go explicitly.
  await db.batch([
    {
      sql: "DELETE FROM articles WHERE publisher_id = ? AND book_id = ?",
      args: [publisherId, bookId],
    },
    { sql: "DELETE FROM books WHERE publisher_id = ? AND id = ?", args: [publisherId, bookId] },
  ], "write");
}

/** A publisher's books, newest first. */
export async function listBooks(db: Client, publisherId: string): Promise<Book[]> {
  const rs = await db.execute({
    sql: `SELECT id, title, author, format, original_name, rights_ceiling, chapters, created_at
          FROM books WHERE publisher_id = ? ORDER BY created_at DESC, id LIMIT 500`,
    args: [publisherId],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    title: String(r.title),
    author: String(r.author),
    format: String(r.format) as Book["format"],
    originalName: r.original_name === null ? null : String(r.original_name),
    rightsCeiling: JSON.parse(String(r.rights_ceiling)),
    chapters: Number(r.chapters),
    createdAt: new Date(Number(r.created_at)).toISOString(),
  }));
}
