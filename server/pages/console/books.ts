/**
 * /publisher/books: upload (streamed to POST /api/publisher/books, its CSRF token in the action's
 * query string as for CSV uploads), the list, one book with its chapters, and deletion.
 */
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { renderPage } from "../../../ui/layout.tsx";
import { BookPage, BooksPage } from "../../../ui/console/books.tsx";
import { bookDetailSchema } from "../../surfaces/manage/ingest_schemas.ts";
import { bookListSchema, bookResponseSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, refusalStatus, segment } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { type FieldMap, type FormProblem, formProblem, NO_PROBLEM } from "../kit/field_errors.ts";

const NOTICES: Record<string, string> = {
  uploaded: "Book uploaded and split into chapters.",
  deleted: "Book deleted; its chapters left search and listings.",
};

/** The book upload's fields by the API's names (the rights boxes share the ceiling's fieldset). */
const FIELDS: FieldMap = {
  file: { name: "file", label: "File" },
  title: { name: "title", label: "Title" },
  author: { name: "author", label: "Author" },
};

/** The books pages. */
export function booksPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const list = async (
    c: Context<ConsoleEnv>,
    problem: FormProblem,
    status: ContentfulStatusCode = 200,
  ) => {
    const books = must(await callApi(c, api, "/api/publisher/books", bookListSchema));
    return c.html(
      renderPage(BooksPage({
        who: c.get("who"),
        books: books.books,
        notice: noticeOf(c, NOTICES),
        problem: problem.top,
        fieldProblem: problem.field,
      })),
      status,
    );
  };

  app.get("/books", (c) => list(c, NO_PROBLEM));

  app.post("/books/upload", async (c) => {
    const answer = await callApi(c, api, "/api/publisher/books", bookResponseSchema, {
      method: "POST",
      body: c.req.raw.body,
      contentType: c.req.header("content-type") ?? "",
      csrf: c.req.query("_csrf") ?? "",
    });
    if (!answer.ok) return list(c, formProblem(answer, FIELDS), refusalStatus(answer.status));
    return doneRedirect(c, `/publisher/books/${segment(answer.body.bookId)}`, "uploaded");
  });

  app.get("/books/:id", async (c) => {
    const id = segment(c.req.param("id"));
    const book = must(await callApi(c, api, `/api/publisher/books/${id}`, bookDetailSchema));
    return c.html(renderPage(BookPage({
      who: c.get("who"),
      book,
      chapters: book.contents,
      notice: noticeOf(c, NOTICES),
    })));
  });

  app.post("/books/:id/delete", formLimit, async (c) => {
    const f = await readForm(c);
    const deleted = await send(c, api, f, `/api/publisher/books/${segment(c.req.param("id"))}`, {
      method: "DELETE",
    });
    if (!deleted.ok) return list(c, formProblem(deleted, {}), refusalStatus(deleted.status));
    return doneRedirect(c, "/publisher/books", "deleted");
  });
  return app;
}
