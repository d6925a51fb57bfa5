/**
 * The published figures (docs/SPEC.md "Status endpoints"): uptime from probe rounds, calls,
 * errors and latency percentiles per surface from the hourly rollups, and the three SLO verdicts
 * (docs/SPEC.md "Limits"). One report feeds /api/status and the /status page.
 */
import type { Client } from "../../../store/db.ts";
import { bucketValue, RELATIVE_ERROR } from "../../../store/latency_sketch.ts";
import {
  dailyCalls,
  DAY_MS,
  HOUR_MS,
  lastProbeBefore,
  latencyPercentiles,
  type PercentileBuckets,
  probeRounds,
  probeTotals,
} from "../../../store/status.ts";
import { SURFACES } from "../../../store/vocabulary.ts";
import { CHECK_TIMEOUT_MS, PROBE_INTERVAL_MINUTES } from "./probes.ts";

/**
 * What the compaction cron folds and keeps: whole days before yesterday become one row per day,
 * and 91 days are kept so a 90-day window is always whole.
 */
export function compactionRange(now: Date): { cutoff: number; keepFrom: number } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { cutoff: today - DAY_MS, keepFrom: today - 91 * DAY_MS };
}

/** docs/SPEC.md "Limits". */
export const SLO_TARGETS = { availabilityPct: 99.9, searchP95Ms: 300, errorRatePct: 1 } as const;

/** Below these counts a verdict is `measuring`: too little data to call it met or missed. */
export const MINIMUM_SAMPLES = { rounds: 12, searches: 20, calls: 100 } as const;

/** What the figures mean, published with them. */
export const DEFINITIONS = {
  availability:
    `Share of the window's probe rounds that passed, counting the rounds that should have run and did not as failed. Every ${PROBE_INTERVAL_MINUTES} minutes a probe round makes real requests to the service: /api/health, then for each publisher REST search (where public REST is on), MCP initialize + search_articles (or the OAuth challenge where Require auth is on) and the A2A agent card (where A2A is on). A check passes when it gets the expected answer within ${
      CHECK_TIMEOUT_MS / 1000
    } s. A round scores the share of its checks that passed. Probes run inside the service, so time it was stopped records no checks: each round missed then (missedRounds) scores 0, from the first round the service ever ran. uptime.okPct is the share of the checks that did run.`,
  error:
    "A call is an error when the service failed it: HTTP 5xx, or an MCP tool that failed on our side inside a 200. Refusals and bad input (4xx, JSON-RPC errors about the request) are answers, not errors. Each request counts once; probe requests are not counted.",
  searchLatency:
    "Time to answer a successful search: REST GET /api/v1/articles/search (whole request), MCP search_articles and A2A search_articles (the tool's work). Refused or failed searches are left out.",
  percentiles:
    `Nearest-rank p50/p95/p99 from hourly log-bucketed sketches that merge exactly; each figure is within ${
      RELATIVE_ERROR * 100
    }% of the exact value.`,
  measuring:
    `A verdict is "measuring", and its met is null, until the window holds at least ${MINIMUM_SAMPLES.rounds} probe rounds run or missed (availability), ${MINIMUM_SAMPLES.searches} searches (search p95) or ${MINIMUM_SAMPLES.calls} calls (error rate).`,
  window:
    "The last windowDays × 24 hours up to now, in UTC. Call figures are kept per hour for today and yesterday and per day before that, so they include the whole first hour, or the whole first day when it is older than yesterday.",
} as const;

export type Verdict = "met" | "missed" | "measuring";

/** One window's figures. The first fields are docs/SPEC.md's shape; the rest extend it. */
export interface StatusReport {
  windowDays: number;
  uptime: {
    checks: number;
    okPct: number | null;
    dbLatencyP50Ms: number | null;
    failedChecks: number;
    rounds: number;
    missedRounds: number;
    lastCheckAt: string | null;
    bySurface: { surface: string; checks: number; okPct: number }[];
  };
  surfaces: SurfaceFigures[];
  slo: {
    availability: {
      targetPct: number;
      measuredPct: number | null;
      met: boolean | null;
      verdict: Verdict;
    };
    searchP95: {
      targetMs: number;
      measuredMs: number | null;
      met: boolean | null;
      verdict: Verdict;
      searches: number;
    };
    errorRate: {
      targetPct: number;
      measuredPct: number | null;
      met: boolean | null;
      verdict: Verdict;
    };
  };
  incidents: Incident[];
  generatedAt: string;
  from: string;
  definitions: typeof DEFINITIONS;
}

/** A surface's figures over the window. */
export interface SurfaceFigures {
  surface: string;
  calls: number;
  errors: number;
  errorRatePct: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

/** A span of probe rounds with failed checks; `endedAt` is null while it lasts (minutes so far). */
export interface Incident {
  startedAt: string;
  endedAt: string | null;
  minutes: number;
  failedChecks: number;
  firstFailure: string | null;
}

/** A day of one surface, for the page's charts. */
export interface DailyFigures {
  day: string;
  surface: string;
  calls: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

/** The report for the `days` before `now`. */
export async function statusReport(
  db: Client,
  options: { now: Date; days: number },
): Promise<StatusReport> {
  const now = options.now.getTime();
  const from = now - options.days * DAY_MS;
  const range = { from: Math.floor(from / HOUR_MS) * HOUR_MS, to: now + 1 };
  const [calls, all, search, probes, rounds, earlier] = await Promise.all([
    dailyCalls(db, range),
    latencyPercentiles(db, range, { kind: "all", perDay: false, perSurface: true }),
    latencyPercentiles(db, range, { kind: "search", perDay: false, perSurface: false }),
    probeTotals(db, { from }),
    probeRounds(db, { from }),
    lastProbeBefore(db, from),
  ]);

  const surfaces = SURFACES.flatMap((surface): SurfaceFigures[] => {
    const days = calls.filter((d) => d.surface === surface);
    const n = sum(days.map((d) => d.calls));
    if (n === 0) return [];
    const errors = sum(days.map((d) => d.errors));
    const latency = msOf(all.find((p) => p.surface === surface));
    return [{ surface, calls: n, errors, errorRatePct: pct(errors, n)!, ...latency }];
  });

  const checks = sum(probes.bySurface.map((s) => s.checks));
  const okChecks = sum(probes.bySurface.map((s) => s.ok));
  const okPct = pct(okChecks, checks);
  // Rounds are counted from the window's start when the service ran before it, else from its first.
  const missed = missedRounds(rounds.map((r) => r.at), now, earlier === null ? null : from);
  const expectedRounds = rounds.length + missed;
  const availabilityPct = pct(
    sum(rounds.map((r) => (r.checks - r.failed) / r.checks)),
    expectedRounds,
  );
  const searches = search[0]?.count ?? 0;
  const searchP95 = msOf(search[0]).p95Ms;
  const totalCalls = sum(surfaces.map((s) => s.calls));
  const errorPct = pct(sum(surfaces.map((s) => s.errors)), totalCalls);

  const availability = verdict(
    expectedRounds >= MINIMUM_SAMPLES.rounds,
    availabilityPct !== null && availabilityPct >= SLO_TARGETS.availabilityPct,
  );
  const latency = verdict(
    searches >= MINIMUM_SAMPLES.searches,
    searchP95 !== null && searchP95 < SLO_TARGETS.searchP95Ms,
  );
  const errorRate = verdict(
    totalCalls >= MINIMUM_SAMPLES.calls,
    errorPct !== null && errorPct < SLO_TARGETS.errorRatePct,
  );

  return {
    windowDays: options.days,
    uptime: {
      checks,
      okPct,
      dbLatencyP50Ms: probes.dbLatencyP50Ms,
      failedChecks: checks - okChecks,
      rounds: rounds.length,
      missedRounds: missed,
      lastCheckAt: rounds.length ? new Date(rounds.at(-1)!.at).toISOString() : null,
      bySurface: probes.bySurface.map((s) => ({
        surface: s.surface,
        checks: s.checks,
        okPct: pct(s.ok, s.checks)!,
      })),
    },
    surfaces,
    slo: {
      availability: {
        targetPct: SLO_TARGETS.availabilityPct,
        measuredPct: availabilityPct,
        met: metOf(availability),
        verdict: availability,
      },
      searchP95: {
        targetMs: SLO_TARGETS.searchP95Ms,
        measuredMs: searchP95,
        met: metOf(latency),
        verdict: latency,
        searches,
      },
      errorRate: {
        targetPct: SLO_TARGETS.errorRatePct,
        measuredPct: errorPct,
        met: metOf(errorRate),
        verdict: errorRate,
      },
    },
    incidents: incidents(rounds, now),
    generatedAt: new Date(now).toISOString(),
    from: new Date(from).toISOString(),
    definitions: DEFINITIONS,
  };
}

/** Per day and surface, for the page's charts (the same rollups as the report). */
export async function dailyFigures(
  db: Client,
  options: { now: Date; days: number },
): Promise<DailyFigures[]> {
  const now = options.now.getTime();
  const range = {
    from: Math.floor((now - options.days * DAY_MS) / DAY_MS + 1) * DAY_MS,
    to: now + 1,
  };
  const [calls, latency] = await Promise.all([
    dailyCalls(db, range),
    latencyPercentiles(db, range, { kind: "all", perDay: true, perSurface: true }),
  ]);
  return calls.map((d) => ({
    day: new Date(d.day).toISOString().slice(0, 10),
    surface: d.surface,
    calls: d.calls,
    errors: d.errors,
    ...msOf(latency.find((p) => p.day === d.day && p.surface === d.surface)),
  }));
}

function verdict(enough: boolean, meets: boolean): Verdict {
  return !enough ? "measuring" : meets ? "met" : "missed";
}

/** SPEC's `met`; null while measuring, since too little data is neither met nor missed. */
function metOf(v: Verdict): boolean | null {
  return v === "measuring" ? null : v === "met";
}

/** Percentile buckets as milliseconds, rounded to 0.01 ms; nulls without data. */
function msOf(p: PercentileBuckets | undefined) {
  const ms = (b: number) => Math.round(bucketValue(b) * 100) / 100;
  return p
    ? { p50Ms: ms(p.p50), p95Ms: ms(p.p95), p99Ms: ms(p.p99) }
    : { p50Ms: null, p95Ms: null, p99Ms: null };
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** A percentage to 3 decimals (docs/TEST-PLAN.md section 6), or null without data. */
function pct(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 100_000) / 1000;
}

const INTERVAL_MS = PROBE_INTERVAL_MINUTES * 60_000;

/**
 * Rounds that should have run in the window but left no checks: between rounds and after the last,
 * and, when the service already ran before the window (`windowStart` given), before the first.
 */
export function missedRounds(ats: number[], now: number, windowStart: number | null): number {
  let missed = windowStart === null ? 0 : Math.floor(((ats[0] ?? now) - windowStart) / INTERVAL_MS);
  for (let i = 1; i <= ats.length; i++) {
    const gap = (i < ats.length ? ats[i] : now) - ats[i - 1];
    // A round may run a little late; a gap counts from the second interval it spans.
    if (gap > 1.5 * INTERVAL_MS) missed += Math.round(gap / INTERVAL_MS) - 1;
  }
  return missed;
}

/** Spans of consecutive rounds with a failed check; each ends at the next clean round. */
function incidents(
  rounds: { at: number; failed: number; detail: string | null }[],
  now: number,
): Incident[] {
  const out: Incident[] = [];
  let open: { start: number; failed: number; detail: string | null } | null = null;
  for (const r of rounds) {
    if (r.failed > 0) {
      open ??= { start: r.at, failed: 0, detail: r.detail };
      open.failed += r.failed;
    } else if (open) {
      out.push(incident(open, r.at, r.at));
      open = null;
    }
  }
  if (open) out.push(incident(open, null, now));
  return out.reverse();
}

function incident(
  span: { start: number; failed: number; detail: string | null },
  end: number | null,
  until: number,
): Incident {
  return {
    startedAt: new Date(span.start).toISOString(),
    endedAt: end === null ? null : new Date(end).toISOString(),
    minutes: Math.round((until - span.start) / 60_000),
    failedChecks: span.failed,
    firstFailure: span.detail,
  };
}

/** Probe checks per hour (1-day window) or per day, oldest first, empty periods included. */
export interface ProbePeriod {
  start: string;
  checks: number;
  failed: number;
}

/** The probe history of the window, for the page's uptime strip. */
export async function probeHistory(
  db: Client,
  options: { now: Date; days: number },
): Promise<ProbePeriod[]> {
  const now = options.now.getTime();
  const step = options.days === 1 ? HOUR_MS : DAY_MS;
  const first = Math.floor((now - options.days * DAY_MS) / step + 1) * step;
  const periods = new Map<number, ProbePeriod>();
  for (let t = first; t <= now; t += step) {
    periods.set(t, { start: new Date(t).toISOString(), checks: 0, failed: 0 });
  }
  for (const r of await probeRounds(db, { from: first })) {
    const p = periods.get(Math.floor(r.at / step) * step);
    if (!p) continue;
    p.checks += r.checks;
    p.failed += r.failed;
  }
  return [...periods.values()];
}
