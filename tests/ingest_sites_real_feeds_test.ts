/**
 * Onboarding by site from feeds as real sites serve them (issue 41 part 4), end to end: a site
 * whose home page links a JSON Feed and an RSS feed in ISO-8859-1 with a bare ampersand, an HTML
 * entity and a stray close tag; the sync finds and ingests every article they list.
 */
import assert from "node:assert/strict";
import { findArticle } from "../store/articles.ts";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { startIngestionWorker } from "../server/domain/catalog/jobs.ts";
import { USER_AGENT } from "../server/runtime.ts";
import { pageSpec, renderPage } from "./fixtures/article_pages.ts";
import { auth, waitForJob } from "./fixtures/ingest_helpers.ts";
import { testFolio } from "./helpers.ts";

type Json = Record<string, unknown>;

Deno.test("a site's JSON Feed and its ill-formed Latin-1 RSS feed onboard every article they list", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  folio.deps.fetcher = createFetcher({
    userAgent: USER_AGENT,
    allowLoopback: true,
    minHostIntervalMs: 0,
  });
  const specs = [1, 2, 3, 4].map(pageSpec);
  let origin = "";
  const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/") {
      return new Response(
        `<!doctype html><html><head><title>The Example</title>
        <link rel="alternate" type="application/feed+json" href="/feed.json">
        <link rel="alternate" type="application/rss+xml" href="/feed.rss"></head><body></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    }
    if (path === "/feed.json") {
      return Response.json({
        version: "https://jsonfeed.org/version/1.1",
        title: "The Example",
        items: specs.slice(0, 2).map((s, i) => ({
          id: String(i),
          url: `${origin}${s.path}`,
          title: s.title,
          date_published: s.publishedAt,
        })),
      }, { headers: { "content-type": "application/feed+json" } });
    }
    if (path === "/feed.rss") {
      // Served without a charset: only the declaration says Latin-1.
      return new Response(
        latin1(`<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel>
          <title>Caf\u00e9 & Co</title><image><url>${origin}/logo.png</url></height></image>
          <item><title>One&nbsp;more</title><link>${origin}${
          specs[2].path
        }?ref=rss&src=feed</link></item>
          <item><title>Last</title><link>${origin}${specs[3].path}</link></item></channel></rss>`),
        { headers: { "content-type": "application/rss+xml" } },
      );
    }
    const spec = specs.find((s) => path === s.path);
    if (!spec) return new Response("not found", { status: 404 });
    return new Response(renderPage(spec, origin), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  const worker = startIngestionWorker(folio.deps, { pageTimeoutMs: 60_000, pollMs: 50 });
  try {
    const res = await folio.request("/api/publisher/sites", {
      method: "POST",
      headers: { ...auth(folio), "content-type": "application/json" },
      body: JSON.stringify({ url: `${origin}/` }),
    });
    const added = await res.json() as Json;
    assert.equal(res.status, 201, JSON.stringify(added));
    const job = await waitForJob(folio, added.jobId as string);
    assert.equal(job.outcome, "SUCCEEDED", JSON.stringify(job));
    assert.equal(job.discovered, 4, JSON.stringify(job.discovery));
    assert.equal(job.ingested, 4);
    const docs = (job.discovery as Json).documents as Json[];
    const byPath = Object.fromEntries(docs.map((d) => [new URL(d.url as string).pathname, d]));
    assert.equal(byPath["/feed.json"].kind, "json");
    assert.equal(byPath["/feed.json"].listed, 2);
    assert.equal(byPath["/feed.rss"].kind, "rss");
    assert.equal(byPath["/feed.rss"].listed, 2);
    assert.match(
      byPath["/feed.rss"].problem as string,
      /^not well-formed XML: unexpected close tag/,
    );
    for (const [i, spec] of specs.entries()) {
      const url = `${origin}${spec.path}${i === 2 ? "?ref=rss&src=feed" : ""}`;
      assert.ok(await findArticle(folio.store.db, folio.seeded!.publisherId, url), url);
    }
  } finally {
    await worker.stop();
    await server.shutdown();
  }
});
