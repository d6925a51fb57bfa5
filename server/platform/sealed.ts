/**
 * Secrets at rest: a text sealed as a compact JWE (RFC 7516, `dir` + A256GCM, WebCrypto under
 * jose) with a key derived from an operator's secret and the purpose it serves, so one secret
 * never yields the same key for two purposes. Receipt signing keys (FOLIO_RECEIPT_KEY_SECRET) and
 * payee details (FOLIO_PAYEE_KEY_SECRET) are sealed this way (docs/decisions/billing.md).
 */
import { compactDecrypt, CompactEncrypt } from "jose";

/** `plaintext` sealed under `secret` for `purpose` (e.g. "receipt keys"). */
export async function seal(plaintext: string, secret: string, purpose: string): Promise<string> {
  return await new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .encrypt(await keyOf(secret, purpose));
}

/** The text `sealed` holds; throws when it was sealed under another secret or altered. */
export async function unseal(sealed: string, secret: string, purpose: string): Promise<string> {
  const { plaintext } = await compactDecrypt(sealed, await keyOf(secret, purpose));
  return new TextDecoder().decode(plaintext);
}

/** 32 bytes for A256GCM: SHA-256 of the purpose and the secret. */
async function keyOf(secret: string, purpose: string): Promise<Uint8Array> {
  const text = new TextEncoder().encode(`folio ${purpose}\n${secret}`);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", text));
}
