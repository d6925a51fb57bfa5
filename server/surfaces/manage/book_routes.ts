/** Publisher management routes for books: upload, list, read with chapters, delete. */
import { Hono } from "hono";
import { listBooks } from "../../../store/books.ts";
import {
  bookDetail,
  importBook,
  MAX_PDF_BYTES,
  receivingBook,
  removeBook,
} from "../../domain/catalog/books.ts";
import { mediaType, readUpload, refuseType, uploadLimit } from "../../domain/catalog/upload.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";

/** Routes under /books. */
export function bookRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();

  app.post("/books", receivingBook, uploadLimit(MAX_PDF_BYTES), async (c) => {
    if (mediaType(c.req.raw) !== "multipart/form-data") {
      await refuseType(c.req.raw, "multipart/form-data with file, title, author and rights fields");
    }
    const upload = await readUpload(c.req.raw, MAX_PDF_BYTES);
    const book = await importBook(deps, c.get("publisher").id, upload, {
      signal: c.req.raw.signal,
    });
    return c.json(book, 201);
  });

  app.get("/books", async (c) => {
    return c.json({ books: await listBooks(deps.store.db, c.get("publisher").id) });
  });

  app.get("/books/:id", async (c) => {
    return c.json(await bookDetail(deps, c.get("publisher").id, c.req.param("id")));
  });

  app.delete("/books/:id", async (c) => {
    return c.json(await removeBook(deps, c.get("publisher").id, c.req.param("id")));
  });
  return app;
}
