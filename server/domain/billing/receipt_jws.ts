/**
 * A receipt's compact JWS (RFC 7515 section 7.1) signed with Ed25519 through WebCrypto: the bytes
 * jose's `CompactSign` gives for the same protected header, so a receipt is the same whichever
 * thread signed it (server/domain/billing/receipt_signing.ts). Imported by the signing worker:
 * keep it free of the server's modules.
 */
import { Buffer } from "node:buffer";

/** The JWS `typ` of a receipt (RFC 7515 section 4.1.9: a media type without `application/`). */
export const RECEIPT_TYP = "folio-receipt+jws";

/** A private Ed25519 JWK as the store keeps it (RFC 8037). */
export type PrivateJwk = { kty: "OKP"; crv: "Ed25519"; d: string; x: string };

/** The signing key for a private JWK. */
export function signingKeyOf(jwk: PrivateJwk): Promise<CryptoKey> {
  return crypto.subtle.importKey("jwk", jwk, { name: "Ed25519" }, false, ["sign"]);
}

/** `<protected header>.<payload>`, both base64url: what the signature covers. */
export function signingInput(kid: string, payload: string): string {
  const header = JSON.stringify({ alg: "EdDSA", kid, typ: RECEIPT_TYP });
  return `${b64url(header)}.${b64url(payload)}`;
}

/** The compact JWS over a signing input. */
export async function signCompact(input: string, key: CryptoKey): Promise<string> {
  const signature = await crypto.subtle.sign("Ed25519", key, new TextEncoder().encode(input));
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

function b64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}
