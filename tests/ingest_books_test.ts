/** Book uploads through the management API: splitting, the rights ceiling, hostile files. */
import assert from "node:assert/strict";
import { findArticle, getArticles } from "../store/articles.ts";
import { bookCeiling } from "../store/books.ts";
import { chapterUrl } from "../server/domain/catalog/books.ts";
import { pdfText } from "../server/domain/catalog/pdf_text.ts";
import { auth } from "./fixtures/ingest_helpers.ts";
import { deflatedZeros, makePdf } from "./fixtures/pdf.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

async function uploadBook(
  folio: TestFolio,
  file: { bytes: Uint8Array | string; name: string; type: string },
  fields: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.set("file", new File([file.bytes as BlobPart], file.name, { type: file.type }));
  for (const [k, v] of Object.entries({ title: "A Book", author: "Jo Writer", ...fields })) {
    form.set(k, v);
  }
  const res = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

const para = (n: number) => `Sentence ${n} about the sea and the ships that sail it. `.repeat(12);

Deno.test("a markdown book is split at its chapter headings into chapter articles with the book's ceiling", async () => {
  await using folio = await testFolio();
  const md = [
    "# The Sea Book",
    "",
    "## Chapter One: Tides",
    "",
    para(1),
    "",
    "### Spring tides",
    "",
    `Some **bold** words and a [link](javascript:alert(1)) here. ${para(2)}`,
    "",
    "## Chapter Two: Ships",
    "",
    para(3),
  ].join("\n");
  const up = await uploadBook(folio, { bytes: md, name: "sea.md", type: "text/markdown" }, {
    title: "The Sea Book",
    author: "Mara Wave",
    summarization: "on",
    rag: "on",
  });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  assert.equal(up.body.chapters, 2);
  const bookId = up.body.bookId as string;
  const db = folio.deps.store.db;
  assert.deepEqual(await bookCeiling(db, "pub_demo", bookId), {
    summarization: true,
    display: false,
    rag: true,
    fine_tuning: false,
  });
  const one = await findArticle(db, "pub_demo", chapterUrl(bookId, 1));
  assert.ok(one);
  assert.equal(one.kind, "chapter");
  assert.equal(one.bookId, bookId);
  assert.equal(one.chapterNo, 1);
  assert.equal(one.title, "The Sea Book: Chapter One: Tides");
  assert.equal(one.author, "Mara Wave");
  assert.match(one.body, /\n\n## Spring tides\n\n/);
  assert.match(one.body, /Some bold words and a link here\./);
  assert.ok(!one.body.includes("javascript:"));
  const two = await findArticle(db, "pub_demo", chapterUrl(bookId, 2));
  assert.equal(two?.title, "The Sea Book: Chapter Two: Ships");

  // The ceiling caps the read: display is withheld, so a reader gets the summary only.
  const res = await folio.request(
    `/api/v1/articles/${one.id}?last_user_prompt=${encodeURIComponent("tides?")}`,
    { host: "demo.localhost" },
  );
  const read = await res.json();
  assert.equal(read.status, "license_limited", JSON.stringify(read));

  const list = await folio.request("/api/publisher/books", { headers: auth(folio) });
  const { books } = await list.json();
  assert.equal(books.length, 1);
  assert.equal(books[0].chapters, 2);
  assert.equal(books[0].originalName, "sea.md");
});

Deno.test("a plain-text book splits on Chapter N, CHAPTER IV and Part One lines", async () => {
  await using folio = await testFolio();
  const text = [
    "THE LONG ROAD",
    "",
    "Part One",
    "",
    para(1),
    "",
    "CHAPTER IV. The Inn",
    "",
    para(2),
    "",
    "Chapter 5",
    "",
    para(3),
  ].join("\r\n");
  const up = await uploadBook(folio, { bytes: text, name: "road.txt", type: "text/plain" });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  assert.deepEqual(up.body.titles, ["Part One", "CHAPTER IV. The Inn", "Chapter 5"]);
});

Deno.test("a PDF book is split by its outline", async () => {
  await using folio = await testFolio();
  const pdf = makePdf({
    pages: [["Opening words."], ["The harbour at dawn.", "Boats leave."], ["Night falls."]],
    outline: [{ title: "Dawn", page: 1 }, { title: "Night", page: 2 }],
  });
  const up = await uploadBook(folio, { bytes: pdf, name: "book.pdf", type: "application/pdf" });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  assert.deepEqual(up.body.titles, ["Dawn", "Night"]);
  const db = folio.deps.store.db;
  const [a] = await getArticles(db, "pub_demo", [
    (await findArticle(db, "pub_demo", chapterUrl(up.body.bookId as string, 1)))!.id,
  ]);
  assert.equal(a.body, "The harbour at dawn. Boats leave.");
});

Deno.test("a PDF without an outline is split at its chapter heading lines", async () => {
  await using folio = await testFolio();
  const pdf = makePdf({
    pages: [["Chapter 1", "It began."], ["More of one."], ["Chapter 2", "It ended."]],
  });
  const up = await uploadBook(folio, { bytes: pdf, name: "b.pdf", type: "application/pdf" });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  assert.deepEqual(up.body.titles, ["Chapter 1", "Chapter 2"]);
});

Deno.test("hostile book uploads are refused with clear errors and create nothing", async () => {
  await using folio = await testFolio();
  const notPdf = await uploadBook(folio, {
    bytes: "<html>hello</html>",
    name: "fake.pdf",
    type: "application/pdf",
  });
  assert.equal(notPdf.status, 415);
  assert.match(JSON.stringify(notPdf.body), /not a PDF/);

  const nul = await uploadBook(folio, {
    bytes: "# Title\n\0\0binary",
    name: "x.md",
    type: "text/markdown",
  });
  assert.equal(nul.status, 415);
  assert.match(JSON.stringify(nul.body), /NUL/);

  const pages = await uploadBook(folio, {
    bytes: makePdf({ pages: [["x"]], declaredCount: 100_000 }),
    name: "bomb.pdf",
    type: "application/pdf",
  });
  assert.equal(pages.status, 422);
  assert.match(JSON.stringify(pages.body), /declares 100000 pages/);

  // 300 MB of zeros in a 300 KB stream; the server's other endpoints keep answering meanwhile.
  const bomb = makePdf({ pages: [["x"]], flateStream: await deflatedZeros(300 * 1024 * 1024) });
  const upload = uploadBook(folio, { bytes: bomb, name: "flate.pdf", type: "application/pdf" });
  const health = await folio.request("/api/health");
  assert.equal(health.status, 200);
  await health.body?.cancel();
  const flate = await upload;
  assert.equal(flate.status, 422);
  assert.match(JSON.stringify(flate.body), /inflate past 256 MB/);

  const tooBig = await uploadBook(folio, {
    bytes: "a".repeat(10 * 1024 * 1024 + 1),
    name: "big.txt",
    type: "text/plain",
  });
  assert.equal(tooBig.status, 413);

  const noTitle = await uploadBook(folio, {
    bytes: "Chapter 1\n\ntext",
    name: "t.txt",
    type: "text/plain",
  }, {
    title: "",
  });
  assert.equal(noTitle.status, 400);
  assert.match(JSON.stringify(noTitle.body), /title: is required/);

  const badBox = await uploadBook(folio, { bytes: "text", name: "t.txt", type: "text/plain" }, {
    display: "maybe",
  });
  assert.equal(badBox.status, 400);

  const list = await folio.request("/api/publisher/books", { headers: auth(folio) });
  assert.deepEqual((await list.json()).books, []);
});

Deno.test("book routes need a publisher credential and a multipart body", async () => {
  await using folio = await testFolio();
  const raw = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: { ...auth(folio), "content-type": "application/pdf" },
    body: "%PDF-1.4",
  });
  assert.equal(raw.status, 415);
  assert.match((await raw.json()).error.message, /multipart\/form-data/);
  const res = await folio.request("/api/publisher/books", { method: "POST", body: "x" });
  assert.equal(res.status, 401);
  await res.body?.cancel();
  const get = await folio.request("/api/publisher/books");
  assert.equal(get.status, 401);
  await get.body?.cancel();
});

Deno.test("pdfText() kills a reader process that runs past its wall-clock limit", async () => {
  const pdf = makePdf({ pages: Array.from({ length: 50 }, (_, i) => [`Page ${i}`]) });
  await assert.rejects(
    () => pdfText(pdf, { timeoutMs: 1 }),
    /took longer than 0.001 s/,
  );
});
