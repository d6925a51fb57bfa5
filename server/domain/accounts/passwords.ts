/**
 * Dashboard passwords: PBKDF2-HMAC-SHA256 through WebCrypto, 600,000 iterations (the OWASP
 * Password Storage Cheat Sheet figure for PBKDF2-SHA256) and a 128-bit random salt per password.
 * The stored string describes itself, `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url), so
 * the iteration count can be raised later without breaking existing hashes.
 */
import { timingSafeEqual } from "../../platform/secrets.ts";

/** Iterations for new hashes. */
export const PBKDF2_ITERATIONS = 600_000;

/** Shortest and longest accepted password, in characters (NIST SP 800-63B allows long ones). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

const SCHEME = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;

/** Hashes a password into the self-describing stored form. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

/** True when `password` matches `stored`; false for a wrong password or an unreadable hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== SCHEME || !/^\d{1,9}$/.test(parts[1])) return false;
  const iterations = Number(parts[1]);
  if (iterations < 1) return false;
  const salt = fromBase64Url(parts[2]);
  const expected = parts[3];
  if (!salt) return false;
  const actual = toBase64Url(await derive(password, salt, iterations));
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | null = null;

/**
 * Spends the same time as checking a real password, for logins with an unknown email, so that
 * response time does not tell which emails have accounts.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword(crypto.randomUUID());
  await verifyPassword(password, await dummy);
  return false;
}

async function derive(password: string, salt: Uint8Array, iterations: number) {
  // NFKC so that the same password typed on different keyboards hashes the same (SP 800-63B 5.1.1.2).
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password.normalize("NFKC")),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{8,}$/.test(text)) return null;
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}
