/** Reading a response body under a byte cap, and decoding it by its declared charset. */
import { releaseStreamChunk } from "../../platform/buffers.ts";

/** Takes a body's chunks as they arrive; false once it wants no more. */
export type BodySink = (chunk: Uint8Array) => Promise<boolean>;

/**
 * Read the whole body (or hand it to `sink` chunk by chunk, keeping none), or cancel it once it passes `max` bytes: null, or with `truncate` its first
 * `max` bytes.
 */
export async function readCapped(
  res: Response,
  max: number,
  truncate = false,
  sink?: BodySink,
): Promise<Uint8Array | null> {
  if (!res.body) return new Uint8Array();
  if (sink) {
    const byob = byobReader(res.body);
    if (byob) return await readInto(byob, max, sink);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    // Counted on decoded bytes: fetch has already inflated gzip/br, so a bomb hits the cap.
    total += r.value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      if (!truncate) return null;
      chunks.push(r.value.subarray(0, r.value.length - (total - max)));
      total = max;
      break;
    }
    if (!sink) chunks.push(r.value);
    else if (!await sink(r.value)) {
      // The sink has what it wants: the rest is never read.
      await reader.cancel().catch(() => {});
      return new Uint8Array();
    } else releaseStreamChunk(r.value); // the sink is done with it
  }
  if (sink) return new Uint8Array();
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, (off += c.length) - c.length);
    releaseStreamChunk(c); // copied: freed now, not at the next full collection
  }
  return out;
}

/** Bytes read at once when a sink takes the body. */
const SINK_BUFFER = 64 * 1024;

function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return null; // not a byte stream
  }
}

/**
 * A body handed to `sink` through one buffer, read into again and again: a chunk of its own per
 * read (4 KB each from an inflating fetch) is an ArrayBuffer outside the heap that only a full
 * collection frees, and 50 MB of them lifted the process by 76 MB (issue 39). The sink must be
 * done with a chunk when its promise settles.
 */
async function readInto(
  reader: ReadableStreamBYOBReader,
  max: number,
  sink: BodySink,
): Promise<Uint8Array | null> {
  let buffer = new ArrayBuffer(SINK_BUFFER);
  let total = 0;
  try {
    for (;;) {
      const r = await reader.read(new Uint8Array(buffer));
      if (r.done || !r.value) return new Uint8Array();
      buffer = r.value.buffer as ArrayBuffer;
      // Counted on decoded bytes: fetch has already inflated gzip/br, so a bomb hits the cap.
      total += r.value.length;
      if (total > max) return null;
      // The sink has what it wants: the rest is never read.
      if (!await sink(r.value)) return new Uint8Array();
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Decode by the Content-Type charset, falling back to UTF-8 for a missing or unknown label. */
export function decodeText(bytes: Uint8Array, contentType: string): string {
  return decoderFor(charsetOf(contentType)).decode(bytes);
}

/** The Content-Type's charset parameter, if it has one. */
export function charsetOf(contentType: string): string | null {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? null;
}

/** A decoder for `label`, UTF-8 for a missing or unknown one. */
function decoderFor(label: string | null): TextDecoder {
  try {
    return new TextDecoder(label ?? "utf-8"); // latin1 and iso-8859-1 decode as windows-1252, per WHATWG
  } catch {
    return new TextDecoder();
  }
}

/**
 * The decoder for an XML document, from its first bytes: a byte order mark, else the
 * Content-Type's charset (RFC 7303 section 3.2: it wins over the declaration), else the XML
 * declaration's `encoding` (XML 1.0 Appendix F), else UTF-8. Feeds in ISO-8859-1, windows-1252 or
 * GB2312 say so in their declaration and are served without a charset.
 */
export function xmlDecoder(lead: Uint8Array, charset: string | null): TextDecoder {
  if (lead[0] === 0xef && lead[1] === 0xbb && lead[2] === 0xbf) return new TextDecoder("utf-8");
  if (lead[0] === 0xff && lead[1] === 0xfe) return new TextDecoder("utf-16le");
  if (lead[0] === 0xfe && lead[1] === 0xff) return new TextDecoder("utf-16be");
  if (charset) return decoderFor(charset);
  const head = new TextDecoder("windows-1252").decode(lead.subarray(0, 512));
  return decoderFor(
    /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1] ?? null,
  );
}
