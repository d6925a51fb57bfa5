/** A book read with its chapters, and deleted: gone from search and listings, ledger untouched. */
import assert from "node:assert/strict";
import { setArticlePolicy } from "../store/articles.ts";
import { getPublisher } from "../store/publishers.ts";
import { listVisible } from "../server/domain/reads/listing.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { auth } from "./fixtures/ingest_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson, signUp } from "./manage_helpers.ts";

const para = (n: number, word = "") =>
  `Sentence ${n} about the sea and the ships that sail it ${word}. `.repeat(12);

async function uploadBook(folio: TestFolio): Promise<string> {
  const md = [
    "# The Sea Book",
    "",
    "## Chapter One: Tides",
    "",
    para(1),
    "",
    "## Chapter Two: Ships",
    "",
    para(2, "quokkaharbour"),
  ].join("\n");
  const form = new FormData();
  form.set("file", new File([md], "sea.md", { type: "text/markdown" }));
  for (const [k, v] of Object.entries({ title: "The Sea Book", author: "Mara Wave" })) {
    form.set(k, v);
  }
  for (const use of ["display", "rag", "summarization"]) form.set(use, "on");
  const res = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.bookId;
}

async function searchIds(folio: TestFolio, query: string): Promise<string[]> {
  const res = await folio.request(`/api/v1/articles/search?query=${query}`, {
    host: "demo.localhost",
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.results.map((r: { id: string }) => r.id);
}

/** The chapters the management listing and the agents' topic listing (MCP list_by_topic) show. */
async function chapterIds(folio: TestFolio): Promise<{ managed: string[]; listed: string[] }> {
  const res = await folio.request("/api/publisher/articles?kind=chapter", { headers: auth(folio) });
  const body = await res.json();
  const publisher = (await getPublisher(folio.deps.store.db, "pub_demo"))!;
  const { items } = await listVisible({ db: folio.deps.store.db, clock: folio.clock }, {
    publisher,
    caller: { identity: "ip:192.0.2.1", buyerId: null, territory: null, surface: "mcp" },
    limit: 50,
    tag: "book",
  });
  return {
    managed: body.articles.map((a: { id: string }) => a.id).sort(),
    listed: items.map((i) => i.article.id).sort(),
  };
}

Deno.test("GET /books/:id lists the chapters; DELETE removes them from search and listings and keeps the ledger", async () => {
  await using folio = await testFolio();
  const bookId = await uploadBook(folio);
  const db = folio.deps.store.db;

  const res = await folio.request(`/api/publisher/books/${bookId}`, { headers: auth(folio) });
  const book = await res.json();
  assert.equal(res.status, 200, JSON.stringify(book));
  assert.equal(book.id, bookId);
  assert.equal(book.title, "The Sea Book");
  assert.equal(book.chapters, 2);
  assert.deepEqual(
    book.contents.map((c: { number: number; title: string }) => [c.number, c.title]),
    [[1, "Chapter One: Tides"], [2, "Chapter Two: Ships"]],
  );
  for (const c of book.contents) assert.ok(c.words > 100, `${c.words} words`);
  const [one, two] = book.contents.map((c: { articleId: string }) => c.articleId);

  // Another publisher can neither see nor delete it.
  const stranger = await signUp(folio);
  for (const method of ["GET", "DELETE"]) {
    const r = await sendJson(
      folio,
      method,
      `/api/publisher/books/${bookId}`,
      undefined,
      bearer(stranger.apiKey),
    );
    assert.equal(r.status, 404, method);
    assert.deepEqual(await r.json(), {
      error: { code: "not_found", message: "Book was not found" },
    });
  }

  // Findable and listed, and a buyer's paid read leaves a charge.
  assert.ok((await searchIds(folio, "quokkaharbour")).includes(two));
  const both = [one, two].sort();
  assert.deepEqual(await chapterIds(folio), { managed: both, listed: both });
  await setArticlePolicy(db, "pub_demo", two, { policy: "PAYWALL", now: folio.clock.now() });
  const buyer = await createBuyer(db, { name: "B", email: "b@b.test" }, { now: folio.clock.now() });
  const read = await folio.request(`/api/v1/articles/${two}?last_user_prompt=ships`, {
    host: "demo.localhost",
    headers: { authorization: `Bearer ${buyer.apiKey}` },
  });
  assert.equal(read.status, 200);
  await read.body?.cancel();
  const charges = async () =>
    Number(
      (await db.execute({
        sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ? AND article_id = ?",
        args: [buyer.buyerId, two],
      })).rows[0].n,
    );
  assert.equal(await charges(), 1);

  const passages = async () =>
    Number(
      (await db.execute({
        sql: "SELECT COUNT(*) AS n FROM chunks WHERE article_id IN (?, ?)",
        args: [one, two],
      })).rows[0].n,
    );
  assert.ok(await passages() > 0);

  const del = await sendJson(
    folio,
    "DELETE",
    `/api/publisher/books/${bookId}`,
    undefined,
    auth(folio),
  );
  assert.equal(del.status, 200);
  assert.deepEqual(await del.json(), {
    bookId,
    chaptersRemoved: 2,
    note: "Charges, the call log and statements keep their rows for these chapters",
  });

  assert.deepEqual(await searchIds(folio, "quokkaharbour"), []);
  assert.deepEqual(await chapterIds(folio), { managed: [], listed: [] });
  const gone = await folio.request(`/api/v1/articles/${two}?last_user_prompt=ships`, {
    host: "demo.localhost",
  });
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  assert.equal(await passages(), 0, "their passages left the search index");
  assert.equal(await charges(), 1, "the ledger keeps the charge");
  const again = await folio.request(`/api/publisher/books/${bookId}`, { headers: auth(folio) });
  assert.equal(again.status, 404);
  await again.body?.cancel();
  const list = await folio.request("/api/publisher/books", { headers: auth(folio) });
  assert.deepEqual((await list.json()).books, []);
});
