/**
 * Book uploads (docs/SPEC.md "What the service does" 6): a PDF or a markdown/plain-text file split into
 * chapter-level units, each stored as an article of kind "chapter" whose rights are capped by the
 * book's author-contract ceiling (docs/SPEC.md "Content license"; read by server/domain/reads/read_article.ts).
 */
import { setChapterUrls, upsertArticle } from "../../../store/articles.ts";
import { getPublisher, type Publisher } from "../../../store/publishers.ts";
import { siteOrigin } from "../../platform/urls.ts";
import {
  type Book,
  bookChapters,
  deleteBook,
  getBook,
  insertBook,
  setBookChapters,
} from "../../../store/books.ts";
import { newId } from "../../../store/ids.ts";
import { eventLoopTurns } from "../../../store/turns.ts";
import { type Rights, USE_CASES } from "../../../store/vocabulary.ts";
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../../deps.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { Gate } from "./gate.ts";
import { type Chapter, splitMarkdown, splitPdf, splitPlainText } from "./book_split.ts";
import { type ChapterSource, markdownChapters } from "./book_split_bytes.ts";
import { type PdfLimits, pdfText } from "./pdf_text.ts";
import type { Upload } from "./upload.ts";

/** Upload limits: PDFs are bigger than the text they hold. */
export const MAX_PDF_BYTES = 50 * 1024 * 1024;
export const MAX_TEXT_BYTES = 10 * 1024 * 1024;
const MAX_CHAPTERS = 2000;

type BookFormat = "pdf" | "markdown" | "text";

/** What an upload created. */
export interface BookImport {
  bookId: string;
  chapters: number;
  format: BookFormat;
  titles: string[];
}

/**
 * The stored key of a book chapter: stable, never fetched, never mistaken for a web page. Never
 * shown: the chapter's canonical URL is its page on the publisher's site (syncChapterUrls).
 */
export function chapterUrl(bookId: string, n: number): string {
  return `book:${bookId}/chapter/${n}`;
}

/**
 * Points the publisher's chapters at their pages on its site (docs/SPEC.md: agents cite the URL):
 * its custom domain, else its pages on the platform (`siteOrigin()`). Runs at start, on
 * upload and when the domain moves.
 */
export async function syncChapterUrls(
  deps: Pick<AppDeps, "store" | "config">,
  publisher: Publisher,
): Promise<void> {
  await setChapterUrls(deps.store.db, publisher.id, siteOrigin(deps.config, publisher));
}

/**
 * Book imports this process runs at once. Each holds its book's text and chapters while it splits
 * and stores them, so four 10 MB books imported together lifted the process by 900 MB; uploads
 * beyond this wait their turn (their bodies are already read) and get the same answers.
 */
const imports = new Gate(1);

/** Book upload requests in progress, from the first byte of their body to their answer. */
let uploads = 0;

/**
 * Middleware counting a book upload in `importingBooks()` from before its body is read (Hono's
 * size limit reads a body without Content-Length) to its answer. Four books sent together arrive
 * over seconds: counting only imports let the model train after the first book, then train
 * again on all four (docs/decisions/search.md, "Training and re-chunking").
 */
export const receivingBook: MiddlewareHandler = async (_c, next) => {
  uploads++;
  try {
    await next();
  } finally {
    uploads--;
  }
};

/** True while a book upload is received, or its import runs or waits (models train after). */
export function importingBooks(): boolean {
  return uploads > 0 || !imports.idle;
}

/**
 * Validates, splits and stores an uploaded book; the chapters are indexed for search. The fields
 * are checked at once; the import itself waits for a free slot (`signal` gives up waiting).
 */
export async function importBook(
  deps: AppDeps,
  publisherId: string,
  upload: Upload,
  opts: { pdf?: PdfLimits; signal?: AbortSignal } = {},
): Promise<BookImport> {
  const book = {
    title: field(upload.fields, "title", 300),
    author: field(upload.fields, "author", 300),
    rightsCeiling: ceiling(upload.fields),
    format: formatOf(upload),
    originalName: upload.name,
  };
  const bytes = upload.bytes;
  try {
    return await imports.run(
      () => storeBook(deps, publisherId, book, bytes, { ...opts, read: upload.release }),
      opts.signal,
    );
  } finally {
    upload.release?.();
  }
}

async function storeBook(
  deps: AppDeps,
  publisherId: string,
  book: Omit<Book, "id" | "chapters" | "createdAt">,
  bytes: Uint8Array,
  opts: { pdf?: PdfLimits; read?: () => void },
): Promise<BookImport> {
  const { title, author, format } = book;
  const turn = eventLoopTurns();
  const { titles, chapters } = await split(bytes, { format, title, pdf: opts.pdf });
  if (format === "pdf") opts.read?.(); // its text is out: the file's bytes go back now
  await turn();
  if (titles.length === 0) {
    throw new AppError(
      422,
      "no_text",
      "file: no text was found in the book (a scanned PDF?)",
      {},
      "file",
    );
  }
  if (titles.length > MAX_CHAPTERS) {
    throw new AppError(
      422,
      "too_many_chapters",
      `file: more than ${MAX_CHAPTERS} chapters`,
      {},
      "file",
    );
  }
  const count = titles.length;
  const bookId = newId("bk");
  const now = deps.clock.now();
  await insertBook(deps.store.db, publisherId, { id: bookId, ...book }, { now });
  const ids: string[] = [];
  try {
    let n = 0;
    // One chapter's text at a time: the store holds it from here on.
    for (const ch of chapters()) {
      n++;
      const { id } = await upsertArticle(deps.store.db, publisherId, {
        url: chapterUrl(bookId, n),
        title: `${title}: ${ch.title}`.slice(0, 500),
        author,
        // A chapter is dated by its book's upload, so every surface can cite it with a date.
        publishedAt: now.toISOString(),
        summary: summaryOf(ch.body),
        tags: ["book"],
        body: ch.body,
        kind: "chapter",
        bookId,
        chapterNo: n,
      }, { now });
      ids.push(id);
      await turn();
    }
    opts.read?.(); // every chapter is in the store: the file's bytes go back before indexing
    await setBookChapters(deps.store.db, publisherId, bookId, count);
    const publisher = await getPublisher(deps.store.db, publisherId);
    if (publisher) await syncChapterUrls(deps, publisher);
    await turn();
  } catch (e) {
    await deleteBook(deps.store.db, publisherId, bookId).catch(() => {});
    throw e;
  }
  await deps.search.articlesChanged(publisherId, ids);
  return { bookId, chapters: count, format, titles };
}

/** A chapter as GET /books/:id lists it. */
export interface ChapterEntry {
  number: number;
  title: string;
  articleId: string;
  words: number;
}

/** A book with its chapters; 404 when it is not the publisher's. */
export async function bookDetail(
  deps: AppDeps,
  publisherId: string,
  bookId: string,
): Promise<Book & { contents: ChapterEntry[] }> {
  const book = await getBook(deps.store.db, publisherId, bookId);
  if (!book) throw notFound("Book");
  const prefix = `${book.title}: `;
  const contents = (await bookChapters(deps.store.db, publisherId, bookId)).map((ch) => ({
    number: ch.number,
    title: ch.title.startsWith(prefix) ? ch.title.slice(prefix.length) : ch.title,
    articleId: ch.articleId,
    words: ch.body.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length,
  }));
  return { ...book, contents };
}

/**
 * Deletes a book: its chapter articles leave the store, search (full text by trigger, passages
 * here) and every listing. Ledger rows (charges, call log, statements) stay as they were.
 */
export async function removeBook(
  deps: AppDeps,
  publisherId: string,
  bookId: string,
): Promise<{ bookId: string; chaptersRemoved: number; note: string }> {
  if (!await getBook(deps.store.db, publisherId, bookId)) throw notFound("Book");
  const ids = await deleteBook(deps.store.db, publisherId, bookId);
  await deps.search.articlesChanged(publisherId, ids);
  return {
    bookId,
    chaptersRemoved: ids.length,
    note: "Charges, the call log and statements keep their rows for these chapters",
  };
}

function field(fields: Record<string, string>, name: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const v = (fields[name] ?? "").replace(/[\x00-\x1f\x7f]/g, " ").replace(/\s+/g, " ").trim();
  if (!v) throw invalid(name, "is required");
  if (v.length > max) throw invalid(name, `must be at most ${max} characters`);
  return v;
}

/** Checkbox semantics: a ticked box sends "on" (or true/1/yes); an unticked one sends nothing. */
function ceiling(fields: Record<string, string>): Rights {
  const out = {} as Rights;
  for (const use of USE_CASES) {
    const raw = (fields[use] ?? "").trim().toLowerCase();
    if (["on", "true", "1", "yes"].includes(raw)) out[use] = true;
    else if (["", "off", "false", "0", "no"].includes(raw)) out[use] = false;
    else throw invalid(use, "must be a checkbox value (on, true or false)");
  }
  return out;
}

function formatOf(upload: Upload): BookFormat {
  const b = upload.bytes;
  const isPdf = b.length >= 5 && new TextDecoder().decode(b.subarray(0, 5)) === "%PDF-";
  const name = (upload.name ?? "").toLowerCase();
  const type = upload.contentType.toLowerCase();
  const saysPdf = type === "application/pdf" || name.endsWith(".pdf");
  if (saysPdf && !isPdf) {
    throw new AppError(
      415,
      "unsupported_media_type",
      "file: this is not a PDF (no %PDF- header)",
      {},
      "file",
    );
  }
  if (isPdf) {
    if (b.length > MAX_PDF_BYTES) throw tooLarge(MAX_PDF_BYTES);
    return "pdf";
  }
  if (b.length > MAX_TEXT_BYTES) throw tooLarge(MAX_TEXT_BYTES);
  if (b.includes(0)) {
    throw new AppError(
      415,
      "unsupported_media_type",
      "file: binary data (NUL bytes) where markdown or plain text was expected",
      {},
      "file",
    );
  }
  const markdown = /\.(md|markdown)$/.test(name) || type === "text/markdown" ||
    type === "text/x-markdown";
  return markdown ? "markdown" : "text";
}

async function split(
  bytes: Uint8Array,
  o: { format: BookFormat; title: string; pdf?: PdfLimits },
): Promise<ChapterSource> {
  if (o.format === "pdf") {
    const { pages, outline } = await pdfText(bytes, o.pdf);
    return listed(splitPdf(pages, outline, o.title));
  }
  try {
    // A markdown book with chapter headings is split from its bytes, a chapter at a time.
    const source = o.format === "markdown" ? await markdownChapters(bytes) : null;
    if (source) return source;
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return listed(
      o.format === "markdown" ? splitMarkdown(text, o.title) : splitPlainText(text, o.title),
    );
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new AppError(
      415,
      "unsupported_encoding",
      "file: the text is not valid UTF-8",
      {},
      "file",
    );
  }
}

/** Chapters already split, handed out (and let go) one at a time. */
function listed(list: Chapter[]): ChapterSource {
  return {
    titles: list.map((c) => c.title),
    *chapters() {
      while (list.length > 0) yield list.shift()!;
    },
  };
}

function summaryOf(body: string): string {
  const first = body.split("\n\n").find((p) => !p.startsWith("## ")) ?? "";
  return first.length > 300 ? `${first.slice(0, 297).replace(/\s+\S*$/, "")}…` : first;
}

function tooLarge(max: number): AppError {
  return new AppError(
    413,
    "payload_too_large",
    `file: larger than ${max / 1024 / 1024} MB`,
    {},
    "file",
  );
}
