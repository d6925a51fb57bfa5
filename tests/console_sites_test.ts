/** The console's sites (issue 30): add a site, its job page, sync now, its URL page (no worker). */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, hidden, textOf } from "./console_helpers.ts";
import { recordDiscovery } from "../store/sites.ts";

Deno.test("a publisher adds a site from the sources page, syncs it now and finds its page", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const sources = await visitor.get("/publisher/sources");
  assert.match(textOf(sources.html), /No sites yet/);
  const csrf = hidden(sources.html);

  const bad = await visitor.post("/publisher/sources/sites", { _csrf: csrf, url: "not a site" });
  assert.equal(bad.status, 400);
  assert.match(
    bad.html,
    /id="site-url"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="site-url"/,
  );
  assert.match(textOf(bad.html), /must be the http\(s\) address of the site/);
  const forged = await visitor.post("/publisher/sources/sites", {
    _csrf: "forged",
    url: "https://news.example/",
  });
  assert.equal(forged.status, 403);

  const added = await visitor.post("/publisher/sources/sites", {
    _csrf: csrf,
    url: "https://news.example/",
  });
  assert.match(added.url, /^\/publisher\/jobs\/job_\w+\?done=site-added$/);
  assert.match(textOf(added.html), /Site added; its first sync has started/);
  const jobId = /\/publisher\/jobs\/(job_\w+)/.exec(added.url)![1];

  const again = await visitor.post("/publisher/sources/sites", {
    _csrf: csrf,
    url: "https://news.example/",
  });
  assert.equal(again.status, 409);
  assert.match(textOf(again.html), /already added/);

  const list = await visitor.get("/publisher/sources");
  assert.match(textOf(list.html), /https:\/\/news\.example\//);
  assert.match(textOf(list.html), /No uploads yet/, "a site is not listed as an upload");
  const siteId = /action="\/publisher\/sources\/sites\/(src_\w+)\/sync"/.exec(list.html)![1];
  const synced = await visitor.post(`/publisher/sources/sites/${siteId}/sync`, { _csrf: csrf });
  assert.equal(synced.url, `/publisher/jobs/${jobId}?done=sync-queued`, "the queued sync is it");

  // What a sync's discovery read shows on its job page (recorded here as the runner would).
  const owner = await folio.store.db.execute({
    sql: "SELECT publisher_id FROM ingestion_jobs WHERE id = ?",
    args: [jobId],
  });
  const publisherId = String(owner.rows[0].publisher_id);
  await recordDiscovery(folio.store.db, publisherId, {
    jobId,
    discovery: {
      documents: [{
        url: "https://news.example/sitemap.xml",
        kind: "urlset",
        found: "guess",
        listed: 12,
        problem: null,
      }, {
        url: "https://news.example/feed.rss",
        kind: "unknown",
        found: "page",
        listed: 0,
        problem: "HTTP 404: status 404",
      }],
      pages: 12,
      offSite: 0,
      problems: ["https://news.example/feed.rss: HTTP 404: status 404"],
    },
  });
  const job = textOf((await visitor.get(`/publisher/jobs/${jobId}`)).html);
  assert.match(job, /What the site lists/);
  assert.match(job, /12 pages listed/);
  assert.match(job, /https:\/\/news\.example\/sitemap\.xml\s*sitemap\s*12/);
  assert.match(job, /All URLs of this site/);

  const page = await visitor.get(`/publisher/sources/${siteId}`);
  assert.match(textOf(page.html), /Site: https:\/\/news\.example\//);
  assert.match(page.html, /Remove this site/);
  const unknown = await visitor.post("/publisher/sources/sites/src_NOPE/sync", { _csrf: csrf });
  assert.equal(unknown.status, 404);
});

Deno.test("a site's sync interval is chosen when it is added and changed on its page; a bad one is refused beside its field", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const csrf = hidden((await visitor.get("/publisher/sources")).html);
  const bad = await visitor.post("/publisher/sources/sites", {
    _csrf: csrf,
    url: "https://weekly.example/",
    syncEveryHours: "500",
  });
  assert.equal(bad.status, 400);
  assert.match(textOf(bad.html), /Sync every/);
  assert.match(textOf(await (await visitor.get("/publisher/sources")).html), /No sites yet/);
  await visitor.post("/publisher/sources/sites", {
    _csrf: csrf,
    url: "https://weekly.example/",
    syncEveryHours: "168",
  });
  const list = await visitor.get("/publisher/sources");
  assert.match(textOf(list.html), /weekly/);
  const siteId = /action="\/publisher\/sources\/sites\/(src_\w+)\/sync"/.exec(list.html)![1];
  const saved = await visitor.post(`/publisher/sources/sites/${siteId}/interval`, {
    _csrf: csrf,
    syncEveryHours: "6",
  });
  assert.equal(saved.url, `/publisher/sources/${siteId}?done=interval`);
  assert.match(saved.html, /<option value="6" selected/);
});
