/** Books: upload a PDF or markdown book (split into chapters), its rights ceiling, chapters, delete. */
import { FieldError, type FieldProblem, invalidIf } from "../field_error.tsx";
import type { z } from "zod";
import type { bookDetailSchema } from "../../server/surfaces/manage/ingest_schemas.ts";
import type { bookSchema } from "../../server/surfaces/manage/openapi_schemas.ts";
import { Scroll } from "./scroll.tsx";
import { ConsoleShell, count, CsrfField, When, type Who } from "./shell.tsx";
import { plural } from "../../server/platform/words.ts";

/** A book (GET /api/publisher/books). */
export type BookView = z.output<typeof bookSchema>;

/** A chapter (GET /api/publisher/books/:id). */
export type ChapterView = z.output<typeof bookDetailSchema>["contents"][number];

const USES: [string, string][] = [
  ["summarization", "Summaries"],
  ["display", "Display of the full text"],
  ["rag", "Retrieval (RAG)"],
  ["fine_tuning", "Fine-tuning"],
];

/** Checked at first: what most author contracts allow. */
const DEFAULT_CEILING = ["summarization", "rag"];

/** GET /publisher/books. */
export function BooksPage(props: {
  who: Who;
  books: BookView[];
  notice?: string | null;
  problem?: string | null;
  /** The upload's refusal when it is one field's (shown beside it). */
  fieldProblem?: FieldProblem | null;
}) {
  const inv = (name: string, hint?: string) => invalidIf(props.fieldProblem, name, hint);
  const err = (name: string) => <FieldError problem={props.fieldProblem} name={name} />;
  return (
    <ConsoleShell
      who={props.who}
      section="books"
      title="Books"
      notice={props.notice}
      problem={props.problem}
    >
      <section class="card" aria-labelledby="upload-title">
        <h2 id="upload-title">Upload a book</h2>
        <p class="muted small">
          A PDF, markdown or plain-text file; Folio splits it into chapters, and each chapter is
          served as an article. The rights ceiling is what the author's contract allows: no license
          can grant more for this book.
        </p>
        <form
          method="post"
          action={`/publisher/books/upload?_csrf=${encodeURIComponent(props.who.csrfToken)}`}
          enctype="multipart/form-data"
        >
          <label for="book-file">File</label>
          <input
            {...inv("file")}
            id="book-file"
            name="file"
            type="file"
            accept=".pdf,.md,.markdown,.txt"
            required
          />
          {err("file")}
          <label for="book-title">Title</label>
          <input
            {...inv("title")}
            id="book-title"
            name="title"
            type="text"
            required
            maxLength={300}
          />
          {err("title")}
          <label for="book-author">Author</label>
          <input
            {...inv("author")}
            id="book-author"
            name="author"
            type="text"
            required
            maxLength={300}
          />
          {err("author")}
          <fieldset>
            <legend>Rights ceiling (from the author's contract)</legend>
            {USES.map(([use, label]) => (
              <label class="check" key={use}>
                <input
                  type="checkbox"
                  name={use}
                  value="on"
                  checked={DEFAULT_CEILING.includes(use)}
                />
                <span>{label}</span>
              </label>
            ))}
          </fieldset>
          <p>
            <button type="submit">Upload book</button>
          </p>
        </form>
      </section>
      <section class="card" aria-labelledby="books-title">
        <h2 id="books-title">Your books</h2>
        {props.books.length === 0 ? <p class="muted">No books yet.</p> : (
          <Scroll label="Books">
            <table>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Author</th>
                  <th scope="col">Chapters</th>
                  <th scope="col">Rights ceiling</th>
                  <th scope="col">Uploaded</th>
                </tr>
              </thead>
              <tbody>
                {props.books.map((b) => (
                  <tr key={b.id}>
                    <td>
                      <a href={`/publisher/books/${b.id}`}>{b.title}</a>
                    </td>
                    <td>{b.author}</td>
                    <td>{count(b.chapters)}</td>
                    <td class="small">{ceilingText(b.rightsCeiling)}</td>
                    <td>
                      <When iso={b.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>
    </ConsoleShell>
  );
}

function ceilingText(rights: Record<string, boolean>): string {
  const granted = USES.filter(([use]) => rights[use]).map(([, label]) => label.toLowerCase());
  return granted.length ? granted.join(", ") : "nothing beyond citation";
}

/** GET /publisher/books/:id. */
export function BookPage(props: {
  who: Who;
  book: BookView;
  chapters: ChapterView[];
  notice?: string | null;
  problem?: string | null;
}) {
  const b = props.book;
  return (
    <ConsoleShell
      who={props.who}
      section="books"
      title={b.title}
      notice={props.notice}
      problem={props.problem}
    >
      <p class="small">
        <a href="/publisher/books">All books</a>
      </p>
      <section class="card" aria-labelledby="book-title">
        <h2 id="book-title">By {b.author}</h2>
        <p class="muted small">
          {b.format} · {b.originalName ?? "uploaded file"} · uploaded <When iso={b.createdAt} />
          {" "}
          · rights ceiling: {ceilingText(b.rightsCeiling)}
        </p>
        <form method="post" action={`/publisher/books/${b.id}/delete`}>
          <CsrfField token={props.who.csrfToken} />
          <button type="submit" class="danger">Delete this book</button>
          <span class="muted small">
            {" "}Its chapters leave search and listings; reads already made stay on statements.
          </span>
        </form>
      </section>
      <section class="card" aria-labelledby="chapters-title">
        <h2 id="chapters-title">
          {plural(props.chapters.length, "chapter", { shown: count(props.chapters.length) })}
        </h2>
        {props.chapters.length === 0 ? <p class="muted">No chapters.</p> : (
          <ol>
            {props.chapters.map((ch) => (
              <li key={ch.articleId} value={ch.number}>
                {ch.title}
                {ch.words ? <span class="muted small">{` · ${count(ch.words)} words`}</span> : null}
              </li>
            ))}
          </ol>
        )}
      </section>
    </ConsoleShell>
  );
}
