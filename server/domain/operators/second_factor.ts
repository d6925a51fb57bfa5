/**
 * The operator's second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, through the
 * `otpauth` library) and ten one-time recovery codes. A code is accepted for the current step or
 * one step either side (clock drift), and only once: the operator's last accepted step is kept
 * and a code of that step or an earlier one is refused (RFC 6238 section 5.2).
 */
import { Secret, TOTP } from "otpauth";
import { loadOnce } from "../../platform/lazy.ts";
import { hashSecret } from "../../platform/secrets.ts";
import { randomBase32 } from "../../../store/ids.ts";

// qrcode loads on the first enrolment, not at start (docs/decisions/operations.md, "What the start
// fetches").
const QR_SVG = ["./qr_svg", "ts"].join(".");
const qr = loadOnce((): Promise<typeof import("./qr_svg.ts")> => import(QR_SVG));

const PERIOD_S = 30;

/** A new TOTP secret (160 bits, RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: "Folio",
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** The otpauth:// URI an authenticator app reads (Key Uri Format), and its QR code as SVG. */
export async function enrolmentOf(secret: string, label: string) {
  const uri = totpOf(secret, label).toString();
  const qrSvg = await (await qr()).qrSvg(uri);
  return { secret, uri, qrSvg };
}

/**
 * The 30-second step `code` is valid for at `now` (±1 step), or null. Whether the step was used
 * before is the caller's to check (`takeTotpStep`, store/operators.ts).
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret, "check").validate({ token, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** How many recovery codes an operator holds after enrolment. */
export const RECOVERY_CODES = 10;

/** Ten new recovery codes (`xxxx-xxxx-xxxx`, 60 bits each, Crockford base32) and their hashes. */
export async function newRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomBase32(12);
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
  });
  return { codes, hashes: await Promise.all(codes.map(recoveryCodeHash)) };
}

/** The stored hash of a recovery code as typed (case, spaces and dashes do not matter). */
export function recoveryCodeHash(typed: string): Promise<string> {
  return hashSecret(`recovery:${typed.replace(/[\s-]+/g, "").toLowerCase()}`);
}
