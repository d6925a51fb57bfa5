/**
 * The ingestion lifecycle (issue 11): an upload starts its own job; cancel, retry, removal; a bad
 * upload does not hold up a later one; counts are live while a job runs and exact after a resume.
 */
import assert from "node:assert/strict";
import { findArticle } from "../store/articles.ts";
import { claimJob, getJob } from "../store/jobs.ts";
import { recoverJobs, startIngestionWorker } from "../server/domain/catalog/jobs.ts";
import { auth, uploadCsv, waitForJob } from "./fixtures/ingest_helpers.ts";
import { loopbackFetcher, startGatedSite } from "./fixtures/gated_site.ts";
import { until } from "./fixtures/until.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { bearer, paramOf, sendJson, signUp } from "./manage_helpers.ts";

type Json = Record<string, unknown>;

async function call(
  folio: TestFolio,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await sendJson(folio, method, `/api/publisher${path}`, body, auth(folio));
  return { status: res.status, body: await res.json() };
}

async function job(folio: TestFolio, id: string): Promise<Json> {
  return (await call(folio, "GET", `/jobs/${id}`)).body;
}

async function urlsOf(folio: TestFolio, query: string): Promise<Json[]> {
  const { status, body } = await call(folio, "GET", `/sources/urls?${query}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body.urls as Json[];
}

Deno.test("an upload starts its own drain job and names it; the report filters by upload and job", async () => {
  await using folio = await testFolio(); // no worker: the job stays queued
  const up = await uploadCsv(folio, "https://a.example/1\nhttps://a.example/2\n");
  assert.equal(up.status, 201);
  const jobId = up.body.jobId as string;
  const j = up.body.job as Json;
  assert.equal(j.id, jobId);
  assert.equal(j.kind, "drain");
  assert.equal(j.scope, "urls");
  assert.equal(j.sourceId, up.body.sourceId);
  assert.equal(j.state, "queued");
  assert.equal(j.discovered, 2, "the job counts its URLs from the start");
  assert.deepEqual(await job(folio, jobId), j);

  const again = await uploadCsv(folio, "https://a.example/1\nhttps://a.example/2\n");
  assert.equal(again.status, 200);
  assert.equal(again.body.jobId, jobId, "a duplicate upload names the upload's job");

  const other = await uploadCsv(folio, "url\nhttps://a.example/2\nhttps://b.example/3\n");
  assert.equal(other.status, 201);
  assert.notEqual(other.body.jobId, jobId, "each upload is its own job");
  const known = await uploadCsv(folio, "https://a.example/1\n");
  assert.equal(known.status, 201);
  assert.equal(known.body.queued, 0);
  assert.equal(known.body.jobId, null, "nothing new, no job");
  assert.equal(known.body.job, null);

  const list = await call(folio, "GET", "/sources");
  const source = (list.body.sources as Json[]).find((s) => s.id === up.body.sourceId)!;
  assert.equal(source.jobId, jobId);
  assert.deepEqual(source.urls, {
    queued: 2,
    ingested: 0,
    unchanged: 0,
    failed: 0,
    blocked: 0,
    cancelled: 0,
    removed: 0,
  });
  assert.equal((list.body.urls as Json).cancelled, 0);

  const rows = await urlsOf(folio, `jobId=${jobId}`);
  assert.deepEqual(rows.map((r) => r.url), ["https://a.example/1", "https://a.example/2"]);
  for (const r of rows) {
    assert.equal(r.state, "queued");
    assert.equal(r.jobId, jobId);
    assert.equal(r.sourceId, up.body.sourceId);
    assert.equal(r.articleId, null);
    assert.equal(r.lastAttemptAt, null);
  }
  assert.equal((await urlsOf(folio, `sourceId=${other.body.sourceId}`)).length, 1);
  assert.equal((await urlsOf(folio, `sourceId=${up.body.sourceId}&state=failed`)).length, 0);
  const bad = await call(folio, "GET", "/sources/urls?state=lost");
  assert.equal(bad.status, 400);
  assert.match(String((bad.body.error as Json).message), /^state: must be one of /);
});

Deno.test("cancelling a running job stops its fetches, releases its queued URLs, survives a restart, and a retry finishes them", async () => {
  await using folio = await testFolio();
  await using site = startGatedSite();
  folio.deps.fetcher = loopbackFetcher();
  let worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 60_000 });
  try {
    const urls = Array.from({ length: 6 }, (_, i) => site.url(i, "gated"));
    const up = await uploadCsv(folio, urls.join("\n"));
    const jobId = up.body.jobId as string;
    await until("fetches wait at the gate", () => site.waiting() > 0);

    const res = await call(folio, "POST", `/jobs/${jobId}/cancel`, { reason: "Wrong file" });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.jobId, jobId);
    assert.equal(res.body.released, 6, "in-flight URLs are released too");
    const cancelled = res.body.job as Json;
    assert.equal(cancelled.state, "finished");
    assert.equal(cancelled.outcome, "CANCELLED");
    assert.equal(cancelled.reason, "Wrong file");
    assert.equal(cancelled.cancelled, 6);
    // The run stops at once: the fetches in flight are aborted, nothing else is asked for.
    await until("the site sees the fetches hang up", () => site.waiting() === 0);
    assert.equal(site.aborted(), site.requests());
    const rows = await urlsOf(folio, `jobId=${jobId}`);
    assert.equal(rows.length, 6);
    for (const r of rows) {
      assert.equal(r.state, "cancelled");
      assert.equal(r.reason, `Not fetched: job ${jobId} was cancelled (Wrong file)`);
    }
    const sources = await call(folio, "GET", "/sources");
    assert.equal((sources.body.urls as Json).cancelled, 6);
    assert.equal(((sources.body.sources as Json[])[0].urls as Json).cancelled, 6);

    // Finished now: a second cancel is a conflict.
    const twice = await call(folio, "POST", `/jobs/${jobId}/cancel`);
    assert.equal(twice.status, 409);
    assert.deepEqual(twice.body.error, {
      code: "job_finished",
      message:
        `Job ${jobId} has already finished (CANCELLED); only a queued or running job can be cancelled`,
    });

    // A restart does not resume it.
    await worker.stop();
    folio.clock.advance(10 * 60_000);
    assert.deepEqual(await recoverJobs(folio.deps), { resumed: 0, failed: 0 });
    assert.equal(await claimJob(folio.deps.store.db, "run_x", { now: folio.clock.now() }), null);
    worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 60_000 });
    assert.equal((await job(folio, jobId)).outcome, "CANCELLED");

    // Retrying the cancelled job queues its URLs under a new job, which finishes them.
    site.open();
    const retry = await call(folio, "POST", `/jobs/${jobId}/retry`);
    assert.equal(retry.status, 202, JSON.stringify(retry.body));
    assert.equal(retry.body.requeued, 6);
    const retryId = retry.body.jobId as string;
    assert.notEqual(retryId, jobId);
    assert.equal((retry.body.job as Json).sourceId, up.body.sourceId);
    const done = await waitForJob(folio, retryId);
    assert.equal(done.outcome, "SUCCEEDED", JSON.stringify(done));
    assert.equal(done.discovered, 6);
    assert.equal(done.ingested, 6);
    const ingested = await urlsOf(folio, `jobId=${retryId}&state=ingested`);
    assert.equal(ingested.length, 6);
    for (const r of ingested) {
      assert.match(String(r.articleId), /^a[0-9a-f]{15}$/);
      assert.match(String(r.lastAttemptAt), /^\d{4}-\d\d-\d\dT/);
    }
    // Nothing is left to retry, on the job or on the upload.
    const nothing = await call(folio, "POST", `/jobs/${retryId}/retry`);
    assert.equal(nothing.status, 409);
    assert.equal((nothing.body.error as Json).code, "nothing_to_retry");
    const none = await call(folio, "POST", `/sources/${up.body.sourceId}/retry`);
    assert.equal(none.status, 409);
  } finally {
    await worker.stop();
  }
});

Deno.test("cancel and retry refuse what they cannot do: unknown, another publisher's, bad reasons, a job still running", async () => {
  await using folio = await testFolio(); // no worker: jobs stay queued
  const up = await uploadCsv(folio, "https://a.example/1\n");
  const jobId = up.body.jobId as string;
  const stranger = await signUp(folio);
  const theirs = await sendJson(
    folio,
    "POST",
    `/api/publisher/jobs/${jobId}/cancel`,
    {},
    bearer(stranger.apiKey),
  );
  assert.equal(theirs.status, 404);
  assert.deepEqual(await theirs.json(), {
    error: { code: "not_found", message: "Job was not found" },
  });
  const theirRetry = await sendJson(
    folio,
    "POST",
    `/api/publisher/jobs/${jobId}/retry`,
    undefined,
    bearer(stranger.apiKey),
  );
  assert.equal(theirRetry.status, 404);
  await theirRetry.body?.cancel();
  assert.equal((await call(folio, "POST", "/jobs/job_NOPE/cancel")).status, 404);

  for (
    const [body, message] of [
      [{ reason: "x".repeat(501) }, "reason: must have at most 500 characters"],
      [{ reason: "" }, "reason: must have at least 1 character"],
      [{ reason: 5 }, "reason: expected a string"],
      [{ why: "because" }, "why: is not a known field"],
      ["[1]", "body: must be a JSON object"],
    ] as const
  ) {
    const res = await call(folio, "POST", `/jobs/${jobId}/cancel`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(res.body.error, { code: "invalid_request", message, ...paramOf(message) });
  }
  const typed = await folio.request(`/api/publisher/jobs/${jobId}/cancel`, {
    method: "POST",
    headers: { ...auth(folio), "content-type": "text/plain" },
    body: "stop",
  });
  assert.equal(typed.status, 415);
  await typed.body?.cancel();

  const active = await call(folio, "POST", `/jobs/${jobId}/retry`);
  assert.equal(active.status, 409);
  assert.equal((active.body.error as Json).code, "job_active");
  assert.equal((await getJob(folio.deps.store.db, "pub_demo", jobId))?.state, "queued");

  // No body at all: the default reason.
  const res = await folio.request(`/api/publisher/jobs/${jobId}/cancel`, {
    method: "POST",
    headers: auth(folio),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(body.job.reason, "Cancelled by the publisher");
  assert.equal(body.released, 1);
});

Deno.test("removing an upload cancels its job and removes its URLs; removing URLs by address; articles stay", async () => {
  await using folio = await testFolio();
  await using site = startGatedSite();
  folio.deps.fetcher = loopbackFetcher();
  const worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 60_000 });
  try {
    // One upload ingested, one stuck at the gate.
    const done = await uploadCsv(folio, [site.url(1), site.url(2), site.url(3)].join("\n"));
    assert.equal((await waitForJob(folio, done.body.jobId as string)).ingested, 3);
    const stuck = await uploadCsv(folio, [site.url(4, "gated"), site.url(5, "gated")].join("\n"));
    await until("the stuck upload's fetches wait", () => site.waiting() > 0);

    const stranger = await signUp(folio);
    const theirs = await sendJson(
      folio,
      "DELETE",
      `/api/publisher/sources/${stuck.body.sourceId}`,
      undefined,
      bearer(stranger.apiKey),
    );
    assert.equal(theirs.status, 404);
    await theirs.body?.cancel();
    assert.equal((await call(folio, "DELETE", "/sources/src_NOPE")).status, 404);
    assert.equal((await call(folio, "POST", "/sources/src_NOPE/retry")).status, 404);

    const removed = await call(folio, "DELETE", `/sources/${stuck.body.sourceId}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body, {
      sourceId: stuck.body.sourceId,
      removed: 2,
      articlesKept: 0,
      cancelledJobs: [stuck.body.jobId],
      note: "Articles already ingested from these URLs stay published; unpublish them separately",
    });
    assert.equal((await job(folio, stuck.body.jobId as string)).outcome, "CANCELLED");
    assert.equal((await job(folio, stuck.body.jobId as string)).reason, "The upload was removed");
    await until("the removed upload's fetches hang up", () => site.waiting() === 0);
    assert.equal((await urlsOf(folio, `sourceId=${stuck.body.sourceId}`)).length, 0);
    const sources = (await call(folio, "GET", "/sources")).body.sources as Json[];
    assert.deepEqual(sources.map((s) => s.id), [done.body.sourceId]);

    // Removing URLs by address: normalised like the CSV, unknown ones counted, articles kept.
    const res = await call(folio, "POST", "/sources/urls/remove", {
      urls: [`${site.url(1)}#top`, site.url(2), "https://never.example/listed"],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.removed, 2);
    assert.equal(res.body.notFound, 1);
    assert.equal(res.body.articlesKept, 2);
    assert.deepEqual((await urlsOf(folio, "")).map((u) => u.url), [site.url(3)]);
    assert.ok(await findArticle(folio.deps.store.db, "pub_demo", site.url(1)), "article stays");

    for (
      const [body, message] of [
        [{ urls: [] }, "urls: must have at least 1 item"],
        [{ urls: Array(1001).fill("https://a.example/") }, "urls: must have at most 1000 items"],
        [{ ids: ["x"] }, "urls: is required"],
      ] as const
    ) {
      const bad = await call(folio, "POST", "/sources/urls/remove", body);
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.deepEqual(bad.body.error, { code: "invalid_request", message, ...paramOf(message) });
    }
  } finally {
    await worker.stop();
  }
});

Deno.test("a later upload is processed while an earlier, hopeless one still runs (jobs take turns)", async () => {
  await using folio = await testFolio();
  await using site = startGatedSite();
  folio.deps.fetcher = loopbackFetcher();
  // Both queued before the worker starts, the hopeless one first: with one slot and the shortest
  // turn, the later upload can only finish early if jobs take turns (how fast the machine fetches
  // the 404s does not matter: the site's own log says in which order the pages were asked for).
  const bad = await uploadCsv(
    folio,
    Array.from({ length: 300 }, (_, i) => site.url(i, "missing")).join("\n"),
  );
  const badId = bad.body.jobId as string;
  folio.clock.advance(1000);
  const good = await uploadCsv(folio, [site.url(1), site.url(2), site.url(3)].join("\n"));
  const worker = startIngestionWorker(folio.deps, { pollMs: 50, maxJobs: 1, sliceMs: 0 });
  try {
    const done = await waitForJob(folio, good.body.jobId as string);
    assert.equal(done.outcome, "SUCCEEDED");
    assert.equal(done.ingested, 3);
    const log = site.log();
    const lastGood = Math.max(...[1, 2, 3].map((i) => log.indexOf(`/open/${i}`)));
    const missingBefore = log.slice(0, lastGood).filter((p) => p.startsWith("/missing/")).length;
    assert.ok(missingBefore >= 1, "the hopeless upload ran first");
    assert.ok(missingBefore < 30, `the later upload waited for ${missingBefore} of 300 pages`);
    await call(folio, "POST", `/jobs/${badId}/cancel`);
    const meanwhile = await job(folio, badId);
    // HTTP answers are not host failures: the host's remaining URLs were still being asked for.
    assert.equal((meanwhile.reasons as Json)["HTTP 404"], meanwhile.failed);
  } finally {
    await worker.stop();
  }
});

Deno.test("counts are live while a job runs and exact after it is interrupted and resumed", async () => {
  await using folio = await testFolio();
  await using site = startGatedSite();
  folio.deps.fetcher = loopbackFetcher();
  let worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 60_000 });
  const db = folio.deps.store.db;
  try {
    const urls = [
      ...Array.from({ length: 5 }, (_, i) => site.url(i)),
      ...Array.from({ length: 4 }, (_, i) => site.url(10 + i, "gated")),
    ];
    const up = await uploadCsv(folio, urls.join("\n"));
    const jobId = up.body.jobId as string;
    // Mid-job: the open pages are counted while the gated ones wait.
    await until("the open pages are counted", async () => (await job(folio, jobId)).ingested === 5);
    const live = await job(folio, jobId);
    assert.equal(live.state, "running");
    assert.equal(live.discovered, 9);
    assert.equal(live.failed, 0);

    // The process dies: its runner never comes back (stopping hands the job back; claiming it
    // for a dead runner makes it the orphan a crash leaves), and a later start resumes it.
    await worker.stop();
    assert.equal((await claimJob(db, "run_dead", { now: folio.clock.now() }))?.id, jobId);
    folio.clock.advance(5 * 60_000);
    assert.deepEqual(await recoverJobs(folio.deps), { resumed: 1, failed: 0 });
    site.open();
    worker = startIngestionWorker(folio.deps, { pollMs: 50 });
    const done = await waitForJob(folio, jobId);
    assert.equal(done.outcome, "SUCCEEDED", JSON.stringify(done));
    assert.equal(done.discovered, 9);
    assert.equal(done.ingested, 9, "every URL counted once: none lost, none twice");
    assert.equal(done.failed, 0);
    assert.equal((await getJob(db, "pub_demo", jobId))?.resumes, 1);
    assert.equal((await urlsOf(folio, `jobId=${jobId}&state=ingested`)).length, 9);
  } finally {
    await worker.stop();
  }
});
