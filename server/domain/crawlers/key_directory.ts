/**
 * Signing agents' key directories for Web Bot Auth (draft-meunier-http-message-signatures-directory):
 * `GET <agent origin>/.well-known/http-message-signatures-directory`, a JSON `{keys: [JWK…]}`.
 * Only Ed25519 keys are kept (the web-bot-auth architecture draft's algorithm), each by its
 * RFC 7638 thumbprint, which is what a signature's `keyid` names.
 *
 * Directories are asked for on page requests, so they are cached per origin: an hour (less when
 * Cache-Control says so, never under a minute), failures a minute; concurrent misses share one
 * fetch; an unknown keyid refetches (key rotation) at most once a minute per origin.
 *
 * @module
 */
import { BoundedCache } from "../../../store/bounded_cache.ts";
import {
  HTTP_MESSAGE_SIGNATURES_DIRECTORY,
  jwkToKeyID,
  MediaType,
  type Verify,
} from "web-bot-auth";
import { helpers, verifierFromJWK } from "web-bot-auth/crypto";
import type { Clock } from "../../platform/clock.ts";
import { FetchRefused, type GuardedFetcher } from "../catalog/fetcher.ts";

/** Checks one signature over `data`; throws when it does not verify. */
export type KeyVerifier = Verify<void>;

/** What a directory lookup needs. */
export interface DirectoryDeps {
  fetcher: GuardedFetcher;
  clock: Clock;
}

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;
const MAX_ORIGINS = 1000;
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5000;

type Entry =
  | { ok: true; keys: Map<string, KeyVerifier>; fetchedAt: number; expiresAt: number }
  | { ok: false; why: string; fetchedAt: number; expiresAt: number };

interface State {
  cache: BoundedCache<string, Entry>;
  inFlight: Map<string, Promise<Entry>>;
}

// One cache per fetcher: one per process in production, and each test's own.
const states = new WeakMap<GuardedFetcher, State>();

/** The verifier for `keyid` in `origin`'s key directory, or why there is none. */
export async function directoryKey(
  deps: DirectoryDeps,
  origin: string,
  keyid: string,
): Promise<{ verify: KeyVerifier } | { why: string }> {
  let state = states.get(deps.fetcher);
  if (!state) {
    states.set(deps.fetcher, state = { cache: new BoundedCache(MAX_ORIGINS), inFlight: new Map() });
  }
  const now = deps.clock.now().getTime();
  const cached = state.cache.get(origin);
  const rotated = cached?.ok && !cached.keys.has(keyid) && now - cached.fetchedAt >= MINUTE_MS;
  const entry = !cached || now >= cached.expiresAt || rotated
    ? await load(deps, state, origin)
    : cached;
  if (!entry.ok) return { why: `key directory could not be fetched: ${entry.why}` };
  const verify = entry.keys.get(keyid);
  if (!verify) return { why: `no Ed25519 key with keyid ${keyid} in ${origin}'s key directory` };
  return { verify };
}

function load(deps: DirectoryDeps, state: State, origin: string): Promise<Entry> {
  let p = state.inFlight.get(origin);
  if (!p) {
    p = fetchDirectory(deps, origin).then((fresh) => {
      const previous = state.cache.get(origin);
      const now = deps.clock.now().getTime();
      // A failed refetch keeps keys that are still fresh rather than dropping a working signer.
      const entry = !fresh.ok && previous?.ok && now < previous.expiresAt
        ? { ...previous, fetchedAt: fresh.fetchedAt }
        : fresh;
      state.cache.set(origin, entry);
      return entry;
    }).finally(() => state.inFlight.delete(origin));
    state.inFlight.set(origin, p);
  }
  return p;
}

async function fetchDirectory(deps: DirectoryDeps, origin: string): Promise<Entry> {
  const url = `${origin}${HTTP_MESSAGE_SIGNATURES_DIRECTORY}`;
  const fetchedAt = deps.clock.now().getTime();
  const failed = (why: string): Entry => ({
    ok: false,
    why,
    fetchedAt,
    expiresAt: fetchedAt + MINUTE_MS,
  });
  let body: unknown;
  let cacheControl: string | null;
  try {
    const res = await deps.fetcher.fetch(url, {
      accept: [MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY, "application/json"],
      maxBytes: MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
    });
    cacheControl = res.headers.get("cache-control");
    body = JSON.parse(res.text());
  } catch (e) {
    if (e instanceof FetchRefused) return failed(`${url}: ${e.detail}`);
    if (e instanceof SyntaxError) return failed(`${url} is not JSON`);
    throw e;
  }
  const jwks = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(jwks)) return failed(`${url} has no "keys" array`);
  const keys = new Map<string, KeyVerifier>();
  for (const jwk of jwks) {
    // An Ed25519 public key is 32 bytes: 43 base64url characters.
    if (jwk?.kty !== "OKP" || jwk.crv !== "Ed25519" || !/^[\w-]{43}$/.test(jwk.x)) continue;
    const publicJwk = { kty: "OKP", crv: "Ed25519", x: jwk.x };
    try {
      const verify = await verifierFromJWK(publicJwk);
      keys.set(
        await jwkToKeyID(publicJwk, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE),
        verify,
      );
    } catch {
      continue; // a malformed key is skipped; the others still serve
    }
  }
  return { ok: true, keys, fetchedAt, expiresAt: fetchedAt + ttlMs(cacheControl) };
}

/** An hour, or the smaller max-age the directory asks for; a minute at least, so it is not asked per page. */
function ttlMs(cacheControl: string | null): number {
  const cc = cacheControl?.toLowerCase() ?? "";
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d+)/.exec(cc)?.[1];
  const asked = /(?:^|[,\s])(?:no-store|no-cache)\b/.test(cc)
    ? 0
    : maxAge === undefined
    ? HOUR_MS
    : Number(maxAge) * 1000;
  return Math.max(MINUTE_MS, Math.min(HOUR_MS, asked));
}
