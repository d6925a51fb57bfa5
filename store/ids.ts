/** Identifiers: random ids with a readable prefix, and stable ids derived from natural keys. */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lowercase

/** A random id such as `pub_3k9x...` with 80 bits of entropy. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase32(16)}`;
}

/** `n` random Crockford base32 characters (5 bits each) from the CSPRNG. */
export function randomBase32(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

/** Hex SHA-256 of a string. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A stable article id for a publisher's URL, so re-ingesting a page updates the same article. */
export async function articleIdFor(publisherId: string, url: string): Promise<string> {
  return `a${(await sha256Hex(`${publisherId}\n${url}`)).slice(0, 15)}`;
}
