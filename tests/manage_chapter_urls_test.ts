/**
 * A book's chapters are listed by their public URL (issue 41, part 4): the management API's
 * listing and a change's answer, and the console's articles page, never show the stored `book:` key.
 */
import assert from "node:assert/strict";
import { auth } from "./fixtures/ingest_helpers.ts";
import { json, testFolio } from "./helpers.ts";
import { demoVisitor } from "./console_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

Deno.test("chapters show their public URL in the management API and the console", async () => {
  await using folio = await testFolio();
  const form = new FormData();
  const para = "Tides and harbours and the long sea roads, told plainly. ".repeat(20);
  const md = `# Sea Roads\n\n## One: Tides\n\n${para}\n\n## Two: Harbours\n\n${para}\n`;
  form.set("file", new File([md], "sea.md", { type: "text/markdown" }));
  form.set("title", "Sea Roads");
  form.set("author", "Jo Writer");
  for (const use of ["summarization", "display", "rag"]) form.set(use, "on");
  const up = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  assert.equal(up.status, 201);
  const { bookId } = await json<Body>(up);
  const listed = await json<Body>(
    await folio.request("/api/publisher/articles?kind=chapter&limit=50", { headers: auth(folio) }),
  );
  const mine = listed.articles.filter((a: Body) => a.bookId === bookId);
  assert.equal(mine.length, 2);
  const urls = mine.map((a: Body) => a.url).sort();
  const site = `http://demo.localhost:${folio.config.port}`;
  assert.deepEqual(urls, [1, 2].map((n) => `${site}/books/${bookId}/chapters/${n}`));
  // A change's answer is the article as listed.
  const one = await json<Body>(
    await folio.request(`/api/publisher/articles/${mine[0].id}`, {
      method: "PATCH",
      headers: { ...auth(folio), "content-type": "application/json" },
      body: JSON.stringify({ policy: "PAYWALL" }),
    }),
  );
  assert.ok(urls.includes(one.article.url), JSON.stringify(one).slice(0, 300));

  const visitor = await demoVisitor(folio);
  const page = await visitor.get("/publisher/articles?kind=chapter");
  assert.equal(page.status, 200);
  assert.ok(!page.html.includes("book:"), "no stored key on the page");
  assert.ok(page.html.includes(`/books/${bookId}/chapters/1`), "the chapter's page is shown");
});
