/**
 * An enrolment QR code as SVG. qrcode (29 packages with its tree) is loaded only from here, and
 * this module only on the first enrolment (second_factor.ts), so the start does not fetch it
 * (docs/decisions/operations.md, "What the start fetches"); scripts/compile.ts includes it.
 */
// @ts-types="npm:@types/qrcode@1.5.6"
import QRCode from "qrcode";

/** `text` (an otpauth:// URI) as an SVG QR code. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
