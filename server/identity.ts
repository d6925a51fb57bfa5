/**
 * Who is asking: buyer keys (`Authorization: Bearer mk_...`) and the requester's territory.
 * Unknown, revoked and malformed keys get the identical 401 (docs/TEST-PLAN.md 5.4), and a malformed key
 * is refused by its checksum before the store is asked.
 */
import { type Buyer, findBuyerByKeyHash } from "../store/buyers.ts";
import type { Client } from "../store/db.ts";
import type { Config } from "./config.ts";
import { AppError } from "./errors.ts";
import { hashSecret, wellFormed } from "./secrets.ts";

/** The one 401 every bad buyer key gets. */
export function invalidKeyError(): AppError {
  return new AppError(
    401,
    "invalid_api_key",
    "The API key is missing, malformed, unknown or revoked",
    {
      "WWW-Authenticate": 'Bearer realm="folio"',
    },
  );
}

/** The bearer token of an Authorization header, or null when there is none. */
export function bearerToken(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^Bearer +([^\s]+) *$/i.exec(header);
  if (!m) throw invalidKeyError();
  return m[1];
}

/** The buyer whose live key is `key`; throws the one 401 otherwise. */
export async function buyerForKey(db: Client, key: string): Promise<Buyer> {
  if (!wellFormed(key, "mk")) throw invalidKeyError();
  const buyer = await findBuyerByKeyHash(db, await hashSecret(key));
  if (!buyer) throw invalidKeyError();
  return buyer;
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
