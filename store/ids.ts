/** Identifiers: random ids with a readable prefix, and stable ids derived from natural keys. */
import { createHash } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lowercase

/** A random id such as `pub_3k9x...` with 80 bits of entropy. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase32(16)}`;
}

/**
 * An id that sorts by creation time, for rows written on the hot path (charges): ten base32
 * characters of the millisecond clock, then 80 random bits, as ULID lays them out. Random ids put
 * each insert on a random leaf of the primary-key index, so a group commit of eight charges wrote
 * eight index pages; these land on the last one (docs/decisions/billing.md).
 */
export function newTimeOrderedId(prefix: string, at: Date): string {
  let t = Math.max(0, Math.floor(at.getTime()));
  let time = "";
  for (let i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  return `${prefix}_${time}${randomBase32(16)}`;
}

/** `n` random Crockford base32 characters (5 bits each) from the CSPRNG. */
export function randomBase32(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

/**
 * Hex SHA-256 of a string, by node:crypto's synchronous hash: WebCrypto's `digest()` runs off the
 * main thread, and a charged read waited on its round trip (docs/decisions/identity-and-keys.md).
 */
export function sha256Hex(text: string): Promise<string> {
  return Promise.resolve(createHash("sha256").update(text).digest("hex"));
}

/** A stable article id for a publisher's URL, so re-ingesting a page updates the same article. */
export async function articleIdFor(publisherId: string, url: string): Promise<string> {
  return `a${(await sha256Hex(`${publisherId}\n${url}`)).slice(0, 15)}`;
}
