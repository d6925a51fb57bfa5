/**
 * Small secrets sealed at rest: a JWE (`dir`, A256GCM, by jose) under a key derived from some key
 * material and a purpose, so the same material used for two purposes gives two keys.
 */
import { compactDecrypt, CompactEncrypt } from "jose";
import { sha256Hex } from "../../store/ids.ts";

async function keyOf(material: string, purpose: string): Promise<Uint8Array> {
  const hex = await sha256Hex(`folio sealed\n${purpose}\n${material}`);
  return Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
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
