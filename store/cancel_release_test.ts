/**
 * A cancellation finishes the job at once and releases its queued URLs in batches (issue 39:
 * one UPDATE of 50,000 rows held the serving thread 1.4 s); a release cut short by a crash is
 * finished by releaseCancelledUrls, and a worker still in flight records nothing for the job.
 */
import assert from "node:assert/strict";
import { openStore } from "./db.ts";
import { recordUrl } from "./ingest_queue.ts";
import { cancelJob, cancelledUrlReason, getJob, releaseCancelledUrls } from "./jobs.ts";

async function storeWithJob(urls: number) {
  const dir = await Deno.makeTempDir({ prefix: "folio-cancel-" });
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  const db = store.db;
  await db.execute(
    "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES ('p', 'p', 'P', 0, 0)",
  );
  await db.execute(`INSERT INTO ingestion_jobs (id, publisher_id, kind, scope, state, created_at,
    queued_at, started_at) VALUES ('j', 'p', 'drain', 'urls', 'running', 0, 0, 0)`);
  for (let i = 0; i < urls; i += 400) {
    const n = Math.min(400, urls - i);
    await db.execute({
      sql: `INSERT INTO source_urls (publisher_id, url, state, created_at, job_id) VALUES ${
        Array(n).fill("('p', ?, 'queued', 0, 'j')").join(", ")
      }`,
      args: Array.from({ length: n }, (_, k) => `https://a.example/${i + k}`),
    });
  }
  const states = async () => {
    const rs = await db.execute(
      "SELECT state, reason, COUNT(*) AS n FROM source_urls GROUP BY state, reason",
    );
    return rs.rows.map((r) => `${r.state} ${r.reason ?? "-"} ${r.n}`);
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

const CANCEL = { reason: "Wrong file", urlReason: cancelledUrlReason("j", "Wrong file") };

Deno.test("a cancellation releases every queued URL, over several batches, and counts them", async () => {
  await using s = await storeWithJob(1234);
  let stopped = 0;
  const onFinished = () => stopped++;
  const out = await cancelJob(s.db, "p", "j", { ...CANCEL, now: new Date(5), onFinished });
  assert.equal(stopped, 1, "the run is stopped once the job is finished");
  assert.equal(out?.released, 1234);
  assert.equal(out?.job.outcome, "CANCELLED");
  assert.equal(out?.job.cancelled, 1234);
  assert.deepEqual(await s.states(), [`cancelled ${CANCEL.urlReason} 1234`]);
  // Finished already: nothing more to release, and it says so.
  const again = await cancelJob(s.db, "p", "j", { ...CANCEL, now: new Date(6), onFinished });
  assert.equal(again?.released, null);
  assert.equal(stopped, 1);
  assert.equal((await getJob(s.db, "p", "j"))?.cancelled, 1234);
});

Deno.test("a release cut short is finished by recovery, and a worker in flight records nothing", async () => {
  await using s = await storeWithJob(700);
  // As a crash right after cancelJob's first transaction leaves it: finished, URLs still queued.
  await s.db.execute(`UPDATE ingestion_jobs SET state = 'finished', outcome = 'CANCELLED',
    reason = 'Wrong file', cancelled = 700 WHERE id = 'j'`);
  const work = { id: "j", kind: "drain" as const, scope: "urls" as const, startedAt: 0 };
  const late = await recordUrl(s.db, "p", "https://a.example/3", work, {
    state: "failed",
    category: "network",
    reason: "late",
  }, { now: new Date(9) });
  assert.equal(late.recorded, false);
  assert.equal((await getJob(s.db, "p", "j"))?.failed, 0);
  assert.deepEqual(await s.states(), ["queued - 700"]);
  assert.equal(await releaseCancelledUrls(s.db), 700);
  assert.deepEqual(await s.states(), [`cancelled ${CANCEL.urlReason} 700`]);
  assert.equal(await releaseCancelledUrls(s.db), 0);
});
