/**
 * A publisher without a custom domain: its book chapters get public pages on the platform under
 * `/read/<publisherId>` (issue 30 "Citable everything"), cited by every surface instead of their
 * stored `book:` key, rendered as the landing renders them and under the same access rules.
 */
import assert from "node:assert/strict";
import { setArticlePolicy } from "../store/articles.ts";
import { syncChapterUrls } from "../server/domain/catalog/books.ts";
import { getPublisher } from "../store/publishers.ts";
import { auth } from "./fixtures/ingest_helpers.ts";
import { patchDemo } from "./fixtures/demo.ts";
import { startTestFolio, type TestFolio } from "./helpers.ts";
import { BROWSER } from "./landing_helpers.ts";
import { connect } from "./mcp_helpers.ts";
import { message, rpc } from "../server/surfaces/a2a/_test_utils.ts";

// deno-lint-ignore no-explicit-any
type Result = any;

const para = (n: number) =>
  `Paragraph ${n} about tides, harbours and the long sea roads. `.repeat(12);

async function uploadBook(folio: TestFolio): Promise<{ bookId: string; ids: string[] }> {
  const form = new FormData();
  const md = `# Sea Roads\n\n## One: Tides\n\n${para(1)}\n\n## Two: Harbours\n\n${para(2)}\n\n` +
    `## Three: Why sail?\n\n${para(3)}\n\nThe closing words of the third chapter stay paid.\n`;
  form.set("file", new File([md], "sea.md", { type: "text/markdown" }));
  form.set("title", "Sea Roads");
  form.set("author", "Jo Writer and Sam Reed");
  for (const use of ["summarization", "display", "rag"]) form.set(use, "on");
  const up = await folio.request("/api/publisher/books", {
    method: "POST",
    headers: auth(folio),
    body: form,
  });
  assert.equal(up.status, 201, await up.clone().text());
  const { bookId } = await up.json();
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT id FROM articles WHERE book_id = ? ORDER BY chapter_no",
    args: [bookId],
  });
  return { bookId, ids: rs.rows.map((r) => String(r.id)) };
}

const page = (folio: TestFolio, path: string) =>
  folio.request(path, { headers: { "user-agent": BROWSER } });

Deno.test("a chapter of a publisher without a custom domain has a public page on the platform, cited everywhere", async () => {
  await using folio = await startTestFolio();
  await patchDemo(folio, (p) => ({ ...p, customDomain: null, sponsorTools: ["cite_article"] }));
  const { bookId, ids } = await uploadBook(folio);
  const base = `${folio.config.baseUrl}/read/pub_demo`;
  const url = (n: number) => `${base}/books/${bookId}/chapters/${n}`;

  // MCP: the article's URL and its citations name the page, never the stored key.
  await using client = await connect(folio);
  const got: Result = await client.callTool({
    name: "get_article",
    arguments: { url_or_id: ids[1], last_user_prompt: "harbours" },
  });
  assert.ok(!JSON.stringify(got).includes("book:"), JSON.stringify(got).slice(0, 300));
  assert.ok(JSON.stringify(got).includes(url(2)), JSON.stringify(got).slice(0, 300));
  const cite = async (id: string, style: string) =>
    ((await client.callTool({
      name: "cite_article",
      arguments: { url_or_id: id, style },
    })) as Result)
      .structuredContent.citation;
  const host = url(3).replace(/^https?:\/\//, "");
  assert.match(
    await cite(ids[2], "mla"),
    new RegExp(
      `^Writer, Jo, and Sam Reed\\. “Three: Why sail\\?” Sea Roads, The Demo Ledger, .*${host}\\.$`,
    ),
  );
  assert.match(
    await cite(ids[2], "apa"),
    new RegExp(
      `^Writer, J\\., & Reed, S\\. \\(\\d{4}, \\w+ \\d+\\)\\. Three: Why sail\\? In Sea Roads\\. The Demo Ledger\\. ${
        url(3)
      }$`,
    ),
  );
  // A2A: the same URL in the artifact.
  const a2a = await rpc(folio, "message/send", {
    message: message("0.3", { data: { skill: "get_article", url_or_id: ids[1] } }),
  }, { path: "/api/a2a/pub_demo" });
  const wire = JSON.stringify(a2a.body);
  assert.ok(wire.includes(url(2)) && !wire.includes("book:"), wire.slice(0, 400));
  // The public URL is an input as good as the id.
  assert.match(
    await cite(url(3), "chicago"),
    /^Writer, Jo, and Sam Reed\. “Three: Why sail\?” In Sea Roads\./,
  );

  // The page: the chapter as the landing renders it, its links under the same prefix.
  const two = await page(folio, `/read/pub_demo/books/${bookId}/chapters/2`);
  assert.equal(two.status, 200);
  assert.equal(
    two.headers.get("link"),
    `<${base}/license.xml>; rel="license"; type="application/rsl+xml"`,
  );
  const html = await two.text();
  assert.match(html, /Paragraph 2 about tides/);
  assert.ok(html.includes(`<link rel="canonical" href="${url(2)}"`), html.slice(0, 800));
  assert.ok(html.includes(`href="/read/pub_demo/books/${bookId}"`), "the book link");
  assert.ok(html.includes(`href="/read/pub_demo/books/${bookId}/chapters/3"`), "the next chapter");
  assert.ok(html.includes(`href="/read/pub_demo/"`), "the site's home");
  const book = await page(folio, `/read/pub_demo/books/${bookId}`);
  assert.equal(book.status, 200);
  assert.ok((await book.text()).includes(`/read/pub_demo/books/${bookId}/chapters/1`));
  const license = await page(folio, "/read/pub_demo/license.xml");
  assert.equal(license.status, 200);
  await license.body?.cancel();
});

Deno.test("platform chapter pages keep the access rules, 404 what is not there, and move with the domain", async () => {
  await using folio = await startTestFolio();
  await patchDemo(folio, (p) => ({ ...p, customDomain: null }));
  const { bookId, ids } = await uploadBook(folio);
  const path = (n: number) => `/read/pub_demo/books/${bookId}/chapters/${n}`;

  // A paid chapter shows a person its teaser and how to license it, not the whole text.
  await setArticlePolicy(folio.deps.store.db, "pub_demo", ids[2], {
    policy: "PAYWALL",
    priceMicros: 50_000,
    now: folio.clock.now(),
  });
  const paid = await page(folio, path(3));
  assert.equal(paid.status, 200);
  const paidHtml = await paid.text();
  assert.match(paidHtml, /Paragraph 3 about tides/);
  assert.doesNotMatch(paidHtml, /closing words of the third chapter/, "the teaser only");
  assert.match(paidHtml, /How to license|license/i);
  // A blocked one is shut to AI agents only: a person reads it, a crawler is refused.
  await setArticlePolicy(folio.deps.store.db, "pub_demo", ids[0], {
    policy: "BLOCKED",
    now: folio.clock.now(),
  });
  const person = await page(folio, path(1));
  assert.equal(person.status, 200);
  assert.match(await person.text(), /Paragraph 1 about tides/);
  const blocked = await folio.request(path(1), { headers: { "user-agent": "GPTBot/1.2" } });
  assert.equal(blocked.status, 403);
  assert.doesNotMatch(await blocked.text(), /Paragraph 1 about tides/);

  for (
    const missing of [
      path(9),
      `/read/pub_demo/books/bk_nope`,
      `/read/pub_nobody${path(1).slice(14)}`,
    ]
  ) {
    const res = await page(folio, missing);
    assert.equal(res.status, 404, missing);
    await res.body?.cancel();
  }
  // On the platform, robots.txt is the platform's: no publisher file under the prefix.
  const robots = await page(folio, "/read/pub_demo/robots.txt");
  assert.equal(robots.status, 404);
  await robots.body?.cancel();

  // With a custom domain the chapters move there, and the platform page points at it.
  await patchDemo(folio, (p) => ({ ...p, customDomain: "demo.localhost" }));
  await syncChapterUrls(folio.deps, (await getPublisher(folio.deps.store.db, "pub_demo"))!);
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT canonical_url FROM articles WHERE id = ?",
    args: [ids[1]],
  });
  const hostUrl = `http://demo.localhost:${
    new URL(folio.config.baseUrl).port
  }/books/${bookId}/chapters/2`;
  assert.equal(rs.rows[0].canonical_url, hostUrl);
  const moved = await folio.request(`${path(2)}?x=1`, {
    headers: { "user-agent": BROWSER },
    redirect: "manual",
  });
  assert.equal(moved.status, 301, (await moved.clone().text()).slice(0, 300));
  assert.equal(moved.headers.get("location"), `${hostUrl}?x=1`);
});
