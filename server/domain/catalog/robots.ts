/**
 * robots.txt fetching (RFC 9309): through the guarded fetcher, stored per publisher and origin,
 * refetched daily, a failed answer retried hourly. Redirects are followed up to 5 hops, more count
 * as unavailable (section 2.3.1.2); 4xx → allow all (section 2.3.1.3); 5xx, 429 and unreachable →
 * disallow all until a later success (section 2.3.1.4); the first 500 KiB are parsed
 * (robots_rules.ts). What a record means is decided in one place: robots_verdict.ts.
 */
import { BoundedCache } from "../../../store/bounded_cache.ts";
import { getRobots, putRobots, type RobotsRecord, staleRobots } from "../../../store/robots.ts";
import { withLease } from "../../../store/leases.ts";
import type { AppDeps } from "../../deps.ts";
import { FetchRefused } from "./fetcher.ts";
import { ROBOTS_MAX_BYTES, ROBOTS_TOKEN } from "./robots_rules.ts";
import { answered, type RobotsDecision, robotsVerdictOf } from "./robots_verdict.ts";

export { ROBOTS_MAX_BYTES, ROBOTS_TOKEN };
type RobotsDeps = Pick<AppDeps, "store" | "clock" | "fetcher" | "log">;

const DAY_MS = 24 * 3600_000;
/**
 * A failed answer (5xx, 429, no answer) is asked again after an hour rather than a day, so the
 * host recovers sooner. It stays "disallow all" however long it fails: RFC 9309 section 2.3.1.4
 * lets a crawler assume allow-all after 30 days, but for Folio that would hand free access to
 * crawlers the origin may disallow, and the publisher can fix its robots origin in its settings.
 */
const RETRY_FAILED_MS = 3600_000;
/** A host refused before any answer (no DNS, a private address) is stored as nothing; asked again. */
const RETRY_UNKNOWN_MS = 60_000;

/** Whether a URL may be fetched, or the refusal that makes robots.txt (and the page) unreachable. */
export type RobotsVerdict = RobotsDecision | { refused: FetchRefused };

interface Fetch {
  promise: Promise<RobotsRecord | FetchRefused>;
  abort: AbortController;
}
const inFlight = new Map<string, Fetch>();
/** When this process last started a background fetch per key (throttles unknown hosts). */
const lastTried = new BoundedCache<string, number>(10_000);

const keyOf = (deps: RobotsDeps, publisherId: string, origin: string) =>
  `${deps.store.url}\n${publisherId}\n${origin}`;

/** Whether a stored record is due for a refetch at `now` (ms): daily, or hourly when it failed. */
function due(rec: RobotsRecord, now: number): boolean {
  return now - rec.fetchedAt >= (answered(rec) ? DAY_MS : RETRY_FAILED_MS);
}

/**
 * The verdict for our own crawler on `url` (ingestion), fetching its origin's robots.txt first
 * when missing or due: the page fetch that follows may as well wait for it.
 */
export async function robotsVerdict(
  deps: RobotsDeps,
  publisherId: string,
  url: string,
): Promise<RobotsVerdict> {
  const origin = new URL(url).origin;
  let rec = await getRobots(deps.store.db, publisherId, origin);
  if (!rec || due(rec, deps.clock.now().getTime())) {
    const got = await fetchOnce(deps, publisherId, origin).promise;
    if (got instanceof FetchRefused) return { refused: got };
    rec = got;
  }
  return robotsVerdictOf(rec, url, [ROBOTS_TOKEN], `${deps.store.url}\n${publisherId}`);
}

/**
 * The verdict for a crawler answering to `tokens` on `url`, for the landing path's escalation
 * (docs/SPEC.md "Agent payments"). It never waits on the origin: it answers from the store, and a
 * missing or due record is fetched in the background. Meanwhile a never-fetched origin disallows
 * (fail closed), as an unreachable one does (RFC 9309 section 2.3.1.4).
 */
export async function storedRobotsVerdict(
  deps: RobotsDeps,
  publisherId: string,
  url: string,
  tokens: readonly string[],
): Promise<RobotsDecision> {
  const origin = new URL(url).origin;
  const rec = await getRobots(deps.store.db, publisherId, origin);
  if (!rec || due(rec, deps.clock.now().getTime())) fetchRobotsSoon(deps, publisherId, origin);
  return robotsVerdictOf(rec, url, tokens, `${deps.store.url}\n${publisherId}`);
}

/**
 * Starts fetching `origin`'s robots.txt in the background unless it is being fetched or, for a
 * visit (`throttled`), was tried within the last minute by this process. Settings call it unthrottled
 * when the robots origin is set or changes. Failures are logged; `robotsFetchesSettled()` waits.
 */
export function fetchRobotsSoon(
  deps: RobotsDeps,
  publisherId: string,
  origin: string,
  opts: { throttled: boolean } = { throttled: true },
): void {
  const key = keyOf(deps, publisherId, origin);
  const now = deps.clock.now().getTime();
  if (inFlight.has(key)) return;
  if (opts.throttled && now - (lastTried.get(key) ?? -Infinity) < RETRY_UNKNOWN_MS) return;
  lastTried.set(key, now);
  const { promise, abort } = fetchOnce(deps, publisherId, origin);
  promise.then((got) => {
    if (got instanceof FetchRefused) {
      deps.log.warn("robots.txt host refused", { origin, error: got.detail });
    }
  }, (err) => {
    if (!abort.signal.aborted) {
      deps.log.warn("robots.txt fetch failed", { origin, error: String(err) });
    }
  });
}

/** Waits until no robots.txt fetch of this store is in flight (tests; shutdown after aborting). */
export async function robotsFetchesSettled(deps: Pick<AppDeps, "store">): Promise<void> {
  const mine = () =>
    [...inFlight].filter(([key]) => key.startsWith(`${deps.store.url}\n`)).map(([, f]) => f);
  for (let pending = mine(); pending.length; pending = mine()) {
    await Promise.allSettled(pending.map((f) => f.promise));
  }
}

/** Aborts this store's robots.txt fetches and waits for them: the store is about to close. */
export async function stopRobotsFetches(deps: Pick<AppDeps, "store">): Promise<void> {
  for (const [key, f] of inFlight) {
    if (key.startsWith(`${deps.store.url}\n`)) f.abort.abort();
  }
  await robotsFetchesSettled(deps);
}

/** One fetch per (store, publisher, origin) at a time: callers arriving meanwhile share it. */
function fetchOnce(deps: RobotsDeps, publisherId: string, origin: string): Fetch {
  const key = keyOf(deps, publisherId, origin);
  let f = inFlight.get(key);
  if (!f) {
    const abort = new AbortController();
    const promise = fetchRobots(deps, publisherId, origin, abort.signal)
      .finally(() => inFlight.delete(key));
    f = { promise, abort };
    inFlight.set(key, f);
  }
  return f;
}

/**
 * Refetches every stored robots.txt that is due (the hourly cron; docs/SPEC.md "Limits" asks for a
 * daily refetch): a day after an answer, an hour after a failure.
 */
export async function refreshRobots(
  deps: RobotsDeps,
  opts: { limit?: number } = {},
): Promise<number> {
  // A minute of slack, so a cron firing a little early still finds last run's fetches due.
  const now = deps.clock.now().getTime() + 60_000;
  const stale = await staleRobots(deps.store.db, {
    answeredBefore: new Date(now - DAY_MS),
    failedBefore: new Date(now - RETRY_FAILED_MS),
    limit: opts.limit ?? 10_000,
  });
  let done = 0;
  for (const { publisherId, origin } of stale) {
    await fetchOnce(deps, publisherId, origin).promise;
    done++;
  }
  return done;
}

/** The robots.txt cron: refreshRobots() under a lease so one node of many does it. */
export async function dailyRobotsRefresh(
  deps: RobotsDeps,
  opts: { holder: string },
): Promise<number> {
  const leased = await withLease(deps.store.db, "robots-daily-refresh", {
    holder: opts.holder,
    ttlMs: 30 * 60_000,
    now: deps.clock.now(),
  }, () => refreshRobots(deps));
  return leased.ran ? leased.result : 0;
}

/** Fetches and stores one origin's robots.txt; a refusal to connect at all is returned, unstored. */
export async function fetchRobots(
  deps: RobotsDeps,
  publisherId: string,
  origin: string,
  signal?: AbortSignal,
): Promise<RobotsRecord | FetchRefused> {
  const now = deps.clock.now();
  let body: string | null = null;
  let status: number;
  try {
    const res = await deps.fetcher.fetch(`${origin}/robots.txt`, {
      maxBytes: ROBOTS_MAX_BYTES,
      // Content past the limit is ignored, not a reason to refuse the file (section 2.5).
      truncate: true,
      // Servers that honour Range do not even send the rest.
      headers: { range: `bytes=0-${ROBOTS_MAX_BYTES - 1}` },
      signal,
    });
    // Served as text/html or anything else: parsed leniently (docs/TEST-PLAN.md section 4, case 15).
    body = res.text();
    // Cut at the limit: the last line may be half a rule, which could disallow more than it says.
    if (res.bytes.length >= ROBOTS_MAX_BYTES) body = body.slice(0, body.search(/[^\r\n]*$/));
    status = res.status === 206 ? 200 : res.status;
  } catch (e) {
    if (!(e instanceof FetchRefused)) throw e;
    if (e.code === "http_status") status = e.status ?? 0;
    // More than 5 redirects: the file is unavailable (section 2.3.1.2), kept as a 3xx status.
    else if (e.code === "too_many_redirects") status = 310;
    else if (e.code === "timeout" || e.code === "network" || e.code === "too_large") status = 0;
    else return e; // the host itself is refused (private address, bad port, no DNS): so is the page
  }
  const ok = answered({ status });
  await putRobots(deps.store.db, publisherId, { origin, body, status, now, ok });
  return { origin, body, status, fetchedAt: now.getTime(), lastOkAt: ok ? now.getTime() : null };
}
