// Fixtures for the search tests: a fresh store in a temp dir, publishers, books and articles.
import { openStore, type Store } from "../store/db.ts";
import { type ArticleInput, upsertArticle } from "../store/articles.ts";

/** A fresh store in its own temp dir; dispose removes both. */
export async function tempStore(): Promise<
  Store & { dir: string; [Symbol.asyncDispose](): Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "folio-search-" });
  const store = await openStore(`file:${dir}/folio.db`);
  return {
    ...store,
    dir,
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

export const NOW = new Date("2025-01-15T12:00:00Z");

/** Inserts a publisher row. */
export async function addPublisher(store: Store, id: string): Promise<void> {
  await store.db.execute({
    sql: "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    args: [id, id, `Publisher ${id}`, NOW.getTime(), NOW.getTime()],
  });
}

/** Inserts a book with a rights ceiling. */
export async function addBook(
  store: Store,
  publisherId: string,
  id: string,
  rag: boolean,
): Promise<void> {
  const ceiling = { summarization: true, display: false, rag, fine_tuning: false };
  await store.db.execute({
    sql: `INSERT INTO books (id, publisher_id, title, author, format, rights_ceiling, created_at)
          VALUES (?, ?, ?, 'A. Author', 'text', ?, ?)`,
    args: [id, publisherId, `Book ${id}`, JSON.stringify(ceiling), NOW.getTime()],
  });
}

/** Upserts an article at `https://example.test/<slug>`; returns its id. */
export async function addArticle(
  store: Store,
  publisherId: string,
  slug: string,
  input: Partial<ArticleInput> & { title: string; body: string },
): Promise<string> {
  const { id } = await upsertArticle(store.db, publisherId, {
    url: `https://example.test/${slug}`,
    ...input,
  }, {
    now: NOW,
  });
  return id;
}
