/**
 * The publisher's host as a site (issue 13): pages, the call log, robots.txt, license.xml, NLWeb
 * ask, chapter URLs, and the platform host left as it was.
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { auth } from "./fixtures/ingest_helpers.ts";
import { denyTerritory } from "./fixtures/demo.ts";
import { json, testFolio } from "./helpers.ts";
import { backfillSitePaths } from "../store/articles.ts";
import { bodySample, demoPath, RSL_LINK, visit } from "./landing_helpers.ts";

Deno.test("the host's front page lists the latest articles and topics, pages through them, and is logged", async () => {
  await using folio = await testFolio();
  const res = await visit(folio, "/");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("link") ?? "", RSL_LINK);
  const html = await res.text();
  assert.match(html, /<link rel="license" type="application\/rsl\+xml" href="[^"]+\/license\.xml"/);
  assert.match(html, /The Demo Ledger|Demo/);
  assert.match(html, /href="\/topics\//);
  assert.match(html, /href="\/articles\//);
  const older = await visit(folio, "/?page=2");
  assert.equal(older.status, 200);
  assert.match(await older.text(), /href="\/articles\//);
  const topic = /href="(\/topics\/[^"]+)"/.exec(html)![1];
  const topicPage = await visit(folio, topic);
  assert.equal(topicPage.status, 200);
  assert.match(topicPage.headers.get("link") ?? "", RSL_LINK);
  assert.match(await topicPage.text(), /href="\/articles\//);
  const missing = await visit(folio, "/no/such/article");
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /<html/);
  await folio.deps.callLog.flush();
  const rs = await folio.deps.store.db.execute(
    "SELECT tool, status, surface FROM call_log WHERE surface = 'landing' ORDER BY id",
  );
  assert.deepEqual(rs.rows.map((r) => `${r.tool} ${r.status}`), [
    "_landing:home ok",
    "_landing:home ok",
    "_landing:topic ok",
    "_landing:article error",
  ]);
});

Deno.test("a territory denial hides an article from the listing and answers 451 on its page", async () => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const observe = await demoPath(folio, "OBSERVE");
  await denyTerritory(folio, "FR");
  const page = await visit(folio, observe.path, { "cf-ipcountry": "FR" });
  assert.equal(page.status, 451);
  assert.ok(!(await page.text()).includes(await bodySample(folio, observe.id)));
  const home = await visit(folio, "/", { "cf-ipcountry": "FR" });
  assert.doesNotMatch(await home.text(), /href="\/articles\//);
  const elsewhere = await visit(folio, observe.path, { "cf-ipcountry": "DE" });
  assert.equal(elsewhere.status, 200);
  await elsewhere.body?.cancel();
});

Deno.test("robots.txt names the license and the publisher's crawler settings; license.xml is RSL", async () => {
  await using folio = await testFolio();
  const robots = await visit(folio, "/robots.txt");
  assert.equal(robots.status, 200);
  assert.match(robots.headers.get("content-type")!, /^text\/plain/);
  const text = await robots.text();
  assert.match(text, /^License: http:\/\/demo\.localhost:8080\/license\.xml$/m);
  // The site offers NLWeb /ask: robots.txt must not forbid it (a blocked crawler's `/` aside).
  assert.doesNotMatch(text, /Disallow: \/ask/);
  const xml = await visit(folio, "/license.xml");
  assert.equal(xml.status, 200);
  assert.match(xml.headers.get("content-type")!, /^application\/rsl\+xml/);
  const doc = new DOMParser().parseFromString(await xml.text(), "text/xml");
  assert.equal(doc.documentElement.getAttribute("xmlns"), "https://rslstandard.org/rsl");
  assert.ok(doc.querySelectorAll("content").length >= 1);
  assert.match(doc.toString(), /ai-train/);
});

Deno.test("book chapters get a citable URL and a date on the host, and their own pages", async () => {
  await using folio = await testFolio();
  const form = new FormData();
  const para = (n: number) =>
    `Paragraph ${n} about tides, harbours and the long sea roads. `.repeat(10);
  const md = `# Sea Roads\n\n## One: Tides\n\n${para(1)}\n\n## Two: Harbours\n\n${para(2)}\n`;
  form.set("file", new File([md], "sea.md", { type: "text/markdown" }));
  form.set("title", "Sea Roads");
  form.set("author", "Jo Writer");
  for (const use of ["summarization", "display", "rag"]) form.set(use, "on");
  const up = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  assert.equal(up.status, 201, await up.clone().text());
  const { bookId } = await up.json();
  const base = `http://demo.localhost:8080/books/${bookId}/chapters`;

  // Every surface cites the host URL, with the book's upload date.
  const ids = await folio.deps.store.db.execute({
    sql: "SELECT id FROM articles WHERE book_id = ? ORDER BY chapter_no",
    args: [bookId],
  });
  const read = await json<{ article: { url: string; publishedAt: string | null } }>(
    await folio.request(
      `/api/v1/articles/${ids.rows[1].id}?last_user_prompt=${encodeURIComponent("harbours")}`,
      { host: "demo.localhost" },
    ),
  );
  assert.equal(read.article.url, `${base}/2`, JSON.stringify(read));
  assert.equal(
    read.article.publishedAt,
    folio.clock.now().toISOString(),
    JSON.stringify(read).slice(0, 400),
  );

  const book = await visit(folio, `/books/${bookId}`);
  assert.equal(book.status, 200);
  assert.match(book.headers.get("link") ?? "", RSL_LINK);
  assert.match(await book.text(), new RegExp(`/books/${bookId}/chapters/2`));
  const two = await visit(folio, `/books/${bookId}/chapters/2`);
  assert.equal(two.status, 200);
  assert.match(two.headers.get("link") ?? "", RSL_LINK);
  const html = await two.text();
  assert.match(html, /Paragraph 2 about tides/);
  assert.match(html, new RegExp(`<link rel="canonical" href="${base}/2"`));
});

Deno.test("the platform host keeps its own pages; an unknown host gets the platform's 404", async () => {
  await using folio = await testFolio();
  const home = await folio.request("/");
  assert.equal(home.status, 200);
  assert.match(await home.text(), /Folio/);
  const console = await folio.request("/publisher/login");
  assert.equal(console.status, 200);
  await console.body?.cancel();
  // On the publisher's host, /publisher is the publisher's own path, not the console.
  const onHost = await visit(folio, "/publisher/login");
  assert.equal(onHost.status, 404);
  assert.doesNotMatch(await onHost.text(), /password/i);
  const unknown = await folio.request("/articles/x", { host: "nobody.localhost" });
  assert.equal(unknown.status, 404);
  assert.equal((await json<{ error: { code: string } }>(unknown)).error.code, "not_found");
});

Deno.test("older rows get their site path in batches that give way to requests between them", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  const before = await db.execute(
    "SELECT id, site_path FROM articles WHERE publisher_id = 'pub_demo' ORDER BY id",
  );
  await db.execute("UPDATE articles SET site_path = NULL WHERE publisher_id = 'pub_demo'");
  let pauses = 0;
  const filled = await backfillSitePaths(db, {
    batch: 10,
    between: () => (pauses++, Promise.resolve()),
  });
  assert.equal(filled, before.rows.length);
  assert.equal(pauses, Math.ceil(before.rows.length / 10) - (before.rows.length % 10 ? 1 : 0));
  const after = await db.execute(
    "SELECT id, site_path FROM articles WHERE publisher_id = 'pub_demo' ORDER BY id",
  );
  assert.deepEqual(after.rows.map((r) => r.site_path), before.rows.map((r) => r.site_path));
});
