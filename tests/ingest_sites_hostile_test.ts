/**
 * Site discovery against a hostile local site (issue 30): an index that lists itself and a loop of
 * two, a feed that never ends, one that floods, a gzip bomb, malformed XML, a sitemap of 50,001
 * URLs, a sitemap robots.txt disallows. Discovery ends, keeps what it may, and names each problem.
 */
import assert from "node:assert/strict";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { discoverSite } from "../server/domain/catalog/site_discovery.ts";
import { USER_AGENT } from "../server/runtime.ts";
import type { ListedPage } from "../store/sites.ts";
import { testFolio } from "./helpers.ts";

/** Takes the pages a discovery hands over, as the store does: each URL once, in batches. */
function collect() {
  const pages = new Map<string, ListedPage>();
  const batches: number[] = [];
  const onPages = (batch: ListedPage[]) => {
    batches.push(batch.length);
    const before = pages.size;
    for (const p of batch) if (!pages.has(p.url)) pages.set(p.url, p);
    return Promise.resolve(pages.size - before);
  };
  return { pages, batches, onPages };
}

const xml = (body: string | Uint8Array<ArrayBuffer>, type = "application/xml") =>
  new Response(body, { headers: { "content-type": type } });

async function gzip(parts: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob(parts).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("discovery ends on loops, endless and huge documents, and names every problem", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  folio.deps.fetcher = createFetcher({
    userAgent: USER_AGENT,
    allowLoopback: true,
    minHostIntervalMs: 0,
    retries: 0,
  });
  const blank = " ".repeat(1 << 20);
  // 60 MB of entries, each padded with a megabyte of whitespace: the 50 MB limit stops it.
  const bomb = await gzip([
    "<urlset>",
    ...Array.from({ length: 60 }, (_, i) => `<url><loc>/from-bomb-${i}</loc></url>${blank}`),
    "</urlset>",
  ]);
  // One run of 60 MB of whitespace: what saxes would hold is refused at 4 MB.
  const run = await gzip([
    "<urlset><url><loc>/from-run</loc></url>",
    ...Array.from({ length: 60 }, () => blank),
    "</urlset>",
  ]);
  // The never-ending feed is read on its own site with a short deadline: whatever the machine's
  // speed, a body that never ends times out; everything else gets a deadline no machine meets.

  const many = Array.from({ length: 50_001 }, (_, i) => `<url><loc>/p/${i}</loc></url>`).join("");
  const encoder = new TextEncoder();
  const hits = new Map<string, number>();
  const handler = (slowOnly: boolean) => (req: Request) => {
    const { origin, pathname: path } = new URL(req.url);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const index = (...locs: string[]) =>
      xml(
        `<sitemapindex>${
          locs.map((l) => `<sitemap><loc>${origin}${l}</loc></sitemap>`).join("")
        }</sitemapindex>`,
      );
    switch (path) {
      case "/robots.txt":
        return new Response(
          "User-agent: *\nDisallow: /private/\n" +
            (slowOnly ? ["/slow.xml"] : [
              "/self.xml",
              "/loop-a.xml",
              "/flood.xml",
              "/bomb.xml.gz",
              "/run.xml.gz",
              "/bad.xml",
              "/big.xml",
              "/private/s.xml",
              "/gone.xml",
            ])
              .map((p) => `Sitemap: ${origin}${p}`).join("\n"),
        );
      case "/":
        return new Response(
          slowOnly
            ? "<html><head><link rel=alternate type=application/rss+xml href=/slow.xml></head></html>"
            : "<html><head><title>Hostile</title></head></html>",
          {
            headers: { "content-type": "text/html" },
          },
        );
      case "/self.xml":
        return index("/self.xml", "/ok.xml");
      case "/loop-a.xml":
        return index("/loop-b.xml");
      case "/loop-b.xml":
        return index("/loop-a.xml", "/self.xml");
      case "/ok.xml":
        return xml(
          `<urlset><url><loc>${origin}/fine</loc></url><url><loc>https://elsewhere.example/x</loc></url></urlset>`,
        );
      case "/slow.xml":
        // A feed whose body starts and never ends: the fetcher's deadline stops it.
        return xml(
          new ReadableStream({
            start(c) {
              c.enqueue(encoder.encode("<rss><channel><item><link>/slow-1</link></item>"));
            },
            pull: () => new Promise(() => {}),
          }) as unknown as Uint8Array<ArrayBuffer>,
          "application/rss+xml",
        );
      case "/flood.xml": {
        // A feed that never ends and never waits: the size limit stops it (its items padded,
        // so it passes 50 MB before 50,000 items).
        const item = `<item><link>/flood</link></item>${" ".repeat(2000)}`;
        const chunk = encoder.encode(item.repeat(200));
        let started = false;
        return xml(
          new ReadableStream({
            pull: (c) => {
              if (!started) c.enqueue(encoder.encode("<rss><channel>"));
              started = true;
              c.enqueue(chunk);
            },
          }) as unknown as Uint8Array<
            ArrayBuffer
          >,
          "application/rss+xml",
        );
      }
      case "/bomb.xml.gz":
        return xml(bomb, "application/gzip");
      case "/run.xml.gz":
        return xml(run, "application/gzip");
      case "/bad.xml":
        return xml(
          // An entity no DTD of a sitemap declares: a fault nothing reads past (an unclosed tag
          // or a bare ampersand is read the way feed readers read it: site_documents_test.ts).
          `<urlset><url><loc>${origin}/before-fault</loc></url><url><loc>x&custom;</loc></url>` +
            `<url><loc>${origin}/after-fault</loc></url></urlset>`,
        );
      case "/big.xml":
        return xml(`<urlset>${many}</urlset>`);
      case "/gone.xml":
        return new Response("no", { status: 410 });
    }
    return new Response("missing", { status: 404 });
  };
  const serve = (slowOnly: boolean) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler(slowOnly));
  const server = serve(false);
  const slowServer = serve(true);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    const taken = collect();
    const found = await discoverSite(folio.deps, folio.seeded!.publisherId, `${origin}/`, {
      onPages: taken.onPages,
      limits: { timeoutMs: 600_000 },
    });
    const byPath = Object.fromEntries(
      found.documents.map((d) => [new URL(d.url).pathname, d]),
    );
    for (const p of ["/self.xml", "/loop-a.xml", "/loop-b.xml", "/ok.xml"]) {
      assert.equal(hits.get(p), 1, `${p} is read once`);
    }
    assert.equal(byPath["/flood.xml"].problem, "larger than 50 MB");
    assert.equal(byPath["/bomb.xml.gz"].problem, "larger than 50 MB uncompressed");
    assert.equal(byPath["/run.xml.gz"].problem, "a text, comment or tag longer than 4 MB");
    assert.match(byPath["/bad.xml"].problem!, /^not well-formed XML: .+\(line 1, column \d+\)$/);
    assert.match(byPath["/big.xml"].problem!, /more than 50,000 URLs/);
    assert.equal(byPath["/big.xml"].listed, 50_000);
    assert.equal(byPath["/private/s.xml"].problem, "robots.txt disallows FolioBot");
    assert.equal(hits.get("/private/s.xml"), undefined);
    assert.match(byPath["/gone.xml"].problem!, /^HTTP 410: /);
    const urls = new Set([...taken.pages.keys()].map((u) => new URL(u).pathname));
    assert.ok(urls.has("/fine"));
    assert.ok(urls.has("/before-fault"), "a malformed sitemap keeps what came before the fault");
    assert.ok(!urls.has("/after-fault"), "and nothing after it");
    const fromBomb = [...urls].filter((u) => u.startsWith("/from-bomb-")).length;
    assert.ok(fromBomb >= 49 && fromBomb <= 50, `the bomb's URLs before the limit: ${fromBomb}`);
    assert.ok(urls.has("/from-run"), "the run's first URL was read before its limit");
    assert.ok(urls.has("/flood"), "the flood's entries before its limit are kept");
    assert.equal(found.offSite, 1);
    assert.equal(found.pages, 50_000 + 4 + fromBomb);
    assert.equal(taken.pages.size, found.pages);
    // Handed over as they were read: the 50,000 in batches, never held whole.
    assert.ok(taken.batches.length > 50, `${taken.batches.length} batches`);
    assert.ok(Math.max(...taken.batches) < 2_000, `largest batch ${Math.max(...taken.batches)}`);
    assert.equal(found.problems.length, 7, found.problems.join("\n"));

    const slowOrigin = `http://127.0.0.1:${slowServer.addr.port}`;
    const slowTaken = collect();
    const slow = await discoverSite(folio.deps, folio.seeded!.publisherId, `${slowOrigin}/`, {
      onPages: slowTaken.onPages,
      limits: { timeoutMs: 1500 },
    });
    const slowDoc = slow.documents.find((d) => new URL(d.url).pathname === "/slow.xml")!;
    assert.match(slowDoc.problem!, /^timeout: /);
    assert.equal(hits.get("/slow.xml"), 1, "the feed linked from the page is the same document");
    assert.ok(
      [...slowTaken.pages.keys()].some((u) => new URL(u).pathname === "/slow-1"),
      "a document cut by its deadline keeps the entries read before it",
    );
  } finally {
    await slowServer.shutdown();
    await server.shutdown();
  }
});

Deno.test("discovery stops at its document limit and reports how many were not read", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  folio.deps.fetcher = createFetcher({
    userAgent: USER_AGENT,
    allowLoopback: true,
    minHostIntervalMs: 0,
  });
  let origin = "";
  // Every index lists two new ones: a tree without end.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/robots.txt") return new Response(`Sitemap: ${origin}/t/1.xml`);
    const n = Number(/^\/t\/(\d+)\.xml$/.exec(path)?.[1] ?? 0);
    if (!n) return new Response("no", { status: 404 });
    return xml(
      `<sitemapindex><sitemap><loc>${origin}/t/${2 * n}.xml</loc></sitemap>` +
        `<sitemap><loc>${origin}/t/${2 * n + 1}.xml</loc></sitemap></sitemapindex>`,
    );
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    const found = await discoverSite(folio.deps, folio.seeded!.publisherId, `${origin}/`, {
      onPages: collect().onPages,
      limits: { maxDocuments: 20 },
    });
    assert.ok(found.documents.length <= 20);
    assert.ok(found.problems.some((p) => /indexes nested deeper than 3 are not followed/.test(p)));
    assert.equal(found.pages, 0);
  } finally {
    await server.shutdown();
  }
});
