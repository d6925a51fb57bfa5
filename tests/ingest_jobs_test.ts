/** Ingestion jobs: private addresses, restarts, deadlines, sync, robots.txt verdicts, cron. */
import assert from "node:assert/strict";
import { findArticle } from "../store/articles.ts";
import { claimJob, createJob, getJob, listJobs } from "../store/jobs.ts";
import {
  dailySync,
  MAX_RESUMES,
  queueJob,
  recoverJobs,
  startIngestionWorker,
  stopIngestionWorker,
} from "../server/domain/catalog/jobs.ts";
import {
  dailyRobotsRefresh,
  ROBOTS_TOKEN,
  robotsVerdict,
} from "../server/domain/catalog/robots.ts";
import { USER_AGENT } from "../server/runtime.ts";
import { pageSpec } from "./fixtures/article_pages.ts";
import { runJobViaApi, uploadCsv, urlsIn, waitForJob } from "./fixtures/ingest_helpers.ts";
import { until } from "./fixtures/until.ts";
import { startPageServer } from "./fixtures/page_server.ts";
import { testFolio } from "./helpers.ts";

const LOOPBACK = { env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } };

Deno.test("without the loopback switch, loopback, private and metadata addresses in every spelling are refused and never reached", async () => {
  await using folio = await testFolio();
  await using site = startPageServer([pageSpec(0)]);
  const worker = startIngestionWorker(folio.deps, { pollMs: 100 });
  try {
    const p = site.port;
    const urls = [
      `http://127.0.0.1:${p}/news/climate/story-0`,
      `http://[::1]:${p}/`,
      `http://localhost:${p}/`,
      `http://2130706433:${p}/decimal`,
      `http://0x7f000001:${p}/hex`,
      `http://127.1:${p}/short`,
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:127.0.0.1]/",
      "http://2130706433/",
      "http://0x7f000001/hex",
      "http://[::1]/",
      "http://localhost/",
    ];
    const up = await uploadCsv(folio, urls.join("\n"));
    assert.equal(up.status, 201);
    assert.deepEqual(up.body.rejected, []);
    const job = await waitForJob(folio, up.body.jobId as string); // the upload's own job
    assert.equal(job.outcome, "FAILED");
    assert.equal(job.failed, job.discovered);
    assert.match(String(job.reason), /^All 13 URLs failed; commonest reason: /);
    const failed = await urlsIn(folio, "failed");
    assert.equal(failed.size, urls.length);
    assert.ok(
      failed.has(`http://127.0.0.1:${p}/decimal`),
      "decimal and hex forms normalise to 127.0.0.1",
    );
    for (const reason of failed.values()) {
      assert.match(reason!, /loopback|private|link-local|IPv6 form|port \d+ is not allowed/);
    }
    // On an allowed port the address itself is the reason.
    assert.match(failed.get("http://127.0.0.1/")!, /address 127\.0\.0\.1 is loopback/);
    assert.match(failed.get("http://127.0.0.1/hex")!, /loopback/);
    assert.match(failed.get("http://[::1]/")!, /loopback/);
    assert.match(
      failed.get("http://localhost/")!,
      /localhost resolves to 127\.0\.0\.1, which is loopback/,
    );
    assert.match(failed.get("http://10.0.0.1/")!, /address 10\.0\.0\.1 is private/);
    assert.match(failed.get("http://169.254.169.254/latest/meta-data/")!, /link-local/);
    assert.equal(site.total(), 0, "the local site got no request at all");
  } finally {
    await worker.stop();
  }
});

Deno.test("recoverJobs() resumes a job whose runner died, and the worker finishes it", async () => {
  await using folio = await testFolio(LOOPBACK);
  await stopIngestionWorker(folio.deps); // these drive jobs by hand
  await using site = startPageServer([pageSpec(1), pageSpec(2)]);
  const up = await uploadCsv(
    folio,
    `${site.origin}${pageSpec(1).path}\n${site.origin}${pageSpec(2).path}\n`,
  );
  const db = folio.deps.store.db;
  // The upload's job, claimed by a runner that then vanished (no heartbeat since).
  const job = { id: up.body.jobId as string };
  assert.equal((await claimJob(db, "run_dead", { now: folio.clock.now() }))?.id, job.id);
  assert.deepEqual(await recoverJobs(folio.deps), { resumed: 0, failed: 0 }, "fresh heartbeat");
  folio.clock.advance(5 * 60_000);
  assert.deepEqual(await recoverJobs(folio.deps), { resumed: 1, failed: 0 });
  assert.equal((await getJob(db, "pub_demo", job.id))?.state, "queued");
  const worker = startIngestionWorker(folio.deps, { pollMs: 100 });
  try {
    const done = await waitForJob(folio, job.id);
    assert.equal(done.outcome, "SUCCEEDED");
    assert.equal(done.ingested, 2);
  } finally {
    await worker.stop();
  }
});

Deno.test("recoverJobs() fails a job that keeps dying instead of resuming it forever", async () => {
  await using folio = await testFolio();
  await stopIngestionWorker(folio.deps); // these drive jobs by hand
  const db = folio.deps.store.db;
  await createJob(db, "pub_demo", { id: "job_cursed", kind: "sync", now: folio.clock.now() });
  for (let i = 0; i < MAX_RESUMES; i++) {
    await claimJob(db, `run_${i}`, { now: folio.clock.now() });
    folio.clock.advance(120_000);
    assert.deepEqual(await recoverJobs(folio.deps), { resumed: 1, failed: 0 });
  }
  await claimJob(db, "run_last", { now: folio.clock.now() });
  folio.clock.advance(120_000);
  assert.deepEqual(await recoverJobs(folio.deps), { resumed: 0, failed: 1 });
  const job = await getJob(db, "pub_demo", "job_cursed");
  assert.equal(job?.state, "finished");
  assert.equal(job?.outcome, "FAILED");
  assert.match(job!.reason!, /^Interrupted 4 times/);
});

Deno.test("a job with no progress for 600 s fails with that reason, and stopping hands a job back", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using site = startPageServer([]);
  const up = await uploadCsv(folio, `${site.origin}/slow\n${site.origin}/slow?again\n`);
  let worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 60_000 });
  const job = { id: up.body.jobId as string }; // the upload's own job
  const db = folio.deps.store.db;
  const running = () =>
    until("the job runs", async () => (await getJob(db, "pub_demo", job.id))?.state === "running");
  try {
    await running();
    // Shutdown while the fetches hang: the job goes back to the queue, not "running" forever.
    await worker.stop();
    assert.equal((await getJob(db, "pub_demo", job.id))?.state, "queued");
    assert.equal((await urlsIn(folio, "queued")).size, 2, "the URLs stay queued");

    worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 60_000 });
    await running();
    folio.clock.advance(601_000);
    const done = await waitForJob(folio, job.id);
    assert.equal(done.outcome, "FAILED");
    assert.equal(done.reason, "Timed out after 600 s with no progress");
  } finally {
    await worker.stop();
  }
});

Deno.test("a sync job re-checks known URLs with conditional requests and updates only what changed", async () => {
  await using folio = await testFolio(LOOPBACK);
  const specs = [3, 4, 5, 6].map(pageSpec);
  await using site = startPageServer(specs);
  const worker = startIngestionWorker(folio.deps, { pollMs: 50 });
  try {
    const up = await uploadCsv(folio, specs.map((s) => `${site.origin}${s.path}`).join("\n"));
    const drain = await waitForJob(folio, up.body.jobId as string);
    assert.equal(drain.ingested, 4);
    site.setPage({ ...specs[0], summary: "A corrected summary." });
    folio.clock.advance(24 * 3600_000 + 1000);
    const sync = await runJobViaApi(folio, "sync");
    assert.equal(sync.outcome, "SUCCEEDED", JSON.stringify(sync));
    assert.equal(sync.discovered, 4);
    assert.equal(sync.ingested, 1);
    assert.equal(sync.unchanged, 3);
    const a = await findArticle(folio.deps.store.db, "pub_demo", `${site.origin}${specs[0].path}`);
    assert.equal(a?.summary, "A corrected summary.");
    assert.equal(site.hits.get("/robots.txt"), 2, "robots.txt is refetched after a day");
  } finally {
    await worker.stop();
  }
});

Deno.test("robots.txt: 404 allows all, 5xx disallows the host until a later success, Disallow applies to our token", async () => {
  await using folio = await testFolio(LOOPBACK);
  await using site = startPageServer([], { robots: 404 });
  const url = `${site.origin}/news/a`;
  assert.ok(USER_AGENT.startsWith(`${ROBOTS_TOKEN}/`), "the token is the User-Agent's product");
  assert.deepEqual(await robotsVerdict(folio.deps, "pub_demo", url), { allowed: true });

  site.setRobots(503);
  folio.clock.advance(24 * 3600_000);
  const down = await robotsVerdict(folio.deps, "pub_demo", url);
  assert.equal("allowed" in down && down.allowed, false);
  assert.match(
    (down as { reason: string }).reason,
    /answered HTTP 503; the host is treated as disallowed/,
  );

  site.setRobots("User-agent: foliobot\nDisallow: /news/\n");
  folio.clock.advance(30 * 60_000);
  assert.equal(
    ((await robotsVerdict(folio.deps, "pub_demo", url)) as { allowed: boolean }).allowed,
    false,
    "still disallowed within the hour before the retry",
  );
  folio.clock.advance(31 * 60_000);
  assert.deepEqual(await robotsVerdict(folio.deps, "pub_demo", url), {
    allowed: false,
    reason: "robots.txt disallows FolioBot",
  });
  assert.deepEqual(await robotsVerdict(folio.deps, "pub_demo", `${site.origin}/about`), {
    allowed: true,
  });

  // The daily refetch picks up a changed verdict.
  site.setRobots("User-agent: *\nAllow: /\n");
  folio.clock.advance(24 * 3600_000);
  assert.equal(await dailyRobotsRefresh(folio.deps, { holder: "node-a" }), 1);
  assert.deepEqual(await robotsVerdict(folio.deps, "pub_demo", url), { allowed: true });
});

Deno.test("dailySync() queues one sync per publisher with URLs, only on the node holding the lease", async () => {
  await using folio = await testFolio();
  await stopIngestionWorker(folio.deps); // these drive jobs by hand
  await uploadCsv(folio, "https://a.example/1\n");
  const db = folio.deps.store.db;
  const now = folio.clock.now().getTime();
  await db.execute({
    sql: "INSERT INTO cron_leases (name, holder, expires_at) VALUES (?, ?, ?)",
    args: ["ingest-daily-sync", "node-other", now + 60_000],
  });
  assert.equal(await dailySync(folio.deps, { holder: "node-a" }), 0, "another node holds it");
  const syncs = async () =>
    (await listJobs(db, "pub_demo", { limit: 10 })).filter((j) => j.kind === "sync");
  assert.equal((await syncs()).length, 0);
  folio.clock.advance(61_000);
  assert.equal(await dailySync(folio.deps, { holder: "node-a" }), 1);
  assert.equal(
    await dailySync(folio.deps, { holder: "node-b" }),
    0,
    "a sync already queued is not queued twice",
  );
});

Deno.test("asking for a second drain while one is active returns the active job", async () => {
  await using folio = await testFolio();
  await stopIngestionWorker(folio.deps); // these drive jobs by hand
  const a = await queueJob(folio.deps, "pub_demo", "drain");
  const b = await queueJob(folio.deps, "pub_demo", "drain");
  const c = await queueJob(folio.deps, "pub_demo", "sync");
  assert.equal(a.created, true);
  assert.equal(b.created, false);
  assert.equal(b.job.id, a.job.id);
  assert.notEqual(c.job.id, a.job.id);
});
