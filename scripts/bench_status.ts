/**
 * Status figures at 90 days of traffic (docs/DESIGN.md: aggregated per hour so 90 days stay cheap):
 * fills the hourly rollups as the call-log writer would for `perHour` calls per surface per hour
 * with log-normal latencies, then times GET /api/status for 1, 7 and 90 days against GET
 * /api/health in the same run, and checks the sketch's p95 against the exact one. Each figure is
 * printed with its target (scripts/targets.ts) after the JSON line.
 * Run: deno run -A scripts/bench_status.ts [perHour]
 */
import type { CallEntry } from "../store/call_log.ts";
import { compactStatus, rollupStatements } from "../store/status.ts";
import { compactionRange } from "../server/domain/status/report.ts";
import { startTestFolio } from "../tests/helpers.ts";
import { check, line, tally, TARGETS } from "./targets.ts";

const PER_HOUR = Number(Deno.args[0] ?? 2000);
const HOURS = 90 * 24;
const SURFACES = ["rest", "mcp", "a2a"] as const;

/** A log-normal latency around `median` ms (Box-Muller). */
function latency(median: number): number {
  const u = 1 - Math.random();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
  return median * Math.exp(0.8 * z);
}

await using folio = await startTestFolio();
const db = folio.store.db;
const now = folio.clock.now().getTime();
const searchLatencies: number[] = [];
const fillStarted = performance.now();
for (let h = 0; h < HOURS; h++) {
  const entries: CallEntry[] = [];
  for (const surface of SURFACES) {
    for (let i = 0; i < PER_HOUR; i++) {
      const ms = latency(surface === "mcp" ? 6 : 15);
      const search = i % 3 === 0;
      if (search && surface === "rest") searchLatencies.push(ms);
      entries.push({
        publisherId: "pub_demo",
        at: new Date(now - h * 3_600_000 - i),
        surface,
        tool: surface === "rest"
          ? (search ? "_rest:search_articles" : "_rest:get_article")
          : surface === "mcp"
          ? "_method:tools/call"
          : (search ? "search_articles" : "get_article"),
        userAgent: "",
        latencyMs: ms,
        status: i % 997 === 0 ? "error" : surface === "mcp" ? "trace" : "ok",
        httpStatus: i % 997 === 0 ? 500 : 200,
      });
    }
  }
  await db.batch(rollupStatements(entries), "write");
}
const fillMs = performance.now() - fillStarted;
const hourlyRows = Number((await db.execute("SELECT COUNT(*) AS n FROM latency_hourly")).rows[0].n);
// Steady state: the compaction cron has folded every day before yesterday.
const compactStarted = performance.now();
for (let back = 90; back >= 0; back -= 7) {
  const { cutoff, keepFrom } = compactionRange(new Date(now - back * 86_400_000));
  await compactStatus(db, {
    cutoff: Math.min(cutoff, compactionRange(new Date(now)).cutoff),
    keepFrom: Math.min(keepFrom, now - 92 * 86_400_000),
  });
}
const compactMs = performance.now() - compactStarted;
const rows = Number((await db.execute("SELECT COUNT(*) AS n FROM latency_hourly")).rows[0].n);

async function time(path: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await folio.request(path);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}
const median = (xs: number[]) => xs[Math.floor(xs.length / 2)];
const health = median(await time("/api/health", 50));
const results: Record<string, unknown> = {
  perHour: PER_HOUR,
  calls: PER_HOUR * HOURS * SURFACES.length,
  latencyRowsHourly: hourlyRows,
  latencyRowsCompacted: rows,
  fillSeconds: Math.round(fillMs / 100) / 10,
  compactSeconds: Math.round(compactMs / 100) / 10,
  healthMedianMs: Math.round(health * 100) / 100,
};
for (const days of [1, 7, 90]) {
  const t = median(await time(`/api/status?days=${days}`, days === 90 ? 10 : 20));
  results[`status${days}dMedianMs`] = Math.round(t * 10) / 10;
  results[`status${days}dVsHealth`] = Math.round((t / health) * 10) / 10;
}
const page = median(await time("/status?days=90", 5));
results.page90dMedianMs = Math.round(page * 10) / 10;
// The sketch against the exact nearest-rank p95 of the same REST searches.
searchLatencies.sort((a, b) => a - b);
const exact = searchLatencies[Math.ceil(0.95 * searchLatencies.length) - 1];
const report = await (await folio.request("/api/status?days=90")).json();
results.searchP95ExactMs = Math.round(exact * 100) / 100;
results.searchP95SketchMs = report.slo.searchP95.measuredMs;
console.log(JSON.stringify(results, null, 2));
const r = results as Record<string, number>;
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
const sketchError = Number(Math.abs(r.searchP95SketchMs / r.searchP95ExactMs - 1).toFixed(4));
const checks = [
  check("GET /api/status?days=7", ratio(r.status7dMedianMs, r.status1dMedianMs), TARGETS.status7d),
  check(
    "GET /api/status?days=90",
    ratio(r.status90dMedianMs, r.status1dMedianMs),
    TARGETS.status90d,
  ),
  check("the 90-day status page", ratio(page, r.status90dMedianMs), TARGETS.statusPage),
  check("search p95 from the sketch", sketchError, TARGETS.statusSketch),
  check("latency rows after compaction", ratio(rows, hourlyRows), TARGETS.statusCompacted),
  check("compaction time", ratio(compactMs, fillMs), TARGETS.statusCompactTime),
];
const shown = [
  `${r.status7dMedianMs} ms = ${checks[0].value}×`,
  `${r.status90dMedianMs} ms = ${checks[1].value}×`,
  `${r.page90dMedianMs} ms = ${checks[2].value}×`,
  `${r.searchP95SketchMs} ms against ${r.searchP95ExactMs} ms exact (${
    (sketchError * 100).toFixed(2)
  }%)`,
  `${rows} of ${hourlyRows} = ${checks[4].value}×`,
  `${r.compactSeconds} s = ${checks[5].value}× the fill's ${r.fillSeconds} s`,
];
console.log(
  `baselines: GET /api/health ${r.healthMedianMs} ms, GET /api/status?days=1 ${r.status1dMedianMs} ms ` +
    `(${r.status1dVsHealth}× health)`,
);
checks.forEach((c, i) => console.log(line(c, shown[i])));
console.log(tally(checks));
