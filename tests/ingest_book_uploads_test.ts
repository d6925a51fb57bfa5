/**
 * Book uploads under load (issue 15): several at once are imported one at a time with the same
 * answers, and bodies over the limit are refused however they arrive, storing nothing.
 */
import assert from "node:assert/strict";
import { findArticle } from "../store/articles.ts";
import { chapterUrl, importingBooks, MAX_PDF_BYTES } from "../server/domain/catalog/books.ts";
import { auth } from "./fixtures/ingest_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

function book(n: number): string {
  const chapters = Array.from({ length: 3 + n }, (_, c) =>
    [
      `# Book ${n} chapter ${c + 1}`,
      "",
      `Words of book ${n}, chapter ${c + 1}: `.repeat(40),
    ].join("\n"));
  return chapters.join("\n\n");
}

function form(n: number): FormData {
  const f = new FormData();
  f.set("file", new File([book(n)], `b${n}.md`, { type: "text/markdown" }));
  f.set("title", `Book ${n}`);
  f.set("author", "Jo Writer");
  f.set("rag", "on");
  return f;
}

async function listBooks(folio: TestFolio): Promise<unknown[]> {
  const res = await folio.request("/api/publisher/books", { headers: auth(folio) });
  return (await res.json()).books;
}

Deno.test("four book uploads at once are imported one at a time and each gets its own answer", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  // Which book each indexed chapter belongs to, in the order the imports indexed them.
  const order: string[] = [];
  const search = folio.deps.search;
  const changed = search.articlesChanged;
  search.articlesChanged = async (publisherId, articleIds) => {
    for (const id of articleIds) {
      const rs = await db.execute({ sql: "SELECT book_id FROM articles WHERE id = ?", args: [id] });
      order.push(String(rs.rows[0]?.book_id));
    }
    await changed(publisherId, articleIds);
  };
  const answers = await Promise.all([1, 2, 3, 4].map(async (n) => {
    const res = await folio.request("/api/publisher/books", {
      method: "POST",
      headers: auth(folio),
      body: form(n),
    });
    return { n, status: res.status, body: await res.json() };
  }));
  for (const { n, status, body } of answers) {
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal(body.chapters, 3 + n);
    assert.deepEqual(
      body.titles,
      Array.from({ length: 3 + n }, (_, c) => `Book ${n} chapter ${c + 1}`),
    );
    const last = await findArticle(db, "pub_demo", chapterUrl(body.bookId, 3 + n));
    assert.match(last!.body, new RegExp(`^Words of book ${n}, chapter ${3 + n}:`));
  }
  // One import at a time: each book's chapters were indexed together, not interleaved.
  const runs = order.filter((id, i) => id !== order[i - 1]);
  assert.equal(runs.length, 4, order.join(" "));
  assert.equal(new Set(runs).size, 4);
  assert.equal((await listBooks(folio)).length, 4);
});

Deno.test("a book upload over the limit is refused with 413 however it arrives, and stores nothing", async () => {
  await using folio = await testFolio();
  const refusal = "The upload exceeds the limit of 50 MB";
  // Declared too long: refused from the header, before the body is read.
  const declared = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: {
      ...auth(folio),
      "content-type": "multipart/form-data; boundary=b",
      "content-length": String(MAX_PDF_BYTES + 1024 * 1024),
    },
    body: "--b--\r\n",
  });
  assert.equal(declared.status, 413);
  assert.equal((await declared.json()).error.message, refusal);

  // Streamed without a length: reading stops past the limit.
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    start(ctl) {
      ctl.enqueue(new TextEncoder().encode(
        '--b\r\nContent-Disposition: form-data; name="file"; filename="big.md"\r\n\r\n',
      ));
    },
    pull(ctl) {
      pulled += 1024 * 1024;
      ctl.enqueue(new Uint8Array(1024 * 1024).fill(0x61));
    },
  });
  const streamed = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: { ...auth(folio), "content-type": "multipart/form-data; boundary=b" },
    body: endless,
  });
  assert.equal(streamed.status, 413);
  assert.equal((await streamed.json()).error.message, refusal);
  assert.ok(pulled <= MAX_PDF_BYTES + 4 * 1024 * 1024, `pulled ${pulled}`);

  // Under the upload limit but over the 10 MB text limit: the route's own 413.
  const f = new FormData();
  f.set("file", new File(["a".repeat(10 * 1024 * 1024 + 1)], "big.md", { type: "text/markdown" }));
  f.set("title", "Big");
  f.set("author", "Jo Writer");
  const text = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: f,
  });
  assert.equal(text.status, 413);
  assert.equal((await text.json()).error.message, "file: larger than 10 MB");
  assert.deepEqual(await listBooks(folio), []);
});

Deno.test("a multipart book upload without Content-Length is read and imported", async () => {
  await using folio = await testFolio();
  const bytes = new Uint8Array(
    await new Request("http://x/", { method: "POST", body: form(1) })
      .arrayBuffer(),
  );
  const type = new Request("http://x/", { method: "POST", body: form(1) }).headers.get(
    "content-type",
  )!;
  // The boundary differs per serialization: take it from the body itself.
  const boundary = new TextDecoder().decode(bytes.subarray(2, bytes.indexOf(13)));
  const chunks = new ReadableStream<Uint8Array>({
    start(ctl) {
      for (let i = 0; i < bytes.length; i += 100) ctl.enqueue(bytes.slice(i, i + 100));
      ctl.close();
    },
  });
  const res = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: {
      ...auth(folio),
      "content-type": type.replace(/boundary=.*/, `boundary=${boundary}`),
    },
    body: chunks,
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.equal(body.chapters, 4);
});

Deno.test("a book whose body is still arriving holds model training, and its answer releases it", async () => {
  await using folio = await testFolio();
  const request = new Request("http://x/", { method: "POST", body: form(2) });
  const type = request.headers.get("content-type")!;
  const bytes = new Uint8Array(await request.arrayBuffer());
  let rest!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(ctl) {
      ctl.enqueue(bytes.slice(0, 200)); // the fields and the file's first lines, then a pause
      rest = () => (ctl.enqueue(bytes.slice(200)), ctl.close());
    },
  });
  assert.equal(importingBooks(), false);
  const answer = folio.request("/api/publisher/books", {
    method: "POST",
    headers: { ...auth(folio), "content-type": type },
    body,
  });
  for (let i = 0; i < 100 && !importingBooks(); i++) await new Promise((r) => setTimeout(r, 5));
  // Nothing is imported yet (the gate is idle), but the search loop already waits for this book.
  assert.equal(importingBooks(), true);
  rest();
  const res = await answer;
  assert.equal(res.status, 201, await res.clone().text());
  assert.equal((await res.json()).chapters, 5);
  assert.equal(importingBooks(), false);
});

Deno.test("other requests are answered while a book imports: its writes give the event loop turns", async () => {
  await using folio = await testFolio();
  const chapters = Array.from(
    { length: 120 },
    (_, c) =>
      `# Chapter ${c + 1}\n\n${`Words of chapter ${c + 1} about tides and harbours. `.repeat(80)}`,
  );
  const f = new FormData();
  f.set("file", new File([chapters.join("\n\n")], "long.md", { type: "text/markdown" }));
  f.set("title", "A long book");
  f.set("author", "Jo Writer");
  f.set("rag", "on");
  let importing = true;
  let answered = 0;
  const pings = (async () => {
    while (importing) {
      const res = await folio.request("/api/health");
      await res.body?.cancel();
      if (importing) answered++;
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  const res = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: f,
  });
  importing = false;
  await pings;
  assert.equal(res.status, 201);
  assert.equal((await res.json()).chapters, 120);
  // Committing each chapter inline held the event loop for the whole import: one answer at most.
  assert.ok(answered >= 3, `${answered} health requests answered during the import`);
});
