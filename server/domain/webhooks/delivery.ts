/**
 * Sending queued deliveries (docs/decisions/webhooks.md). Deliveries wait in the store, so they
 * survive a restart; each node's worker leases due rows (store/webhooks.ts claimDue), posts them
 * through the guarded fetcher (SSRF checks after DNS, pinned connection, time and size limits) and
 * logs every attempt. A 2xx answer is success; anything else is retried on RETRY_MINUTES with
 * jitter, Stripe's model shortened to about three days, then the delivery is failed.
 */
import { newId } from "../../../store/ids.ts";
import {
  claimDue,
  type ClaimedDelivery,
  recordAttempt,
  releaseLease,
} from "../../../store/webhook_deliveries.ts";
import type { AppDeps } from "../../deps.ts";
import { systemTimer, type Timer } from "../../platform/clock.ts";
import { createFetcher, FetchRefused, type GuardedFetcher } from "../catalog/fetcher.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./signature.ts";

/** Waits after the 1st, 2nd, ... failed attempt: 9 attempts over about 3.3 days. */
export const RETRY_MINUTES = [1, 5, 30, 120, 300, 600, 1440, 1440] as const;
/** Each wait is stretched or shrunk by up to this fraction at random, so retries do not bunch. */
export const JITTER = 0.1;
/** How long a receiver has to answer; Stripe's timeout is of this order. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 500;
const USER_AGENT = "Folio-Webhooks/1.0 (+signed event notifications)";

/** When the next attempt after `attempts` failed ones is due, or null when they are used up. */
export function nextAttemptAt(attempts: number, now: Date, random = Math.random): number | null {
  const minutes = RETRY_MINUTES[attempts - 1];
  if (minutes === undefined) return null;
  const stretch = 1 + JITTER * (2 * random() - 1);
  return now.getTime() + Math.round(minutes * 60_000 * stretch);
}

// One fetcher per service: no silent retries (each attempt is logged and scheduled here) and no
// redirects (a receiver that moved must be edited, as with Stripe).
const fetchers = new WeakMap<AppDeps, GuardedFetcher>();
function fetcherFor(deps: AppDeps): GuardedFetcher {
  let f = fetchers.get(deps);
  if (!f) {
    f = createFetcher({
      userAgent: USER_AGENT,
      allowLoopback: deps.config.fetchAllowLoopback,
      loopbackUnthrottled: deps.config.fetchAllowLoopback,
      retries: 0,
      maxRedirects: 0,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });
    fetchers.set(deps, f);
  }
  return f;
}

/** Options of one drain: who holds the leases, how many at once, and test overrides. */
export interface DrainOptions {
  holder: string;
  limit?: number;
  timeoutMs?: number;
  fetcher?: GuardedFetcher;
  timer?: Timer;
  /** Shutdown: attempts in flight are abandoned unlogged and their deliveries handed back. */
  signal?: AbortSignal;
}

/** Sends every due delivery this node can lease; answers how many attempts it made. */
export async function drainDue(deps: AppDeps, opts: DrainOptions): Promise<number> {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const claimed = await claimDue(deps.store.db, {
    holder: opts.holder,
    now: deps.clock.now(),
    // The lease outlives the attempt, so no other node sends it meanwhile.
    leaseMs: timeoutMs + 60_000,
    limit: opts.limit ?? 20,
  });
  await Promise.all(claimed.map((d) => attempt(deps, d, { ...opts, timeoutMs })));
  return claimed.length;
}

async function attempt(
  deps: AppDeps,
  d: ClaimedDelivery,
  opts: DrainOptions & { timeoutMs: number },
): Promise<void> {
  const timer = opts.timer ?? systemTimer;
  const sentAt = deps.clock.now();
  const started = timer.now();
  let statusCode: number | null = null;
  let excerpt = "";
  let error: string | null = null;
  try {
    const res = await (opts.fetcher ?? fetcherFor(deps)).fetch(d.url, {
      method: "POST",
      body: d.payload,
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signatureHeader(
          d.secret,
          Math.floor(sentAt.getTime() / 1000),
          d.payload,
        ),
      },
      timeoutMs: opts.timeoutMs,
      maxBytes: 64 * 1024,
      truncate: true,
      anyStatus: true,
      signal: opts.signal,
    });
    statusCode = res.status;
    excerpt = res.text().slice(0, EXCERPT_CHARS);
  } catch (e) {
    if (opts.signal?.aborted) return await releaseLease(deps.store.db, d.id, opts.holder);
    error = e instanceof FetchRefused ? `${e.code}: ${e.detail}` : "could not send";
    if (!(e instanceof FetchRefused)) {
      deps.log.warn("webhooks: delivery failed", { deliveryId: d.id, error: String(e) });
    }
  }
  const ok = statusCode !== null && statusCode >= 200 && statusCode <= 299;
  const attempts = d.attempts + 1;
  const next = ok ? null : nextAttemptAt(attempts, deps.clock.now());
  await recordAttempt(deps.store.db, {
    id: newId("wha"),
    deliveryId: d.id,
    holder: opts.holder,
    state: ok ? "succeeded" : next === null ? "failed" : "pending",
    nextAttemptAt: next,
    at: sentAt.getTime(),
    statusCode,
    latencyMs: Math.max(0, Math.round(timer.now() - started)),
    excerpt,
    error: ok ? null : error ?? `status ${statusCode}`,
  });
}
