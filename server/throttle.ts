/**
 * Per-address limits on unauthenticated, expensive endpoints (docs/TEST-PLAN.md 5.10): sign-ups, logins,
 * OAuth authorize and token. Counters live in the store, so every node shares one budget.
 */
import type { Context } from "hono";
import { hitThrottle } from "../store/users.ts";
import type { AppDeps } from "./deps.ts";
import { AppError } from "./errors.ts";

/** A fixed-window limit. */
export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

/** Counts an attempt under `key`; past the limit, a 429 with Retry-After in whole seconds. */
export async function throttle(
  deps: Pick<AppDeps, "store" | "clock">,
  key: string,
  rule: ThrottleRule,
): Promise<void> {
  const now = deps.clock.now();
  const { count, resetAt } = await hitThrottle(deps.store.db, key, {
    now,
    windowMs: rule.windowMs,
  });
  if (count <= rule.limit) return;
  const seconds = Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000));
  throw new AppError(429, "rate_limited", `Too many attempts: try again in ${seconds} seconds`, {
    "Retry-After": String(seconds),
  });
}

/**
 * The peer address of the connection. Folio trusts no forwarding header for this: behind a proxy
 * every client shares the proxy's budget, which fails safe (stricter), never open.
 */
export function clientAddress(c: Context): string {
  const info = c.env as Deno.ServeHandlerInfo<Deno.NetAddr> | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}
