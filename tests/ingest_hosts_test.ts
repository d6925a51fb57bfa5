/**
 * Per-host failure memory inside a job (issue 11): a host whose name does not resolve, or that
 * keeps timing out, stops consuming the job's time; HTTP errors are answers, not host failures.
 */
import assert from "node:assert/strict";
import { startIngestionWorker } from "../server/domain/catalog/jobs.ts";
import { CONNECTION_FAILURES } from "../server/domain/catalog/host_memory.ts";
import { auth, uploadCsv, waitForJob } from "./fixtures/ingest_helpers.ts";
import { loopbackFetcher, startGatedSite } from "./fixtures/gated_site.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

async function urlsOf(folio: TestFolio, jobId: string): Promise<Map<string, string | null>> {
  const res = await folio.request(`/api/publisher/sources/urls?jobId=${jobId}`, {
    headers: auth(folio),
  });
  const { urls } = await res.json();
  return new Map(urls.map((u: { url: string; reason: string | null }) => [u.url, u.reason]));
}

Deno.test("a CSV of an unresolvable host fails fast with the host's reason; 404s on a working host do not stop it", async () => {
  await using folio = await testFolio();
  await using site = startGatedSite();
  const lookups = new Map<string, number>();
  // The DNS boundary of the production fetcher: every .invalid name fails to resolve.
  folio.deps.fetcher = loopbackFetcher({
    resolve: (name) => {
      lookups.set(name, (lookups.get(name) ?? 0) + 1);
      return Promise.reject(new Error(`${name}: NXDOMAIN`));
    },
  });
  const concurrency = 4;
  const worker = startIngestionWorker(folio.deps, { pollMs: 50, concurrency });
  try {
    const dead = Array.from({ length: 400 }, (_, i) => `https://dead.invalid/story/${i}`);
    const missing = Array.from({ length: 5 }, (_, i) => site.url(i, "missing"));
    const good = [site.url(1), site.url(2)];
    const up = await uploadCsv(folio, [...dead, ...missing, ...good].join("\n"));
    const job = await waitForJob(folio, up.body.jobId as string);
    assert.equal(job.outcome, "SUCCEEDED", JSON.stringify(job));
    assert.equal(job.discovered, 407);
    assert.equal(job.ingested, 2, "the working host's pages come after its 404s");
    assert.equal(job.failed, 405);
    assert.deepEqual(job.reasons, { "DNS failure": 400, "HTTP 404": 5 });
    assert.equal(job.reason, "405 of 407 URLs failed; commonest reason: DNS failure (400)");
    assert.ok(
      lookups.get("dead.invalid")! <= concurrency,
      `the name was looked up ${lookups.get("dead.invalid")} times, at most once per URL in flight`,
    );

    const reasons = await urlsOf(folio, up.body.jobId as string);
    const skipped = dead.filter((u) =>
      reasons.get(u) ===
        "Host dead.invalid: DNS lookup failed (dead.invalid did not resolve); skipped the remaining URLs of this host"
    );
    assert.ok(skipped.length >= dead.length - concurrency, `${skipped.length} skipped`);
    for (const u of dead.filter((u) => !skipped.includes(u))) {
      assert.match(reasons.get(u)!, /dead\.invalid did not resolve/);
    }
    for (const u of missing) assert.match(reasons.get(u)!, /status 404$/);
  } finally {
    await worker.stop();
  }
});

Deno.test("a host that keeps timing out is given up after a few connection-level failures in a row", async () => {
  await using folio = await testFolio();
  await using hanging = startGatedSite(); // its gate never opens: every page times out
  await using working = startGatedSite();
  folio.deps.fetcher = loopbackFetcher({ retries: 0 });
  // The hanging host times out at any deadline; the working page must never, on any machine.
  const worker = startIngestionWorker(folio.deps, { pollMs: 50, pageTimeoutMs: 5000 });
  try {
    const slow = Array.from({ length: 40 }, (_, i) => hanging.url(i, "gated"));
    const up = await uploadCsv(folio, [...slow, working.url(7)].join("\n"));
    const job = await waitForJob(folio, up.body.jobId as string);
    assert.equal(job.ingested, 1);
    assert.equal(job.failed, 40);
    assert.deepEqual(job.reasons, { timeout: 40 });
    assert.ok(
      hanging.requests() <= CONNECTION_FAILURES + 4,
      `${hanging.requests()} requests reached the hanging host`,
    );
    const reasons = await urlsOf(folio, up.body.jobId as string);
    const host = new URL(hanging.origin).host;
    const skipped = slow.filter((u) =>
      reasons.get(u) ===
        `Host ${host}: ${CONNECTION_FAILURES} connection-level failures in a row (last: no complete response within 5000 ms); skipped the remaining URLs of this host`
    );
    assert.equal(skipped.length, slow.length - hanging.requests());
  } finally {
    await worker.stop();
  }
});
