/**
 * End to end: a local site of a few hundred realistic article pages, uploaded as a CSV through the
 * management API, ingested by a drain job; metadata, counts and every failure's reason checked.
 */
import assert from "node:assert/strict";
import { findArticle, listRecent } from "../store/articles.ts";
import { createFetcher } from "../server/domain/catalog/fetcher.ts";
import { startIngestionWorker } from "../server/domain/catalog/jobs.ts";
import { USER_AGENT } from "../server/runtime.ts";
import { expectedBody, pageSpec } from "./fixtures/article_pages.ts";
import { auth, runJobViaApi, uploadCsv, urlsIn, waitForJob } from "./fixtures/ingest_helpers.ts";
import { BAD_PATHS, startPageServer } from "./fixtures/page_server.ts";
import { testFolio } from "./helpers.ts";

const PAGES = 240;

Deno.test("a drain job ingests a few hundred pages with their metadata and counts every failure with its reason", async () => {
  await using folio = await testFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
  const specs = Array.from({ length: PAGES }, (_, i) => pageSpec(i));
  await using site = startPageServer(specs);
  // The site is our own loopback fixture: no politeness spacing between its pages (spacing is
  // server/domain/catalog/host_slots_test.ts's subject); everything else is the production fetcher.
  folio.deps.fetcher = createFetcher({
    userAgent: USER_AGENT,
    allowLoopback: true,
    minHostIntervalMs: 0,
  });
  const worker = startIngestionWorker(folio.deps, { pageTimeoutMs: 5000, pollMs: 100 });
  try {
    const good = specs.map((s) => `${site.origin}${s.path}`);
    const bad = Object.keys(BAD_PATHS).map((p) => `${site.origin}${p}`);
    const refused = ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/"];
    // Quick failures first, the slow ones last: a slow page holds one of the fetcher's two
    // connections to this host for the whole deadline, and a 5xx retry waiting behind two of
    // them would run out of time and be counted as a timeout.
    const slow = bad.filter((u) => /\/(slow|trickle)$/.test(u));
    const csv = [
      "url,title",
      ...bad.filter((u) => !slow.includes(u)).map((u) => `${u},`),
      ...good.map((u, i) => `${u},"Listed title ${i}, with a comma"`),
      ...slow.map((u) => `${u},`),
      ...refused.map((u) => `${u},`),
      `${good[0]},duplicate row`,
      `"=HYPERLINK(""http://evil.example"",""click"")",formula`,
      `not a url,x`,
    ].join("\r\n");
    const up = await uploadCsv(folio, "\uFEFF" + csv);
    assert.equal(up.status, 201);
    const expectedFailures = bad.length + refused.length;
    assert.equal(up.body.accepted, PAGES + expectedFailures);
    const rejected = up.body.rejected as { line: number; url: string; reason: string }[];
    assert.deepEqual(rejected.map((r) => r.line), [
      PAGES + expectedFailures + 2,
      PAGES + expectedFailures + 3,
      PAGES + expectedFailures + 4,
    ]);
    assert.match(rejected[0].reason, /^duplicate of line \d+$/);
    assert.equal(rejected[1].url, '=HYPERLINK("http://evil.example","click")');
    assert.equal(rejected[1].reason, "not an http(s) URL");

    // The upload started its own drain job.
    const job = await waitForJob(folio, up.body.jobId as string, { timeoutMs: 240_000 });
    assert.equal(job.outcome, "SUCCEEDED", JSON.stringify(job));
    assert.equal(job.discovered, PAGES + expectedFailures);
    assert.equal(job.ingested, PAGES);
    assert.equal(job.failed, expectedFailures);
    assert.equal(
      (job.ingested as number) + (job.failed as number) + (job.unchanged as number),
      job.discovered,
    );
    const reasons = job.reasons as Record<string, number>;
    const want: Record<string, number> = {};
    for (
      const c of [
        ...Object.values(BAD_PATHS),
        ...refused.map(() => "private or reserved address"),
      ]
    ) {
      want[c] = (want[c] ?? 0) + 1;
    }
    assert.deepEqual(reasons, want);
    assert.match(
      String(job.reason),
      new RegExp(`^${expectedFailures} of ${PAGES + expectedFailures} URLs failed`),
    );

    // Every page's metadata is what the page says.
    const db = folio.deps.store.db;
    for (const [i, s] of specs.entries()) {
      const a = await findArticle(db, "pub_demo", good[i]);
      assert.ok(a, `article for ${s.path}`);
      assert.equal(a.title, s.title);
      assert.equal(a.author, s.author);
      assert.equal(a.publishedAt, s.publishedAt, `${s.style} ${s.path}`);
      assert.equal(a.summary, s.summary);
      assert.deepEqual(a.tags, s.tags);
      assert.equal(a.body, expectedBody(s), s.path);
      assert.equal(a.canonicalUrl, `${site.origin}${s.path}`);
      assert.equal(a.kind, "article");
    }
    const all = await listRecent(db, "pub_demo", { limit: 1000 });
    assert.equal(all.length, 48 + PAGES, "the seeded catalog plus every page, nothing else");

    // Every failure is on its URL with a reason; nothing is lost or left queued.
    const failed = await urlsIn(folio, "failed");
    const blocked = await urlsIn(folio, "blocked");
    assert.equal(failed.size + blocked.size, expectedFailures);
    assert.equal((await urlsIn(folio, "queued")).size, 0);
    assert.equal((await urlsIn(folio, "ingested")).size, PAGES);
    assert.match(failed.get(`${site.origin}/missing`)!, /status 404/);
    assert.match(failed.get(`${site.origin}/broken`)!, /status 500/);
    assert.match(failed.get(`${site.origin}/slow`)!, /no complete response within 5000 ms/);
    assert.match(failed.get(`${site.origin}/trickle`)!, /no complete response within 5000 ms/);
    assert.match(failed.get(`${site.origin}/file.pdf`)!, /content type application\/pdf/);
    assert.match(failed.get(`${site.origin}/endless`)!, /exceeds 10485760 bytes/);
    assert.match(failed.get(`${site.origin}/redirect-private`)!, /10\.0\.0\.1.*private/);
    assert.match(failed.get("http://10.0.0.1/")!, /private/);
    assert.match(failed.get("http://169.254.169.254/latest/meta-data/")!, /link-local/);
    assert.equal(blocked.get(`${site.origin}/private/secret`), "robots.txt disallows FolioBot");
    assert.equal(site.hits.get("/private/secret") ?? 0, 0, "a disallowed page is never fetched");
    assert.equal(site.hits.get("/robots.txt"), 1, "robots.txt is fetched once per origin");

    // Re-uploading the same file creates no work, and a second drain finds nothing to do.
    const again = await uploadCsv(folio, "\uFEFF" + csv);
    assert.equal(again.status, 200);
    assert.equal(again.body.sourceId, up.body.sourceId);
    assert.equal(again.body.duplicate, true);
    assert.equal(again.body.queued, 0);
    assert.equal(again.body.jobId, up.body.jobId, "a duplicate names the upload's job");
    const second = await runJobViaApi(folio, "drain");
    assert.equal(second.outcome, "SUCCEEDED");
    assert.equal(second.discovered, 0);

    const list = await folio.request("/api/publisher/jobs", { headers: auth(folio) });
    assert.equal((await list.json()).jobs.length, 2);
  } finally {
    await worker.stop();
  }
});
