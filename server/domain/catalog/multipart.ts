/**
 * multipart/form-data (RFC 7578) over a body already read and size-limited, parsed by
 * @remix-run/multipart-parser. A part that arrives in one piece (all of them, from one buffer) is
 * a view into the body, so a 10 MB upload costs 10 MB: Request.formData() copied it four times
 * (the body, a Blob per file, the file's bytes again).
 */
import {
  getMultipartBoundary,
  MultipartParseError,
  parseMultipart as partsOf,
} from "@remix-run/multipart-parser";

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

const utf8 = new TextDecoder();
const MAX_HEADER_BYTES = 16 * 1024;

/** The boundary parameter of a multipart Content-Type, or null. */
export function boundaryOf(contentType: string): string | null {
  return getMultipartBoundary(contentType);
}

/**
 * The parts of `body`, in order. Parts without a name are skipped, as Request.formData() skips
 * them; a part with a non-empty `filename` parameter is a file, its type application/octet-stream
 * unless it says otherwise (an empty file input sends filename="": a field, as formData() has it).
 */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] {
  const parts: Part[] = [];
  try {
    // The body's size was limited while it was read: the parser's own limits only repeat it.
    const limits = { maxFileSize: body.length, maxTotalSize: body.length + 1 };
    for (const part of partsOf(body, { boundary, maxHeaderSize: MAX_HEADER_BYTES, ...limits })) {
      if (!part.name) continue;
      parts.push({
        name: part.name,
        filename: part.filename || null,
        contentType: part.headers["content-type"] || "application/octet-stream",
        bytes: part.content.length === 1 ? part.content[0] : part.bytes,
      });
    }
  } catch (err) {
    if (err instanceof MultipartParseError) throw new MultipartError(err.message);
    throw err;
  }
  return parts;
}

/** A part's bytes as text (UTF-8; a malformed byte becomes U+FFFD, as formData() did). */
export function partText(part: Part): string {
  return utf8.decode(part.bytes);
}
