/**
 * Per-host failure memory inside one job (issue 11): a host whose name does not resolve (or
 * resolves only to refused addresses), or that fails at the connection level several times in a
 * row, stops consuming the job's time: its remaining URLs fail at once with the host's reason.
 * An HTTP answer of any status, or any page, is the host working: it resets the count. Nothing
 * here changes how often a working host is asked (the fetcher's per-host spacing stands).
 */
import type { UrlOutcome } from "./ingest_url.ts";

/** Connection-level failures (timeouts, refused or reset connections) in a row that give up a host. */
export const CONNECTION_FAILURES = 3;

/** A host the job gave up on, and the reason and category its remaining URLs fail with. */
export interface DeadHost {
  host: string;
  reason: string;
  category: string;
}

/** The host of a URL as URL.host spells it (name and any explicit port), or the URL itself. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The memory of one job run. */
export class HostMemory {
  #streaks = new Map<string, number>();
  #dead = new Map<string, DeadHost>();

  /** The host of `url` if the job gave up on it. */
  dead(url: string): DeadHost | undefined {
    return this.#dead.get(hostOf(url));
  }

  /** Learns from one URL's outcome; returns the host when the job has just given up on it. */
  learn(url: string, outcome: UrlOutcome): DeadHost | null {
    const host = hostOf(url);
    if (this.#dead.has(host)) return null;
    const failure = outcome.state === "failed" ? outcome : null;
    const refused = failure?.refused;
    // A page, an answer, or a refusal about another host (a redirect's target): the host works.
    if (!refused || hostOf(refused.url) !== host) {
      this.#streaks.delete(host);
      return null;
    }
    const skipped = "skipped the remaining URLs of this host";
    let reason: string | null = null;
    switch (refused.code) {
      case "dns_failure":
        reason = `Host ${host}: DNS lookup failed (${refused.detail}); ${skipped}`;
        break;
      case "blocked_address":
        reason = `Host ${host}: ${refused.detail}; ${skipped}`;
        break;
      case "timeout":
      case "network": {
        const n = (this.#streaks.get(host) ?? 0) + 1;
        this.#streaks.set(host, n);
        if (n >= CONNECTION_FAILURES) {
          reason =
            `Host ${host}: ${n} connection-level failures in a row (last: ${refused.detail}); ${skipped}`;
        }
        break;
      }
      case "http_status":
      case "unsupported_type":
      case "too_large":
      case "too_many_redirects":
        this.#streaks.delete(host); // the host answered
    }
    if (!reason || !failure) return null;
    const dead = { host, reason, category: failure.category };
    this.#dead.set(host, dead);
    return dead;
  }
}
