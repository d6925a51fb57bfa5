/**
 * Onboarding by site (issue 30) end to end against a local site: a publisher adds the site, its
 * first sync finds every page in its sitemap index, gzip and News sitemaps and linked feeds; a
 * later sync fetches only new and changed pages, re-checks the rest conditionally, and
 * unpublishes pages that answer 404 or 410; a page that comes back is published again.
 */
import assert from "node:assert/strict";
import { findArticle } from "../store/articles.ts";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { startIngestionWorker } from "../server/domain/catalog/jobs.ts";
import { dailySiteSync } from "../server/domain/catalog/sites.ts";
import { USER_AGENT } from "../server/runtime.ts";
import { pageSpec } from "./fixtures/article_pages.ts";
import { auth, waitForJob } from "./fixtures/ingest_helpers.ts";
import { type ListName, type SitePage, startSiteServer } from "./fixtures/site_server.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

type Json = Record<string, unknown>;

async function call(folio: TestFolio, method: string, path: string, body?: unknown) {
  const res = await folio.request(`/api/publisher${path}`, {
    method,
    headers: { ...auth(folio), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as Json };
}

async function syncNow(folio: TestFolio, siteId: string): Promise<Json> {
  const queued = await call(folio, "POST", `/sites/${siteId}/sync`);
  assert.equal(queued.status, 202);
  return await waitForJob(folio, queued.body.jobId as string);
}

Deno.test("a site's sitemaps and feeds onboard its articles; a sync fetches what changed and unpublishes what is gone", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  folio.deps.fetcher = createFetcher({
    userAgent: USER_AGENT,
    allowLoopback: true,
    minHostIntervalMs: 0,
  });
  const day = (n: number) => new Date(folio.clock.now().getTime() - n * 86_400_000);
  const page = (i: number, list: ListName, lastmod: Date | null): SitePage => ({
    spec: pageSpec(i),
    list,
    lastmod,
    status: 200,
  });
  const pages = [
    page(1, "gz", day(3)),
    page(2, "gz", day(3)),
    page(3, "news", day(1)),
    page(4, "news", day(1)),
    page(5, "rss", day(2)),
    page(6, "rss", null),
    page(7, "atom", day(2)),
  ];
  await using site = startSiteServer(pages);
  const worker = startIngestionWorker(folio.deps, { pageTimeoutMs: 60_000, pollMs: 50 });
  try {
    const bad = await call(folio, "POST", "/sites", { url: "ftp://example.com/" });
    assert.equal(bad.status, 400);
    assert.equal((bad.body.error as Json).param, "url");
    assert.equal((await call(folio, "POST", "/sites", {})).status, 400);

    const added = await call(folio, "POST", "/sites", { url: `${site.origin}/` });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const siteId = (added.body.site as Json).id as string;
    assert.equal((added.body.site as Json).kind, "site");
    const again = await call(folio, "POST", "/sites", { url: `${site.origin}/` });
    assert.equal(again.status, 409);
    assert.equal((again.body.error as Json).code, "site_exists");

    const first = await waitForJob(folio, added.body.jobId as string);
    assert.equal(first.outcome, "SUCCEEDED", JSON.stringify(first));
    assert.equal(first.kind, "sync");
    assert.equal(first.ingested, 7);
    assert.equal(first.discovered, 7);
    const discovery = first.discovery as Json;
    assert.equal(discovery.pages, 7);
    assert.equal(discovery.offSite, 1, "the feed's story on another host is left out");
    const docs = discovery.documents as Json[];
    const kinds = Object.fromEntries(docs.map((d) => [new URL(d.url as string).pathname, d.kind]));
    assert.deepEqual(kinds, {
      "/": "page",
      "/sitemap_index.xml": "sitemapindex",
      "/sitemap-articles.xml.gz": "urlset",
      "/news-sitemap.xml": "urlset",
      "/drafts/sitemap.xml": "unknown",
      "/feed.rss": "rss",
      "/feed.atom": "atom",
    });
    assert.equal(
      site.hits.get("/sitemap_index.xml"),
      1,
      "the index that lists itself is read once",
    );
    assert.equal(site.hits.get("/drafts/sitemap.xml"), undefined, "robots.txt disallows it");
    assert.match(first.reason as string, /1 discovery problem: .*drafts.*robots\.txt disallows/);
    for (const p of pages) {
      const a = await findArticle(
        folio.store.db,
        folio.seeded!.publisherId,
        `${site.origin}${p.spec.path}`,
      );
      assert.ok(a, p.spec.path);
    }
    const news = await findArticle(
      folio.store.db,
      folio.seeded!.publisherId,
      `${site.origin}${pages[2].spec.path}`,
    );
    assert.equal(news!.title, pages[2].spec.title);

    // A day later: story 1 changed (lastmod moves), story 8 is new, story 3 left the News sitemap
    // and answers 404, story 5 left the feed and answers 410; the rest did not change.
    folio.clock.advance(86_400_000);
    pages[0].spec = { ...pages[0].spec, summary: "Revised: " + pages[0].spec.summary };
    pages[0].spec.sections = [...pages[0].spec.sections, {
      heading: "Update",
      paragraphs: ["The council published its revised figures this morning."],
    }];
    pages[0].lastmod = day(0);
    site.pages.set(pageSpec(8).path, page(8, "news", day(0)));
    Object.assign(pages[2], { list: null, status: 404 });
    Object.assign(pages[4], { list: null, status: 410 });
    const hitsBefore = new Map(site.hits);
    const second = await syncNow(folio, siteId);
    assert.equal(second.outcome, "SUCCEEDED", JSON.stringify(second));
    assert.equal(second.ingested, 2, "the changed page and the new one");
    assert.equal(second.unpublished, 2);
    // Stories 2, 4 and 7 are skipped by lastmod without a request; story 6 has none, so it is
    // asked with If-None-Match and answers 304.
    assert.equal(second.unchanged, 4);
    assert.equal(second.failed, 0);
    assert.equal(second.discovered, 8);
    for (const i of [1, 3, 6]) {
      assert.equal(
        site.hits.get(pages[i].spec.path),
        hitsBefore.get(pages[i].spec.path),
        `story ${i + 1} not fetched`,
      );
    }
    assert.equal(site.hits.get(pages[5].spec.path)! - hitsBefore.get(pages[5].spec.path)!, 1);
    const gone = await findArticle(
      folio.store.db,
      folio.seeded!.publisherId,
      `${site.origin}${pages[2].spec.path}`,
    );
    assert.equal(gone, null, "an unpublished article is not served");
    const removed = await call(folio, "GET", `/sources/urls?state=removed&sourceId=${siteId}`);
    const reasons = (removed.body.urls as Json[]).map((u) => u.reason).sort();
    assert.deepEqual(reasons, [
      "HTTP 404: the page is gone; its article was unpublished",
      "HTTP 410: the page is gone; its article was unpublished",
    ]);
    const changed = await findArticle(
      folio.store.db,
      folio.seeded!.publisherId,
      `${site.origin}${pages[0].spec.path}`,
    );
    assert.match(changed!.summary ?? "", /^Revised: /);

    // Story 3 comes back and is listed again: it is published again.
    folio.clock.advance(86_400_000);
    Object.assign(pages[2], { list: "news", status: 200, lastmod: day(0) });
    const third = await syncNow(folio, siteId);
    assert.equal(third.outcome, "SUCCEEDED", JSON.stringify(third));
    const back = await findArticle(
      folio.store.db,
      folio.seeded!.publisherId,
      `${site.origin}${pages[2].spec.path}`,
    );
    assert.ok(back, "republished");
    assert.equal(third.unpublished, 0, "story 5, unpublished already, is not counted again");

    const listed = await call(folio, "GET", "/sites");
    const shown = (listed.body.sites as Json[])[0];
    assert.equal(shown.siteUrl, `${site.origin}/`);
    assert.equal((shown.urls as Json).removed, 1);
    assert.equal(shown.jobId, third.id);
    assert.equal((await call(folio, "GET", `/sites/${siteId}`)).body.id, siteId);
  } finally {
    await worker.stop();
  }
});

Deno.test("sites: unknown ids are 404; a sync already queued is answered again; a site that does not answer fails its job with the reason", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  folio.deps.fetcher = createFetcher({
    userAgent: USER_AGENT,
    allowLoopback: true,
    timeoutMs: 2000,
    retries: 0,
  });
  assert.equal((await call(folio, "GET", "/sites/src_NOPE")).status, 404);
  assert.equal((await call(folio, "POST", "/sites/src_NOPE/sync")).status, 404);
  // A port nothing listens on.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const added = await call(folio, "POST", "/sites", { url: `http://127.0.0.1:${port}/` });
  assert.equal(added.status, 201);
  const queuedAgain = await call(folio, "POST", `/sites/${(added.body.site as Json).id}/sync`);
  assert.equal(queuedAgain.status, 202);
  assert.equal(queuedAgain.body.created, false);
  assert.equal(queuedAgain.body.jobId, added.body.jobId);
  const worker = startIngestionWorker(folio.deps, { pollMs: 50 });
  try {
    const job = await waitForJob(folio, added.body.jobId as string);
    assert.equal(job.outcome, "FAILED");
    assert.match(
      job.reason as string,
      /^The site could not be reached: .*robots\.txt got no answer/,
    );
  } finally {
    await worker.stop();
  }
});

Deno.test("sites: the cron syncs each site once its interval has passed (daily by default); PATCH changes the interval", async () => {
  await using folio = await testFolio();
  const daily = await call(folio, "POST", "/sites", { url: "https://daily.example/" });
  const hourly = await call(folio, "POST", "/sites", {
    url: "https://hourly.example/",
    syncEveryHours: 1,
  });
  assert.equal(hourly.status, 201);
  assert.equal((daily.body.site as Json).syncEveryHours, 24);
  assert.equal((hourly.body.site as Json).syncEveryHours, 1);
  for (const bad of [0, 169, 1.5, "6"]) {
    const r = await call(folio, "POST", "/sites", {
      url: "https://x.example/",
      syncEveryHours: bad,
    });
    assert.equal(r.status, 400, String(bad));
    assert.equal((r.body.error as Json).param, "syncEveryHours");
  }
  // No worker runs here: finish the first syncs by cancelling them.
  for (const r of [daily, hourly]) {
    assert.equal((await call(folio, "POST", `/jobs/${r.body.jobId}/cancel`, {})).status, 200);
  }
  const cron = () => dailySiteSync(folio.deps, { holder: "node-test" });
  assert.equal(await cron(), 0, "both were synced just now");
  folio.clock.advance(3600_000);
  assert.equal(await cron(), 1, "the hourly site is due");
  const hourlyId = (hourly.body.site as Json).id as string;
  const patched = await call(folio, "PATCH", `/sites/${hourlyId}`, { syncEveryHours: 48 });
  assert.equal(patched.body.syncEveryHours, 48);
  assert.equal((await call(folio, "PATCH", `/sites/${hourlyId}`, {})).status, 400);
  assert.equal((await call(folio, "PATCH", "/sites/src_NOPE", { syncEveryHours: 2 })).status, 404);
  const jobs = await call(folio, "GET", "/jobs");
  for (const j of jobs.body.jobs as Json[]) {
    if (j.state !== "finished") await call(folio, "POST", `/jobs/${j.id}/cancel`, {});
  }
  folio.clock.advance(23 * 3600_000);
  assert.equal(await cron(), 1, "a day later the daily site is due; the other waits 48 hours");
});
