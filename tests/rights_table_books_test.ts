/**
 * The rights table's first step across the surfaces: a book's author-contract ceiling caps every
 * right on its chapters, licenses included (docs/SPEC.md "Content license"; docs/decisions/
 * licensing.md "The rights table"). Every default x held license, for a chapter under two
 * ceilings: the license block on REST, MCP and A2A and whether search finds it.
 */
import assert from "node:assert/strict";
import { USE_CASES } from "../store/vocabulary.ts";
import { chapterUrl } from "../server/domain/catalog/books.ts";
import { findArticle } from "../store/articles.ts";
import { auth } from "./fixtures/ingest_helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import {
  allDefaults,
  expected,
  finds,
  outcomeFor,
  reads,
  type Rights,
  setUp,
  words,
} from "./rights_table_helpers.ts";

/** Two books, each with words of its own, under opposite ceilings. */
const BOOKS = [
  {
    title: "Tidewater",
    words: "estuary cormorants",
    ceiling: { summarization: true, display: false, rag: true, fine_tuning: false },
  },
  {
    title: "Highland",
    words: "moraine ptarmigan",
    ceiling: { summarization: false, display: true, rag: false, fine_tuning: true },
  },
];

async function upload(folio: TestFolio, book: typeof BOOKS[number]): Promise<string> {
  const text = `The ${book.words} of this place. `.repeat(30);
  const md = `# ${book.title}\n\n## Chapter One\n\n${text}\n\n## Chapter Two\n\n${text}\n`;
  const form = new FormData();
  form.set("file", new File([md], `${book.title}.md`, { type: "text/markdown" }));
  form.set("title", book.title);
  form.set("author", "Jo Writer");
  for (const use of USE_CASES) if (book.ceiling[use]) form.set(use, "on");
  const res = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  assert.equal(res.status, 201);
  const { bookId } = await json<{ bookId: string }>(res);
  return (await findArticle(folio.store.db, "pub_demo", chapterUrl(bookId, 1)))!.id;
}

function capped(r: Rights, ceiling: Rights): Rights {
  return Object.fromEntries(USE_CASES.map((u) => [u, r[u] && ceiling[u]])) as Rights;
}

Deno.test("the rights table: a book's ceiling caps defaults and licenses alike on every surface", async (t) => {
  await using folio = await testFolio();
  const chapters: (typeof BOOKS[number] & { id: string })[] = [];
  for (const book of BOOKS) chapters.push({ ...book, id: await upload(folio, book) });
  const { callers } = await setUp(folio); // after the upload: its chapters are OBSERVE too
  for (const defaults of allDefaults()) {
    const label = USE_CASES.filter((u) => defaults[u]).join("+") || "nothing";
    await t.step(`defaults: ${label}`, async () => {
      await patchDemo(folio, (p) => ({ ...p, rights: defaults }));
      for (const chapter of chapters) {
        for (const caller of callers) {
          const want = capped(expected(defaults, caller.uses), chapter.ceiling);
          const where = `${caller.name}, ${chapter.title}, defaults ${label}`;
          const read = await reads(folio, caller, chapter.id, {});
          const outcome = outcomeFor(want);
          assert.deepEqual(read.status, { rest: outcome, mcp: outcome, a2a: outcome }, where);
          assert.deepEqual(read.license, {
            rest: words(want),
            mcp: words(want),
            a2a: words(want),
          }, where);
          const found = await finds(folio, caller, {}, chapter.words);
          const { rest, mcp, a2a, passages } = found.found;
          assert.deepEqual({ rest, mcp, a2a, passages }, {
            rest: want.rag,
            mcp: want.rag,
            a2a: want.rag,
            passages: want.rag,
          }, where);
        }
      }
    });
  }
});
