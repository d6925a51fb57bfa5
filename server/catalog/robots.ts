/**
 * robots.txt for ingestion (RFC 9309): fetched through the guarded fetcher, stored per publisher
 * and origin, refetched daily. Redirects are followed up to 5 hops, more count as unavailable
 * (section 2.3.1.2); 4xx → allow all (section 2.3.1.3); 5xx, 429 and unreachable → disallow all
 * until a later success (section 2.3.1.4); the first 500 KiB are parsed (robots_rules.ts).
 */
import { getRobots, putRobots, type RobotsRecord, staleRobots } from "../../store/robots.ts";
import { withLease } from "../../store/leases.ts";
import type { AppDeps } from "../deps.ts";
import { FetchRefused } from "./fetcher.ts";
import {
  parseRobots,
  ROBOTS_MAX_BYTES,
  ROBOTS_TOKEN,
  type RobotsRules,
  statusRule,
} from "./robots_rules.ts";

export { ROBOTS_MAX_BYTES, ROBOTS_TOKEN };
const DAY_MS = 24 * 3600_000;
/** A failing host is asked again after an hour rather than a day, so it recovers sooner. */
const RETRY_FAILED_MS = 3600_000;

/** Whether a URL may be fetched, or the refusal that makes robots.txt (and the page) unreachable. */
export type RobotsVerdict =
  | { allowed: true }
  | { allowed: false; reason: string }
  | { refused: FetchRefused };

const parsedCache = new Map<
  string,
  { fetchedAt: number; body: string | null; robots: RobotsRules | null }
>();
const inFlight = new Map<string, Promise<RobotsRecord | FetchRefused>>();

/** The verdict for `url`, fetching its origin's robots.txt when missing or out of date. */
export async function robotsVerdict(
  deps: AppDeps,
  publisherId: string,
  url: string,
): Promise<RobotsVerdict> {
  const origin = new URL(url).origin;
  let rec = await getRobots(deps.store.db, publisherId, origin);
  const now = deps.clock.now().getTime();
  if (!rec || now - rec.fetchedAt >= (isOk(rec) ? DAY_MS : RETRY_FAILED_MS)) {
    const key = `${deps.store.url}\n${publisherId}\n${origin}`;
    let p = inFlight.get(key);
    if (!p) {
      p = fetchRobots(deps, publisherId, origin).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    const got = await p;
    if (got instanceof FetchRefused) return { refused: got };
    rec = got;
  }
  return verdictFor(rec, `${deps.store.url}\n${publisherId}`, url);
}

/** Refetches every stored robots.txt older than a day (the daily cron; docs/SPEC.md "Limits"). */
export async function refreshRobots(deps: AppDeps, opts: { limit?: number } = {}): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - DAY_MS + 60_000);
  const stale = await staleRobots(deps.store.db, { before, limit: opts.limit ?? 10_000 });
  let done = 0;
  for (const { publisherId, origin } of stale) {
    await fetchRobots(deps, publisherId, origin);
    done++;
  }
  return done;
}

/** The daily robots.txt cron: refreshRobots() under a lease so one node of many does it. */
export async function dailyRobotsRefresh(
  deps: AppDeps,
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
  deps: AppDeps,
  publisherId: string,
  origin: string,
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
  const ok = isOk({ status });
  await putRobots(deps.store.db, publisherId, { origin, body, status, now, ok });
  return { origin, body, status, fetchedAt: now.getTime(), lastOkAt: ok ? now.getTime() : null };
}

function isOk(rec: { status: number }): boolean {
  return statusRule(rec.status) !== "disallow_all";
}

/**
 * Whether the origin's stored robots.txt disallows `url` to any of a crawler's product tokens, for
 * the landing path's escalation (docs/SPEC.md "Agent payments"). Only an explicit rule counts: a
 * host that fails or has no file escalates no one. Never fetches on the request path: a missing
 * record is fetched in the background (the daily cron keeps it fresh) and counts as allowed.
 */
export async function robotsDisallows(
  deps: AppDeps,
  publisherId: string,
  url: string,
  tokens: string[],
): Promise<boolean> {
  if (tokens.length === 0) return false;
  const origin = new URL(url).origin;
  const rec = await getRobots(deps.store.db, publisherId, origin);
  if (!rec) {
    const key = `${deps.store.url}\n${publisherId}\n${origin}`;
    if (!inFlight.has(key)) {
      const p = fetchRobots(deps, publisherId, origin).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
      p.catch((err) => deps.log.warn("robots.txt fetch failed", { origin, error: String(err) }));
    }
    return false;
  }
  if (statusRule(rec.status) !== "parse") return false;
  const robots = parsed(rec, `${deps.store.url}\n${publisherId}`);
  return tokens.some((token) => robots?.isAllowed(url, token) === false);
}

function parsed(rec: RobotsRecord, owner: string): RobotsRules | null {
  const key = `${owner}\n${rec.origin}`;
  let cached = parsedCache.get(key);
  if (!cached || cached.fetchedAt !== rec.fetchedAt || cached.body !== rec.body) {
    cached = {
      fetchedAt: rec.fetchedAt,
      body: rec.body,
      robots: rec.body ? parseRobots(rec.body) : null,
    };
    parsedCache.set(key, cached);
    if (parsedCache.size > 1000) parsedCache.delete(parsedCache.keys().next().value!);
  }
  return cached.robots;
}

function verdictFor(rec: RobotsRecord, owner: string, url: string): RobotsVerdict {
  if (statusRule(rec.status) === "allow_all") return { allowed: true };
  if (!isOk(rec)) {
    const why = rec.status === 0 ? "could not be fetched" : `answered HTTP ${rec.status}`;
    return {
      allowed: false,
      reason: `robots.txt ${why}; the host is treated as disallowed until it answers`,
    };
  }
  const robots = parsed(rec, owner);
  if (!robots || robots.isAllowed(url, ROBOTS_TOKEN)) {
    return { allowed: true };
  }
  return { allowed: false, reason: `robots.txt disallows ${ROBOTS_TOKEN}` };
}
