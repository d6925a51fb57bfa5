import assert from "node:assert/strict";
import { cronJobs } from "../server/crons.ts";
import { testFolio } from "./helpers.ts";

Deno.test("every cron job runs against a live store and names a valid schedule", async () => {
  await using folio = await testFolio();
  const jobs = cronJobs(folio.deps, "node-test", () => folio.probe());
  assert.deepEqual(jobs.map((j) => j.name), [
    "folio-probes",
    "folio-status-compact",
    "folio-billing",
    "folio-credit-control",
    "folio-dispute-escalation",
    "folio-daily-sync",
    "folio-site-sync",
    "folio-robots",
    "folio-domain-claims",
  ]);
  for (const job of jobs) {
    assert.match(job.schedule, /^(\S+ ){4}\S+$/);
    await job.run();
  }
});

Deno.test("the billing cron runs on one node at a time under its lease", async () => {
  await using folio = await testFolio();
  await folio.store.db.execute({
    sql:
      "INSERT INTO cron_leases (name, holder, expires_at) VALUES ('billing-month', 'node-other', ?)",
    args: [folio.clock.now().getTime() + 60_000],
  });
  const billing = cronJobs(folio.deps, "node-test", () => folio.probe())
    .find((j) => j.name === "folio-billing")!;
  assert.deepEqual(await billing.run(), { ran: false });
  folio.clock.advance(61_000);
  assert.equal(((await billing.run()) as { ran: boolean }).ran, true);
});

Deno.test("the domain claims cron re-checks on one node at a time under its lease", async () => {
  await using folio = await testFolio();
  await folio.store.db.execute({
    sql:
      "INSERT INTO cron_leases (name, holder, expires_at) VALUES ('domain-claims', 'node-other', ?)",
    args: [folio.clock.now().getTime() + 60_000],
  });
  const recheck = cronJobs(folio.deps, "node-test", () => folio.probe())
    .find((j) => j.name === "folio-domain-claims")!;
  assert.equal(recheck.schedule, "47 * * * *");
  assert.deepEqual(await recheck.run(), { ran: false });
  folio.clock.advance(61_000);
  assert.deepEqual(await recheck.run(), { ran: true, result: 0 });
});

Deno.test("the probe cron runs one round per lease, and not while another node holds it", async () => {
  await using folio = await testFolio();
  const probes = cronJobs(folio.deps, "node-test", () => folio.probe())
    .find((j) => j.name === "folio-probes")!;
  assert.equal(probes.schedule, "*/5 * * * *");
  assert.equal(((await probes.run()) as { ran: boolean }).ran, true);
  await folio.store.db.execute({
    sql: "INSERT INTO cron_leases (name, holder, expires_at) VALUES ('probes', 'node-other', ?)",
    args: [folio.clock.now().getTime() + 60_000],
  });
  assert.deepEqual(await probes.run(), { ran: false });
  const rs = await folio.store.db.execute("SELECT COUNT(DISTINCT at) AS rounds FROM probes");
  assert.equal(Number(rs.rows[0].rounds), 1);
});
