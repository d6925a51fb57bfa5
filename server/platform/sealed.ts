/**
 * Small secrets sealed at rest: a JWE (RFC 7516, `dir`, A256GCM, WebCrypto under jose) under a key
 * derived from some key material and a purpose, so the same material used for two purposes gives
 * two keys. Receipt signing keys (FOLIO_RECEIPT_KEY_SECRET), payee details
 * (FOLIO_PAYEE_KEY_SECRET) and an operator's fresh recovery codes are sealed this way.
 */
import { compactDecrypt, CompactEncrypt } from "jose";

/**
 * 32 bytes for A256GCM: SHA-256 of "folio <purpose>\n<material>" (the receipt keys' derivation
 * before this module, kept so keys sealed then still open).
 */
async function keyOf(material: string, purpose: string): Promise<Uint8Array> {
  const text = new TextEncoder().encode(`folio ${purpose}\n${material}`);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", text));
}

/** `text` sealed under (`material`, `purpose`). */
export async function seal(text: string, material: string, purpose: string): Promise<string> {
  return await new CompactEncrypt(new TextEncoder().encode(text))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .encrypt(await keyOf(material, purpose));
}

/** The text sealed under (`material`, `purpose`), or null when it was sealed under another key. */
export async function unseal(
  sealed: string,
  material: string,
  purpose: string,
): Promise<string | null> {
  try {
    const { plaintext } = await compactDecrypt(sealed, await keyOf(material, purpose));
    return new TextDecoder().decode(plaintext);
  } catch {
    return null;
  }
}
