/** Migrations 0009 (the ingestion lifecycle) and 0035 (sites) on stores that already have URLs. */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { loadMigrations, migrate } from "../store/db.ts";
import { getJob } from "../store/jobs.ts";
import { listUrls } from "../store/sources.ts";
import { insertSite } from "../store/sites.ts";

Deno.test("0009 keeps jobs and URLs in upload order and gives queued URLs to the active drain", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-migration-" });
  const db = createClient({ url: `file:${dir}/folio.db` });
  try {
    const all = await loadMigrations();
    const now = new Date("2026-11-15T12:00:00Z");
    await migrate(db, all.filter((m) => m.version < 9), { now });
    const t = now.getTime();
    await db.execute("PRAGMA foreign_keys = OFF"); // an orphan row, as a store without them left
    await db.batch([
      {
        sql: `INSERT INTO publishers (id, slug, name, created_at, updated_at)
              VALUES ('pub_a', 'a', 'A', ?, ?), ('pub_b', 'b', 'B', ?, ?)`,
        args: [t, t, t, t],
      },
      {
        sql: `INSERT INTO ingestion_jobs (id, publisher_id, kind, state, outcome, discovered,
                ingested, failed, created_at, finished_at) VALUES
                ('job_old', 'pub_a', 'sync', 'finished', 'SUCCEEDED', 3, 3, 0, ?, ?),
                ('job_run', 'pub_a', 'drain', 'running', NULL, 2, 0, 0, ?, NULL)`,
        args: [t - 1000, t - 500, t],
      },
      `INSERT INTO source_urls (publisher_id, url, state, created_at) VALUES
         ('pub_a', 'https://z.example/first', 'queued', 1),
         ('pub_a', 'https://a.example/second', 'ingested', 1),
         ('pub_a', 'https://m.example/third', 'queued', 1),
         ('pub_b', 'https://b.example/', 'queued', 1),
         ('pub_gone', 'https://gone.example/', 'queued', 1)`,
    ], "write");
    await db.execute("PRAGMA foreign_keys = ON");
    await migrate(db, all, { now });

    const running = await getJob(db, "pub_a", "job_run");
    assert.equal(running?.state, "running");
    assert.equal(running?.scope, "publisher");
    assert.equal(running?.queuedAt, new Date(t).toISOString());
    assert.equal((await getJob(db, "pub_a", "job_old"))?.outcome, "SUCCEEDED");
    const order = await db.execute("SELECT url, job_id FROM source_urls ORDER BY rowid");
    // The orphan (its publisher is gone) is not carried over; everything else keeps its order.
    assert.deepEqual(order.rows.map((r) => [r.url, r.job_id]), [
      ["https://z.example/first", "job_run"],
      ["https://a.example/second", null],
      ["https://m.example/third", "job_run"],
      ["https://b.example/", null],
    ]);
    assert.equal((await listUrls(db, "pub_a", { jobId: "job_run", limit: 10 })).length, 2);
    await assert.rejects(
      db.execute(
        "INSERT INTO ingestion_jobs (id, publisher_id, kind, created_at, queued_at) VALUES ('job_dup', 'pub_a', 'drain', 0, 0)",
      ),
      /UNIQUE/,
      "still one active publisher-wide drain",
    );
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("0035 keeps every URL with its fields and order, and accepts the removed state and sites", async () => {
  const dir = await Deno.makeTempDir({ prefix: "folio-migration-" });
  const db = createClient({ url: `file:${dir}/folio.db` });
  try {
    const all = await loadMigrations();
    const now = new Date("2026-11-26T12:00:00Z");
    await migrate(db, all.filter((m) => m.version < 35), { now });
    const t = now.getTime();
    await db.batch([
      {
        sql: `INSERT INTO publishers (id, slug, name, created_at, updated_at)
              VALUES ('pub_a', 'a', 'A', ?, ?)`,
        args: [t, t],
      },
      {
        sql: `INSERT INTO sources (id, publisher_id, original_name, content_hash, accepted,
                created_at) VALUES ('src_1', 'pub_a', 'list.csv', 'h', 2, ?)`,
        args: [t],
      },
      `INSERT INTO source_urls (publisher_id, url, source_id, title, state, reason, article_id,
         attempts, etag, last_modified, fetched_at, created_at, job_id) VALUES
         ('pub_a', 'https://z.example/1', 'src_1', 'T', 'ingested', NULL, 'art_1', 2, '"e"',
          'Tue, 24 Nov 2026 10:00:00 GMT', 5, 1, 'job_1'),
         ('pub_a', 'https://a.example/2', 'src_1', NULL, 'failed', 'HTTP 500', NULL, 1, NULL, NULL,
          6, 2, 'job_1')`,
    ], "write");
    await migrate(db, all, { now });
    const rows = await listUrls(db, "pub_a", { limit: 10 });
    assert.deepEqual(rows.map((r) => [r.url, r.state, r.etag, r.articleId, r.attempts]), [
      ["https://z.example/1", "ingested", '"e"', "art_1", 2],
      ["https://a.example/2", "failed", null, null, 1],
    ]);
    assert.equal(rows[0].lastModified, "Tue, 24 Nov 2026 10:00:00 GMT");
    await db.execute("UPDATE source_urls SET state = 'removed' WHERE url = 'https://z.example/1'");
    const site = await insertSite(db, "pub_a", {
      id: "src_site",
      url: "https://z.example/",
      syncEveryHours: null,
      now,
    });
    assert.equal(site?.kind, "site");
    assert.equal(site?.syncEveryHours, 24);
    assert.equal(
      await insertSite(db, "pub_a", {
        id: "src_2",
        url: "https://z.example/",
        syncEveryHours: 1,
        now,
      }),
      null,
      "one site per address",
    );
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
