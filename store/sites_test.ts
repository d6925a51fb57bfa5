/**
 * A site sync's discovery queues its pages in batches as they are found (issue 39: nothing held
 * per page): a page listed twice in a run counts once and a later lastmod still re-queues it; the
 * site's pages no batch listed are re-checked; a resumed discovery changes nothing.
 */
import assert from "node:assert/strict";
import { openStore } from "./db.ts";
import { finishDiscovery, queueListed } from "./sites.ts";

const U = (n: number) => `https://site.example/${n}`;

async function siteStore() {
  const dir = await Deno.makeTempDir({ prefix: "folio-sites-" });
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  const db = store.db;
  await db.execute(
    "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES ('p', 'p', 'P', 0, 0)",
  );
  await db.execute(`INSERT INTO sources (id, publisher_id, kind, site_url, content_hash,
    created_at) VALUES ('s', 'p', 'site', 'https://site.example/', 'site:x', 0)`);
  // Pages 1-4 were fetched fine at t=1000 by an earlier run; page 5 failed.
  for (
    const [n, state] of [[1, "ingested"], [2, "ingested"], [3, "unchanged"], [4, "ingested"], [
      5,
      "failed",
    ]] as const
  ) {
    await db.execute({
      sql: `INSERT INTO source_urls (publisher_id, url, source_id, state, fetched_at, created_at,
              job_id, listed_by) VALUES ('p', ?, 's', ?, 1000, 0, 'old', 'old')`,
      args: [U(n), state],
    });
  }
  await db.execute(`INSERT INTO ingestion_jobs (id, publisher_id, kind, scope, source_id, state,
    created_at, queued_at, started_at) VALUES ('j', 'p', 'sync', 'urls', 's', 'running', 0, 0, 0)`);
  const states = async () => {
    const rs = await db.execute(
      "SELECT url, state, job_id FROM source_urls ORDER BY url",
    );
    return Object.fromEntries(
      rs.rows.map((r) => [String(r.url).slice(-1), `${r.state} ${r.job_id}`]),
    );
  };
  return {
    db,
    states,
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const page = (n: number, lastmod: number | null) => ({ url: U(n), lastmod, title: null });
const now = new Date(2000);

Deno.test("discovery in batches: repeats count once, a later lastmod re-queues, the unlisted are re-checked", async () => {
  await using s = await siteStore();
  const queue = (pages: ReturnType<typeof page>[]) =>
    queueListed(s.db, "p", { jobId: "j", siteId: "s", pages, now });
  // The sitemap: 1 and 2 unchanged by lastmod, 5 (failed before) and 6 (new) to fetch.
  assert.equal(await queue([page(1, 900), page(2, 900), page(5, 900), page(6, 900)]), 4);
  // A feed lists 1 again, undated (it stays unchanged), 2 again with a later date (fetched
  // after all), 6 again, and 6 twice in the same batch.
  assert.equal(await queue([page(1, null), page(2, 1500), page(6, 1500), page(6, null)]), 0);
  const done = await finishDiscovery(s.db, "p", { jobId: "j", siteId: "s", discovery: {} });
  // 3 and 4 were not listed: re-checked, to learn whether they are gone.
  assert.deepEqual(await s.states(), {
    1: "ingested old",
    2: "queued j",
    3: "queued j",
    4: "queued j",
    5: "queued j",
    6: "queued j",
  });
  assert.deepEqual(done, { queued: 5, unchanged: 1 });
  const job = await s.db.execute("SELECT discovered, unchanged FROM ingestion_jobs WHERE id = 'j'");
  assert.deepEqual({ ...job.rows[0] }, { discovered: 6, unchanged: 1 });

  // A resumed job discovers again: nothing changes, the counts are the same.
  assert.equal(await queue([page(1, 900), page(2, 900), page(5, 900), page(6, 900)]), 0);
  const again = await finishDiscovery(s.db, "p", { jobId: "j", siteId: "s", discovery: {} });
  assert.deepEqual(again, done);
  assert.equal((await s.states())[1], "ingested old");
});

Deno.test("discovery in batches: a page another active job owns is left to it", async () => {
  await using s = await siteStore();
  await s.db.execute(`INSERT INTO ingestion_jobs (id, publisher_id, kind, scope, state, created_at,
    queued_at) VALUES ('other', 'p', 'drain', 'urls', 'queued', 0, 0)`);
  await s.db.execute(
    `UPDATE source_urls SET state = 'queued', job_id = 'other' WHERE url = '${U(4)}'`,
  );
  await queueListed(s.db, "p", {
    jobId: "j",
    siteId: "s",
    pages: [1, 2, 3, 4].map((n) => page(n, 900)),
    now,
  });
  const done = await finishDiscovery(s.db, "p", { jobId: "j", siteId: "s", discovery: {} });
  assert.equal((await s.states())[4], "queued other");
  assert.deepEqual(done, { queued: 0, unchanged: 3 });
});
