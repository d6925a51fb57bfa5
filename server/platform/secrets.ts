/**
 * Secrets: API keys, tokens and codes. Keys look like `mk_<32 base62><6 base62 checksum>`; the
 * CRC32 checksum lets us reject a mistyped or forged key before touching the store (docs/TEST-PLAN.md 5.1).
 * Only SHA-256 hashes are stored: the secrets carry 190 bits of entropy, so a slow hash adds nothing.
 */
import { createHash } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY = 32;
const CHECK = 6;

/** A new secret with the given prefix (`mk`, `pk`, ...). */
export function newSecret(prefix: string): string {
  const body = randomBase62(BODY);
  return `${prefix}_${body}${checksum(`${prefix}_${body}`)}`;
}

/** The shape of a secret per prefix, made once. */
const SHAPES = new Map<string, RegExp>();

/** True when `secret` has the shape and checksum of a secret with this prefix. */
export function wellFormed(secret: string, prefix: string): boolean {
  // Every read checks its key and each URL parameter against four prefixes: one RegExp each.
  let re = SHAPES.get(prefix);
  if (!re) SHAPES.set(prefix, re = new RegExp(`^${prefix}_[0-9A-Za-z]{${BODY + CHECK}}$`));
  if (!re.test(secret)) return false;
  const head = secret.slice(0, -CHECK);
  return timingSafeEqual(checksum(head), secret.slice(-CHECK));
}

/**
 * Hex SHA-256 of a secret: the only form in which secrets are stored. node:crypto's synchronous
 * hash, since every authenticated request pays this: 3.5 µs against 62 µs for WebCrypto's
 * `digest()` and its trip through the event loop (docs/decisions/identity-and-keys.md).
 */
export function hashSecret(secret: string): Promise<string> {
  return Promise.resolve(createHash("sha256").update(secret).digest("hex"));
}

/** A short non-secret hint for listings: prefix and last four characters. */
export function hint(secret: string): string {
  return `${secret.slice(0, secret.indexOf("_") + 1)}…${secret.slice(-4)}`;
}

/** `n` random base62 characters, without modulo bias. */
export function randomBase62(n: number): string {
  let out = "";
  while (out.length < n) {
    const b = randomByte();
    if (b < 248) out += BASE62[b % 62];
  }
  return out;
}

// Random bytes are drawn from a pool refilled 4 KiB at a time: every request takes a request id,
// and one getRandomValues() call per id was 1.4% of a read (docs/PERFORMANCE.md, issue 39). Each
// byte is used once.
const pool = new Uint8Array(4096);
let pooled = 0;
function randomByte(): number {
  if (pooled === 0) {
    crypto.getRandomValues(pool);
    pooled = pool.length;
  }
  return pool[--pooled];
}

/** Constant-time string comparison (lengths may leak; contents do not). */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function checksum(text: string): string {
  let n = crc32(new TextEncoder().encode(text));
  let out = "";
  for (let i = 0; i < CHECK; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
