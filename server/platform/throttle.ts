/**
 * Per-address limits on unauthenticated, expensive endpoints (docs/TEST-PLAN.md 5.10): sign-ups, logins,
 * OAuth authorize and token. Counters live in the store, so every node shares one budget.
 *
 * Sign-ins (issue 28) are limited per address and slowed per (address, account), never locked per
 * account: wrong passwords from one address cannot keep the owner out from another. Every sign-in
 * that checks a password (publisher login, buyer login, either password change) goes through
 * `limitSignIns` and `slowSignIns` here.
 */
import type { Context } from "hono";
import { sha256Hex } from "../../store/ids.ts";
import { clearSignInFailures, takeSignInAttempt } from "../../store/sign_in_failures.ts";
import { hitThrottle } from "../../store/users.ts";
import type { AppDeps } from "../deps.ts";
import { AppError } from "./errors.ts";
import { plural } from "./words.ts";

/** A fixed-window limit. */
export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

/** The sign-in rule: one address's attempts across accounts, and one pair's growing delay. */
export const SIGN_IN = {
  /** Every attempt from an address counts, whatever the email, key or body. */
  perAddress: { limit: 30, windowMs: 15 * 60_000 },
  /**
   * Per (address, account): five failures free, then 1 s doubling to 15 min; one failure forgiven
   * per 15 quiet minutes, so an address guessing at the slowest pace stays at the slowest pace.
   * cap × decayMs (5 h) is under a day, the store's cleanup horizon.
   */
  perAccount: {
    free: 5,
    firstDelayMs: 1_000,
    maxDelayMs: 15 * 60_000,
    decayMs: 15 * 60_000,
    cap: 20,
  },
} as const;

type Deps = Pick<AppDeps, "store" | "clock">;

/** Counts an attempt under `key`; past the limit, a 429 with Retry-After in whole seconds. */
export async function throttle(deps: Deps, key: string, rule: ThrottleRule): Promise<void> {
  const now = deps.clock.now();
  const { count, resetAt } = await hitThrottle(deps.store.db, key, {
    now,
    windowMs: rule.windowMs,
  });
  if (count <= rule.limit) return;
  throw tooManyAttempts(resetAt - now.getTime());
}

/** Counts a sign-in attempt against its address's budget (`scope` names the sign-in). */
export async function limitSignIns(deps: Deps, c: Context, scope: string): Promise<void> {
  await throttle(deps, `${scope}:ip:${addressBlock(clientAddress(c))}`, SIGN_IN.perAddress);
}

/**
 * Runs `check`, a credential check that throws when the credentials are wrong, unless this
 * address must still wait for `account` (an email or an account id): then 429 with Retry-After,
 * the same for accounts that exist and ones that do not, and no password is checked. The attempt
 * counts before the check, so parallel guesses cannot share one free moment; a success forgets
 * the pair's failures.
 */
export async function slowSignIns<T>(
  deps: Deps,
  c: Context,
  scope: string,
  account: string,
  check: () => Promise<T>,
): Promise<T> {
  // The account is hashed so that addresses typed at a sign-in form are not stored.
  const who = await sha256Hex(account.trim().toLowerCase());
  const key = `${scope}:ip:${addressBlock(clientAddress(c))}:${who}`;
  const now = deps.clock.now();
  const taken = await takeSignInAttempt(deps.store.db, key, SIGN_IN.perAccount, { now });
  if (!taken.allowed) throw tooManyAttempts(taken.retryAt - now.getTime());
  const result = await check();
  await clearSignInFailures(deps.store.db, key);
  return result;
}

/** The one 429 of every throttle, with Retry-After in whole seconds (at least 1). */
function tooManyAttempts(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    429,
    "rate_limited",
    `Too many attempts: try again in ${plural(seconds, "second")}`,
    {
      "Retry-After": String(seconds),
    },
  );
}

/**
 * The peer address of the connection. Folio trusts no forwarding header for this: behind a proxy
 * every client shares the proxy's budget, which fails safe (stricter), never open.
 */
export function clientAddress(c: Context): string {
  const info = c.env as Deno.ServeHandlerInfo<Deno.NetAddr> | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}

/**
 * The block a sign-in budget belongs to: an IPv4 address as it is, an IPv6 one by its /64, the
 * smallest block one subscriber is given (RFC 6177), so rotating through it buys no new budget.
 */
export function addressBlock(address: string): string {
  const a = address.split("%")[0].toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1];
  if (!a.includes(":") || a.includes(".")) return a;
  const [head, tail] = a.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined
    ? left
    : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return a;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}
