/**
 * A receipt's compact JWS (RFC 7515 section 7.1) signed with Ed25519 (RFC 8032, deterministic) by
 * node:crypto's synchronous signature on the serving thread: the bytes jose's `CompactSign` gives
 * for the same protected header. About 17 µs a receipt where WebCrypto's awaited signature took
 * about 59 µs and a signing thread cost more in posts and wake-ups than it saved (docs/decisions/
 * billing.md, "Receipts signed where they are read").
 */
import { Buffer } from "node:buffer";
import { createPrivateKey, type KeyObject, sign } from "node:crypto";

/** The JWS `typ` of a receipt (RFC 7515 section 4.1.9: a media type without `application/`). */
export const RECEIPT_TYP = "folio-receipt+jws";

/** A private Ed25519 JWK as the store keeps it (RFC 8037). */
export type PrivateJwk = { kty: "OKP"; crv: "Ed25519"; d: string; x: string };

/** The signing key for a private JWK (node:crypto's, for `signCompact`). */
export function privateKeyOf(jwk: PrivateJwk): KeyObject {
  return createPrivateKey({ key: jwk, format: "jwk" });
}

/** `<protected header>.<payload>`, both base64url: what the signature covers. */
export function signingInput(kid: string, payload: string): string {
  const header = JSON.stringify({ alg: "EdDSA", kid, typ: RECEIPT_TYP });
  return `${b64url(header)}.${b64url(payload)}`;
}

/** The compact JWS over a signing input. */
export function signCompact(input: string, key: KeyObject): string {
  return `${input}.${sign(null, Buffer.from(input), key).toString("base64url")}`;
}

function b64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}
