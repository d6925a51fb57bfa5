/**
 * multipart/form-data (RFC 7578) parsed in place: every part is a view into the one body buffer,
 * so a 10 MB upload costs 10 MB. Request.formData() copied it four times over (the body, a Blob
 * per file, the file's bytes again) and scanned it byte by byte in JavaScript.
 */

/** One part of a multipart body; `filename` is null for an ordinary field. */
export interface Part {
  name: string;
  filename: string | null;
  contentType: string;
  bytes: Uint8Array;
}

/** Raised when the body is not a well-formed multipart/form-data body. */
export class MultipartError extends Error {
  override name = "MultipartError";
}

const CR = 13;
const LF = 10;
const DASH = 45;
const utf8 = new TextDecoder();

/** The boundary parameter of a multipart Content-Type, or null. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * The parts of `body`, in order. Parts without a name are skipped, as Request.formData() skips
 * them; a part with a `filename` parameter is a file, its type application/octet-stream unless
 * it says otherwise.
 */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] {
  // Every delimiter but a first one at the very start follows a line break.
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  let at = startsWith(body, delimiter.subarray(2), 0) ? -2 : find(body, delimiter, 0);
  const parts: Part[] = [];
  for (;;) {
    if (at === -1) throw new MultipartError("no closing boundary");
    let pos = at + delimiter.length;
    if (body[pos] === DASH && body[pos + 1] === DASH) return parts; // the close delimiter
    pos = lineEnd(body, pos); // past any transport padding
    // The header block ends at a blank line; a part without headers starts with it.
    const blank = find(body, BLANK_LINE, pos - 2);
    if (blank < 0 || blank - pos > MAX_HEADER_BYTES) throw new MultipartError("unended headers");
    const headers = parseHeaders(utf8.decode(body.subarray(pos, Math.max(pos, blank))));
    const start = blank + BLANK_LINE.length;
    const next = find(body, delimiter, start - 2);
    const name = headers.disposition.get("name");
    if (name && next >= 0) {
      // An empty file input sends filename="": a field, as formData() makes it.
      const filename = headers.disposition.get("filename") || null;
      parts.push({
        name,
        filename,
        contentType: headers.type || "application/octet-stream",
        bytes: body.subarray(start, next),
      });
    }
    at = next;
  }
}

/** A part's bytes as text (UTF-8; a malformed byte becomes U+FFFD, as formData() did). */
export function partText(part: Part): string {
  return utf8.decode(part.bytes);
}

const BLANK_LINE = new Uint8Array([CR, LF, CR, LF]);
const MAX_HEADER_BYTES = 16 * 1024;

/** The index of `needle` in `body` at or after `from`, or -1; it searches for the first byte. */
function find(body: Uint8Array, needle: Uint8Array, from: number): number {
  for (let i = Math.max(from, 0); (i = body.indexOf(needle[0], i)) >= 0; i++) {
    if (i + needle.length > body.length) return -1;
    if (startsWith(body, needle, i)) return i;
  }
  return -1;
}

function startsWith(body: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at + needle.length > body.length) return false;
  for (let j = 0; j < needle.length; j++) if (body[at + j] !== needle[j]) return false;
  return true;
}

function lineEnd(body: Uint8Array, from: number): number {
  const lf = body.indexOf(LF, from);
  if (lf < 0) throw new MultipartError("a boundary line without its end");
  return lf + 1;
}

function parseHeaders(text: string): { type: string; disposition: Map<string, string> } {
  let type = "";
  let disposition = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (colon <= 0) continue;
    if (key === "content-type") type = value;
    else if (key === "content-disposition") disposition = params(value);
  }
  return { type, disposition };
}

/** Content-Disposition parameters (`name`, `filename`), quoted or not; the first of each counts. */
function params(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of value.matchAll(/;\s*([^\s=;]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g)) {
    const key = m[1].toLowerCase();
    if (!out.has(key)) out.set(key, m[2] ?? m[3].trim());
  }
  return out;
}
