/** Reading uploads with their size limit enforced while the body streams in (docs/DESIGN.md section 10). */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../deps.ts";
import { bodyLimited } from "../../platform/envelope.ts";
import { releaseChunk, releaseStreamChunk } from "../../platform/buffers.ts";
import { AppError, invalid } from "../../platform/errors.ts";
import { boundaryOf, MultipartError, parseMultipart, type Part, partText } from "./multipart.ts";

/** One uploaded file and the form fields that came with it. */
export interface Upload {
  bytes: Uint8Array;
  name: string | null;
  contentType: string;
  fields: Record<string, string>;
  /**
   * Frees the body (`bytes` and every field's view of it) once its reader is done: a 10 MB book
   * otherwise stayed outside the heap until a collection, through its indexing (issue 39).
   */
  release?: () => void;
}

/** The media type of a request, lower case, without parameters. */
export function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** Refuses a body of the wrong type (415), releasing the body first. */
export async function refuseType(req: Request, expected: string): Promise<never> {
  await req.body?.cancel().catch(() => {});
  throw new AppError(415, "unsupported_media_type", `Content-Type must be ${expected}`);
}

/** Multipart boundaries, headers and form fields around a file stay well under this. */
const MULTIPART_SLACK = 64 * 1024;

/**
 * The size limit of an upload route: the file may be `maxBytes`, plus room for the multipart
 * envelope. Enforced while the body streams in (server/platform/envelope.ts), before anything parses it.
 */
export function uploadLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimited(maxBytes + MULTIPART_SLACK, () => tooLarge(maxBytes));
}

/**
 * The uploaded file of a request (size-limited by `uploadLimit`): a multipart/form-data body with
 * a `file` field (plus its other fields), or the raw body for any other content type. `maxBytes`
 * bounds the file itself. The body is read once into one buffer and the file is a view into it.
 */
export async function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  const contentType = req.headers.get("content-type") ?? "";
  const multipart = /^multipart\/form-data/i.test(contentType);
  const raw = await readBody(req, multipart ? maxBytes + MULTIPART_SLACK : maxBytes, maxBytes);
  if (!multipart) {
    if (raw.length > maxBytes) throw tooLarge(maxBytes);
    return {
      bytes: raw,
      name: null,
      contentType: contentType.split(";")[0].trim(),
      fields: {},
      release: () => releaseChunk(raw),
    };
  }
  const boundary = boundaryOf(contentType);
  let parts: Part[];
  try {
    if (!boundary) throw new MultipartError("no boundary");
    parts = parseMultipart(raw, boundary);
  } catch (e) {
    if (!(e instanceof MultipartError)) throw e;
    throw invalid("body", "the multipart/form-data body could not be parsed");
  }
  const file = parts.find((p) => p.name === "file" && p.filename !== null);
  if (!file || parts.find((p) => p.name === "file") !== file) {
    throw invalid("file", "a file field named 'file' is required");
  }
  if (file.bytes.length > maxBytes) throw tooLarge(maxBytes);
  const fields: Record<string, string> = {};
  for (const p of parts) if (p.filename === null) fields[p.name] = partText(p);
  return {
    bytes: file.bytes,
    name: sanitizeName(file.filename),
    contentType: file.contentType,
    fields,
    release: () => releaseChunk(raw),
  };
}

/**
 * The whole body in one buffer: sized by Content-Length when the request has one (the server
 * holds a body to its declared length), else the chunks joined once at the end. Past `limit`
 * bytes it stops reading and refuses with the file's limit `maxBytes`, as `uploadLimit` does.
 */
async function readBody(req: Request, limit: number, maxBytes: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array(0);
  const declared = Number(req.headers.get("content-length") ?? NaN);
  const sized = Number.isSafeInteger(declared) && declared >= 0;
  if (sized && declared > limit) {
    await req.body.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  const buffer = sized ? new Uint8Array(declared) : null;
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > (buffer ? buffer.length : limit)) {
        await reader.cancel().catch(() => {});
        if (buffer && size + value.length <= limit) {
          throw invalid("body", "the body is longer than its Content-Length");
        }
        throw tooLarge(maxBytes);
      }
      size += value.length;
      if (!buffer) {
        chunks.push(value);
        continue;
      }
      buffer.set(value, size - value.length);
      releaseStreamChunk(value); // copied: freed now, not at a collection 64 MB later
    }
  } finally {
    reader.releaseLock();
  }
  if (buffer) return buffer.subarray(0, size);
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, (at += c.length) - c.length);
    releaseStreamChunk(c);
  }
  return out;
}

/** An uploaded file name reduced to something safe to show (docs/TEST-PLAN.md section 4, case 26). */
export function sanitizeName(name: string | null | undefined): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? "";
  // Control characters and bidirectional overrides could disguise the name where it is shown.
  // deno-lint-ignore no-control-regex
  const clean = base.replace(/[\x00-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .trim().slice(0, 200);
  return clean && clean !== "." && clean !== ".." ? clean : null;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    413,
    "payload_too_large",
    `The upload exceeds the limit of ${formatBytes(maxBytes)}`,
  );
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
