/**
 * Status figures (docs/SPEC.md "Status endpoints"; docs/TEST-PLAN.md section 6): the latency sketch,
 * the hourly rollups the call log writes, /api/status over generated history, verdicts that flip
 * at their targets, and probe rounds through the real surfaces that leave no trace in the log.
 */
import assert from "node:assert/strict";
import { insertCalls } from "../store/call_log.ts";
import type { CallEntry } from "../store/call_log.ts";
import type { Client } from "../store/db.ts";
import { insertProbeRound, type ProbeCheck } from "../store/status.ts";
import { cronJobs } from "../server/crons.ts";
import { type ProbeSend, runProbeRound } from "../server/domain/status/probes.ts";
import type { StatusReport } from "../server/domain/status/report.ts";
import { json, startTestFolio, testFolio } from "./helpers.ts";
import { initializeRequest } from "./fixtures/demo.ts";
import { call, emptyFigures, generateHistory } from "./fixtures/status.ts";

function near(actual: number | null, expected: number, relative = 0.01) {
  assert.ok(actual !== null, `expected about ${expected}, got null`);
  assert.ok(
    Math.abs(actual - expected) <= expected * relative,
    `expected ${expected} ±${relative * 100}%, got ${actual}`,
  );
}

Deno.test("percentiles are nearest-rank within 1%, and merged sketches equal the combined data", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await emptyFigures(db);
  const now = folio.clock.now().getTime();
  const searches = (ms: number[]) =>
    ms.map((latencyMs, i) =>
      call({ at: new Date(now - 60_000 - i), tool: "_rest:search_articles", latencyMs })
    );
  const all = Array.from({ length: 1000 }, (_, i) => i + 1);
  // Two hosts' logs, written separately into the same hours.
  await insertCalls(db, searches(all.filter((v) => v % 2 === 0)));
  await insertCalls(db, searches(all.filter((v) => v % 2 === 1)));
  const merged = await json<StatusReport>(await folio.request("/api/status?days=1"));
  const rest = merged.surfaces.find((s) => s.surface === "rest")!;
  near(rest.p50Ms, 500);
  near(rest.p95Ms, 950);
  near(rest.p99Ms, 990);
  near(merged.slo.searchP95.measuredMs, 950);
  // The same data in one batch: the same figures, not an average of the hosts' percentiles.
  await emptyFigures(db);
  await insertCalls(db, searches(all));
  const single = await json<StatusReport>(await folio.request("/api/status?days=1"));
  assert.deepEqual(single.surfaces, merged.surfaces);
  // Tiny and huge latencies stay within 1% too.
  for (const ms of [0.37, 45_000]) {
    await emptyFigures(db);
    await insertCalls(db, searches([ms]));
    const one = await json<StatusReport>(await folio.request("/api/status?days=1"));
    near(one.surfaces[0].p50Ms, ms, 0.015);
  }
});

async function rollups(db: Client) {
  const rs = await db.execute(
    "SELECT surface, SUM(calls) AS calls, SUM(errors) AS errors FROM status_hourly GROUP BY surface ORDER BY surface",
  );
  return rs.rows.map((r) => `${r.surface} ${r.calls} ${r.errors}`);
}

Deno.test("the call log adds each request once to the hourly figures, in the same batch", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await db.execute("DELETE FROM status_hourly");
  const at = new Date("2026-11-15T12:30:00Z");
  await insertCalls(db, [
    // An MCP tools/call: the _method: row is the request, the tool row its detail.
    call({ at, surface: "mcp", tool: "_method:tools/call", status: "trace" }),
    call({ at, surface: "mcp", tool: "search_articles", latencyMs: 40 }),
    // A tool that failed on our side inside a 200 is logged as 500: an error, not a second call.
    call({ at, surface: "mcp", tool: "_method:tools/call", status: "trace" }),
    call({ at, surface: "mcp", tool: "get_article", status: "error", httpStatus: 500 }),
    // A refusal is an answer; a 503 is an error.
    call({ at, status: "error", httpStatus: 403 }),
    call({ at, status: "error", httpStatus: 503 }),
    call({ at, surface: "a2a", tool: "search_articles", latencyMs: 80 }),
  ]);
  assert.deepEqual(await rollups(db), ["a2a 1 0", "mcp 2 1", "rest 2 1"]);
  const search = await db.execute(
    "SELECT surface, SUM(count) AS n FROM latency_hourly WHERE kind = 'search' GROUP BY surface ORDER BY surface",
  );
  assert.deepEqual(search.rows.map((r) => `${r.surface} ${r.n}`), ["a2a 1", "mcp 1"]);
  // A batch that fails writes neither its call rows nor its figures.
  await assert.rejects(() =>
    insertCalls(db, [call({ at, status: "bogus" as CallEntry["status"] })])
  );
  assert.deepEqual(await rollups(db), ["a2a 1 0", "mcp 2 1", "rest 2 1"]);
});

Deno.test("real requests land in the figures, counted once each", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await db.execute("DELETE FROM status_hourly");
  const host = "demo.localhost";
  for (let i = 0; i < 3; i++) {
    await (await folio.request("/api/v1/articles/search?q=energy", { host })).body?.cancel();
  }
  const init = await folio.request("/api/mcp/pub_demo", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(initializeRequest()),
  });
  await init.body?.cancel();
  await folio.deps.callLog.flush();
  assert.deepEqual(await rollups(db), ["mcp 1 0", "rest 3 0"]);
  const status = await json<{ surfaces: { surface: string; calls: number }[] }>(
    await folio.request("/api/status?days=1"),
  );
  assert.deepEqual(status.surfaces.map((s) => [s.surface, s.calls]), [["rest", 3], ["mcp", 1]]);
});

Deno.test("/api/status answers the SPEC shape for 1, 7 and 90 days of generated history", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await emptyFigures(db);
  const now = folio.clock.now();
  // Hourly rounds for 91 days, so every window starts after a round that ran before it.
  await generateHistory(db, now, { hours: 91 * 24, perHour: 4, probeEvery: 60 });
  for (const days of [1, 7, 90]) {
    const res = await folio.request(`/api/status?days=${days}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const s = await json<StatusReport>(res);
    assert.equal(s.windowDays, days);
    assert.equal(s.uptime.checks, days * 24 * 2);
    assert.equal(s.uptime.okPct, 100);
    assert.equal(s.uptime.dbLatencyP50Ms, 0.4);
    // Hourly rounds: each hour of the window misses eleven 5-minute rounds.
    assert.equal(s.uptime.rounds, days * 24);
    assert.equal(s.uptime.missedRounds, days * 24 * 11);
    const rest = s.surfaces.find((x) => x.surface === "rest")!;
    assert.equal(rest.calls, days * 24 * 4);
    assert.equal(rest.errorRatePct, 0);
    const { p50Ms, p95Ms, p99Ms } = rest;
    assert.ok(p50Ms !== null && p95Ms !== null && p99Ms !== null);
    assert.ok(p50Ms <= p95Ms && p95Ms <= p99Ms);
    assert.deepEqual(Object.keys(s.slo), ["availability", "searchP95", "errorRate"]);
    // Every check that ran passed, but 11 rounds in 12 never ran: that is not 100% available.
    assert.deepEqual(s.slo.availability, {
      targetPct: 99.9,
      measuredPct: 8.333,
      met: false,
      verdict: "missed",
    });
    assert.equal(s.slo.searchP95.targetMs, 300);
    assert.equal(typeof s.slo.searchP95.measuredMs, "number");
    assert.equal(s.slo.errorRate.targetPct, 1);
    assert.equal(typeof s.definitions.error, "string");
  }
});

Deno.test("each verdict is measuring without data, then flips from met to missed at its target", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await emptyFigures(db);
  const now = folio.clock.now();
  const slo = async () =>
    (await json<{ slo: Record<string, { verdict: string; met: boolean; measuredPct?: number }> }>(
      await folio.request("/api/status?days=1"),
    )).slo;
  const verdicts = async () => Object.values(await slo()).map((v) => v.verdict);
  assert.deepEqual(await verdicts(), ["measuring", "measuring", "measuring"]);
  assert.deepEqual(
    Object.values(await slo()).map((v) => v.met),
    [null, null, null],
    "too little data is neither met nor missed",
  );

  // Availability: each 5-minute round scores the share of its checks that passed. Eleven rounds
  // are too few to judge; twelve with one check of 100 failed meet 99.9%; a second such misses.
  const at = (i: number) => new Date(now.getTime() - 60_000 - i * 1000);
  const round = (i: number) => new Date(now.getTime() - 60_000 - i * 300_000);
  const checks = (ok: boolean, n: number): ProbeCheck[] =>
    Array.from({ length: n }, () => ({
      surface: "rest",
      publisherId: "pub_demo",
      ok,
      latencyMs: 5,
      detail: ok ? null : "REST search answered HTTP 503, expected 200",
    }));
  for (let i = 1; i < 11; i++) await insertProbeRound(db, round(i), checks(true, 100));
  await insertProbeRound(db, round(11), [...checks(true, 99), ...checks(false, 1)]);
  assert.equal((await slo()).availability.verdict, "measuring");
  assert.equal((await slo()).availability.met, null);
  await insertProbeRound(db, round(0), checks(true, 100));
  assert.deepEqual((await slo()).availability, {
    targetPct: 99.9,
    measuredPct: 99.917,
    met: true,
    verdict: "met",
  });
  await db.execute({
    sql: "UPDATE probes SET ok = 0 WHERE rowid = (SELECT MIN(rowid) FROM probes WHERE at = ?)",
    args: [round(0).getTime()],
  });
  assert.deepEqual((await slo()).availability, {
    targetPct: 99.9,
    measuredPct: 99.833,
    met: false,
    verdict: "missed",
  });

  // Search p95: 100 searches at 100 ms meet 300 ms; 6 more at 400 ms push p95 past it.
  const searches = (ms: number, n: number) =>
    Array.from(
      { length: n },
      (_, i) => call({ at: at(i), tool: "_rest:search_articles", latencyMs: ms }),
    );
  await insertCalls(db, searches(100, 100));
  assert.equal((await slo()).searchP95.verdict, "met");
  await insertCalls(db, searches(400, 5));
  assert.equal((await slo()).searchP95.verdict, "met", "5 of 105 slow: p95 is still 100 ms");
  await insertCalls(db, searches(400, 1));
  assert.equal((await slo()).searchP95.verdict, "missed");

  // Error rate: 0 errors in 106 calls meets 1%; one 500 in 107 (0.93%) still does; a second misses.
  assert.equal((await slo()).errorRate.verdict, "met");
  await insertCalls(db, [call({ at: at(9), status: "error", httpStatus: 500 })]);
  assert.equal((await slo()).errorRate.verdict, "met");
  await insertCalls(db, [call({ at: at(9), status: "error", httpStatus: 502 })]);
  const missed = (await slo()).errorRate;
  assert.equal(missed.verdict, "missed");
  assert.equal(missed.met, false);
});

Deno.test("rounds that should have run and did not count against availability, from the service's first round", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await emptyFigures(db);
  const now = folio.clock.now().getTime();
  const ok: ProbeCheck[] = [{
    surface: "health",
    publisherId: null,
    ok: true,
    latencyMs: 2,
    detail: null,
  }];
  const lastHour = () =>
    Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        insertProbeRound(db, new Date(now - 60_000 - i * 300_000), ok)),
    );
  const availability = async () =>
    (await json<StatusReport>(await folio.request("/api/status?days=4"))).slo.availability;
  const uptime = async () =>
    (await json<StatusReport>(await folio.request("/api/status?days=4"))).uptime;

  // A new service that has run for an hour: nothing before its first round is missed.
  await lastHour();
  assert.equal((await uptime()).missedRounds, 0);
  assert.deepEqual(await availability(), {
    targetPct: 99.9,
    measuredPct: 100,
    met: true,
    verdict: "met",
  });

  // The same hour on a service that also ran five days ago: it was down for the rest of the window.
  await insertProbeRound(db, new Date(now - 5 * 86_400_000), ok);
  const { rounds, missedRounds, okPct } = await uptime();
  assert.equal(rounds, 12);
  assert.equal(missedRounds, 4 * 288 - 12, "4 days of 5-minute rounds, less the 12 that ran");
  assert.equal(okPct, 100, "every check that ran passed");
  assert.deepEqual(await availability(), {
    targetPct: 99.9,
    measuredPct: 1.042,
    met: false,
    verdict: "missed",
  });
});

Deno.test("/api/status refuses a window outside 1 to 90 days and defaults to 30", async () => {
  await using folio = await testFolio();
  for (const bad of ["0", "91", "abc", "7.5", "", "-1", "1e1", "007"]) {
    const res = await folio.request(`/api/status?days=${bad}`);
    assert.equal(res.status, 400, `days=${bad}`);
    const body = await json<{ error: { code: string; message: string } }>(res);
    assert.match(body.error.message, /days: must be a whole number from 1 to 90/);
  }
  assert.equal(
    (await json<{ windowDays: number }>(await folio.request("/api/status"))).windowDays,
    30,
  );
  const preflight = await folio.request("/api/status", {
    method: "OPTIONS",
    headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
  });
  assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
});

Deno.test("a probe round goes through every surface on the wire and leaves no trace in the log or meters", async () => {
  await using folio = await startTestFolio();
  const db = folio.store.db;
  await folio.deps.callLog.flush();
  const count = async (table: string) =>
    Number((await db.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n);
  const before = {
    calls: await count("call_log"),
    sessions: await count("mcp_sessions WHERE ended_at IS NULL"),
    meters: await count("meter_reads"),
    charges: await count("charges"),
  };
  const round = await folio.probe();
  assert.deepEqual(
    round.checks.map((c) => [c.surface, c.publisherId, c.ok, c.detail]),
    [
      ["health", null, true, null],
      ["rest", "pub_demo", true, null],
      ["mcp", "pub_demo", true, null],
      ["a2a", "pub_demo", true, null],
    ],
  );
  assert.ok(round.checks[0].dbLatencyMs! >= 0);
  await folio.deps.callLog.flush();
  assert.deepEqual({
    calls: await count("call_log"),
    sessions: await count("mcp_sessions WHERE ended_at IS NULL"),
    meters: await count("meter_reads"),
    charges: await count("charges"),
  }, before);
  assert.equal(await count("probes"), 4);
  assert.equal(await count("probe_tokens"), 0, "the round's token ends with it");

  // A made-up probe header is not a probe: the request is logged like any other.
  const res = await folio.request("/api/v1/articles/search?q=energy", {
    host: "demo.localhost",
    headers: { "x-folio-probe": "probe_not-a-live-token" },
  });
  await res.body?.cancel();
  await folio.deps.callLog.flush();
  assert.equal(await count("call_log"), before.calls + 1);

  const status = await json<{ uptime: { checks: number; okPct: number; lastCheckAt: string } }>(
    await folio.request("/api/status?days=1"),
  );
  assert.equal(status.uptime.checks, 4);
  assert.equal(status.uptime.okPct, 100);
  assert.equal(status.uptime.lastCheckAt, round.at.toISOString());
});

Deno.test("a failing surface fails its check, and failed rounds become an incident until a clean one", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  // Require auth on MCP: the healthy answer is the OAuth challenge.
  await db.execute(
    `UPDATE publishers SET toggles = json_set(toggles, '$.requireAuth', json('true')) WHERE id = 'pub_demo'`,
  );
  const ok = await folio.probe();
  assert.deepEqual(ok.checks.find((c) => c.surface === "mcp")?.ok, true);
  assert.match(ok.checks.find((c) => c.surface === "mcp")!.detail!, /OAuth challenge/);

  // A deliberately failing instance (docs/TEST-PLAN.md section 6): MCP answers 503.
  folio.clock.advance(5 * 60_000);
  const failingMcp: ProbeSend = (url, init) => {
    const u = new URL(url);
    if (u.pathname.startsWith("/api/mcp/")) {
      return Promise.resolve(new Response("unavailable", { status: 503 }));
    }
    return folio.request(u.pathname + u.search, { ...init, host: u.hostname });
  };
  const bad = await runProbeRound(
    { db, clock: folio.clock, config: folio.config },
    failingMcp,
  );
  assert.deepEqual(
    bad.checks.map((c) => [c.surface, c.ok, c.detail]),
    [
      ["health", true, null],
      ["rest", true, null],
      ["mcp", false, "MCP initialize answered HTTP 503, expected 401"],
      ["a2a", true, null],
    ],
  );
  folio.clock.advance(5 * 60_000);
  await folio.probe();
  const s = await json<{ incidents: Record<string, unknown>[]; uptime: { failedChecks: number } }>(
    await folio.request("/api/status?days=1"),
  );
  assert.equal(s.uptime.failedChecks, 1);
  assert.deepEqual(s.incidents, [{
    startedAt: bad.at.toISOString(),
    endedAt: new Date(bad.at.getTime() + 5 * 60_000).toISOString(),
    minutes: 5,
    failedChecks: 1,
    firstFailure: "mcp: MCP initialize answered HTTP 503, expected 401",
  }]);
});

Deno.test("compaction folds old hours into days without changing a whole window's figures, and keeps 91 days", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  await emptyFigures(db);
  const now = folio.clock.now();
  await generateHistory(db, now, { hours: 10 * 24, perHour: 12, probeEvery: 60, errorsEvery: 7 });
  // A row from long ago, past what is kept.
  await insertCalls(db, [call({ at: new Date(now.getTime() - 100 * 86_400_000) })]);
  const figures = async (days: number) => {
    const s = await json<StatusReport>(await folio.request(`/api/status?days=${days}`));
    return { surfaces: s.surfaces, slo: s.slo };
  };
  const before = { d1: await figures(1), d30: await figures(30), d90: await figures(90) };
  const count = async () =>
    Number((await db.execute("SELECT COUNT(*) AS n FROM latency_hourly")).rows[0].n);
  const rowsBefore = await count();

  const job = cronJobs(folio.deps, "node-test", () => folio.probe())
    .find((j) => j.name === "folio-status-compact")!;
  assert.equal(((await job.run()) as { ran: boolean }).ran, true);
  const rowsAfter = await count();
  assert.ok(rowsAfter < rowsBefore / 3, `${rowsBefore} hourly rows fold to ${rowsAfter}`);
  assert.deepEqual(await figures(1), before.d1, "today and yesterday stay hourly");
  assert.deepEqual(await figures(30), before.d30, "a window holding every day is unchanged");
  const old = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM status_hourly WHERE hour < ?",
    args: [now.getTime() - 91 * 86_400_000],
  });
  assert.equal(Number(old.rows[0].n), 0, "older than 91 days is dropped");
  // Again: nothing changes.
  await job.run();
  assert.equal(await count(), rowsAfter);
  assert.deepEqual(await figures(30), before.d30);
  assert.deepEqual(await figures(90), before.d90);
});
