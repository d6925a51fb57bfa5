/**
 * Who is asking, for every surface: what a request presents (docs/SPEC.md "Authentication": buyer
 * keys `mk_`, OAuth access tokens `fat_`), whether it is genuine, and the requester's territory.
 * The reach gate (server/domain/licensing/reach.ts) decides on what is presented; this module verifies it.
 * Unknown, revoked, malformed and foreign credentials are all refused alike (docs/TEST-PLAN.md
 * 5.4), and a malformed one is refused by its checksum before the store is asked.
 */
import { readView } from "../../store/config_cache.ts";
import { type Buyer, findBuyerByKeyHash } from "../../store/buyers.ts";
import type { Client } from "../../store/db.ts";
import type { Publisher } from "../../store/publishers.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { AppError } from "./errors.ts";
import type { Presented } from "../domain/licensing/reach.ts";
import { mcpResourceUris } from "./resource_metadata.ts";
import { ACCESS_PREFIX, REFRESH_PREFIX, verifyAccessToken } from "../domain/accounts/tokens.ts";
import { hashSecret, wellFormed } from "./secrets.ts";
import type { Receipts } from "../domain/billing/receipts.ts";
import {
  type LicenseGrant,
  LicenseTokenError,
  olpServerOf,
  verifyLicenseToken,
} from "../domain/rsl/license_tokens.ts";

/**
 * What the Authorization header presents: `Bearer <token>` (a buyer key or an access token), or
 * `License <token>` (an RSL license token, the Crawler Authorization Protocol, docs/decisions/rsl.md);
 * any other header is a bad token.
 */
export interface Presentation {
  presented: Presented;
  /** The bearer token; null when nothing, or nothing readable, was presented. */
  token: string | null;
}

/** A verified credential. */
export interface Credential {
  kind: "buyer_key" | "access_token" | "license_token";
  /** Meter identity: `buyer:<id>` or `oauth:<clientId>` (docs/DESIGN.md §4). */
  identity: string;
  /** What an MCP session is bound to: `buyer:<id>` or the OAuth client id. */
  principal: string;
  /** The buyer billed: the key's owner, or the buyer that registered the OAuth client. */
  buyerId: string | null;
  email: string | null;
  /** Granted OAuth scopes (space-separated); null for buyer keys. */
  scope: string | null;
  /** What an RSL license token grants (its resource, payment); absent for other credentials. */
  license?: LicenseGrant;
}

const BEARER = /^Bearer +([\x21-\x7E]+) *$/i;
const LICENSE = /^License(?: +([\x21-\x7E]+))? *$/i;

/** Reads the Authorization header without verifying anything. */
export function presentation(header: string | null | undefined): Presentation {
  if (header === null || header === undefined) return { presented: "none", token: null };
  if (/^License\b/i.test(header)) {
    return { presented: "license_token", token: LICENSE.exec(header)?.[1] ?? null };
  }
  const token = BEARER.exec(header)?.[1] ?? null;
  return { presented: token?.startsWith("mk_") ? "buyer_key" : "access_token", token };
}

/**
 * The credential behind a presentation, for one publisher: a live buyer key, a live access token
 * bound (RFC 8707) to one of this publisher's MCP resource URIs, or a live license token issued for
 * this publisher's content. Null when a key or access token is not genuine; a license token that
 * is not throws its `LicenseTokenError`, which says why in the protocol's terms.
 */
export async function verifyCredential(
  deps: {
    db: Client;
    clock: Clock;
    config: Pick<Config, "baseUrl">;
    receipts: Pick<Receipts, "verifyJwt">;
  },
  publisher: Publisher,
  p: Presentation,
): Promise<Credential | null> {
  if (p.presented === "license_token") return await licenseCredential(deps, publisher, p.token);
  if (p.token === null) return null;
  if (p.presented === "buyer_key") {
    // The publisher was looked up in this request: no second configuration-version read.
    const buyer = await liveBuyer(readView(deps.db, publisher), p.token);
    if (!buyer) return null;
    const principal = `buyer:${buyer.id}`;
    return {
      kind: "buyer_key",
      identity: principal,
      principal,
      buyerId: buyer.id,
      email: buyer.email,
      scope: null,
    };
  }
  const grant = await verifyAccessToken(deps.db, p.token, {
    resource: mcpResourceUris(deps.config.baseUrl, publisher),
    now: deps.clock.now(),
  });
  if (!grant || grant.publisherId !== publisher.id) return null;
  return {
    kind: "access_token",
    identity: `oauth:${grant.clientId}`,
    principal: grant.clientId,
    buyerId: grant.buyerId,
    email: grant.email,
    scope: grant.scope,
  };
}

async function licenseCredential(
  deps: { clock: Clock; receipts: Pick<Receipts, "verifyJwt">; config: Pick<Config, "baseUrl"> },
  publisher: Publisher,
  token: string | null,
): Promise<Credential> {
  if (token === null) {
    throw new LicenseTokenError("invalid_request", "Send Authorization: License <token>");
  }
  const { grant } = await verifyLicenseToken(deps.receipts, token, {
    now: deps.clock.now(),
    issuer: olpServerOf(deps.config.baseUrl),
  });
  if (grant.publisherId !== publisher.id) {
    throw new LicenseTokenError(
      "insufficient_scope",
      `The license token is for another publisher's content, not ${publisher.name}'s`,
    );
  }
  return {
    kind: "license_token",
    identity: `buyer:${grant.buyerId}`,
    principal: `olp:${grant.clientId}`,
    buyerId: grant.buyerId,
    email: null,
    scope: null,
    license: grant,
  };
}

/** The one 401 every bad buyer key gets. */
export function invalidKeyError(): AppError {
  return new AppError(
    401,
    "invalid_api_key",
    "The API key is missing, malformed, unknown or revoked",
    { "WWW-Authenticate": 'Bearer realm="folio"' },
  );
}

/** The buyer whose live key is `key`; throws the one 401 otherwise. */
export async function buyerForKey(db: Client, key: string): Promise<Buyer> {
  const buyer = await liveBuyer(db, key);
  if (!buyer) throw invalidKeyError();
  return buyer;
}

const KEY_PARAMS = new Set(["api_key", "apikey", "key", "access_token", "token", "mk"]);
const SECRET_PREFIXES = ["mk", "pk", ACCESS_PREFIX, REFRESH_PREFIX];

/**
 * True when the URL carries a credential: a parameter named like one, or a value that is one of
 * our secrets. Keys in URLs end up in logs, caches and Referer headers (docs/TEST-PLAN.md 5.6 and
 * 1.36), so surfaces refuse them rather than ignore them.
 */
export function keyInUrl(url: URL): boolean {
  for (const [name, value] of url.searchParams) {
    if (KEY_PARAMS.has(name.toLowerCase())) return true;
    if (SECRET_PREFIXES.some((prefix) => wellFormed(value, prefix))) return true;
  }
  return false;
}

/** The requester's ISO 3166 country from the trusted proxy header, or null when unknown. */
export function territoryOf(
  config: Pick<Config, "countryHeader">,
  headers: Headers,
): string | null {
  if (!config.countryHeader) return null;
  const v = headers.get(config.countryHeader)?.trim().toUpperCase();
  // Cloudflare sends XX for unknown and T1 for Tor: neither names a territory.
  return v && /^[A-Z]{2}$/.test(v) && v !== "XX" && v !== "T1" ? v : null;
}

/**
 * The buyer whose live key is `key`; null for a malformed, unknown or revoked one. `db` may be
 * the request's view (store/config_cache.ts `readView`).
 */
export async function liveBuyer(db: Client, key: string): Promise<Buyer | null> {
  if (!wellFormed(key, "mk")) return null;
  return await findBuyerByKeyHash(db, await hashSecret(key));
}
