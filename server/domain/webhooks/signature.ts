/**
 * The `Folio-Signature` header (docs/decisions/webhooks.md), Stripe's scheme: `t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the endpoint secret>`. The timestamp is signed
 * with the body, so a receiver that refuses old `t` values (5 minutes, as Stripe advises) is safe
 * from replays of a captured delivery. Each attempt is signed afresh.
 */
import { createHmac } from "node:crypto";
import { timingSafeEqual } from "../../platform/secrets.ts";

/** The header name. */
export const SIGNATURE_HEADER = "Folio-Signature";

/** The header value for `body` signed at `t` (unix seconds). */
export function signatureHeader(secret: string, t: number, body: string): string {
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

/**
 * What a receiver does: true when one `v1` in the header is the body's HMAC under `secret` and `t`
 * is within `toleranceS` of `nowS`. Exported for tests and as the reference for receivers.
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  opts: { nowS: number; toleranceS?: number },
): boolean {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = Number(parts.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(opts.nowS - t) > (opts.toleranceS ?? 300)) return false;
  const expected = hmac(secret, t, body);
  return parts.some(([k, v]) => k === "v1" && v !== undefined && timingSafeEqual(v, expected));
}

function hmac(secret: string, t: number, body: string): string {
  return createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
}
