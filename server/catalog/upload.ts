/** Reading uploads with their size limit enforced while the body streams in (docs/DESIGN.md section 10). */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { bodyLimited } from "../envelope.ts";
import { AppError, invalid } from "../errors.ts";

/** One uploaded file and the form fields that came with it. */
export interface Upload {
  bytes: Uint8Array;
  name: string | null;
  contentType: string;
  fields: Record<string, string>;
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
 * envelope. Enforced while the body streams in (server/envelope.ts), before anything parses it.
 */
export function uploadLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimited(maxBytes + MULTIPART_SLACK, () => tooLarge(maxBytes));
}

/**
 * The uploaded file of a request (size-limited by `uploadLimit`): a multipart/form-data body with
 * a `file` field (plus its other fields), or the raw body for any other content type. `maxBytes`
 * bounds the file itself.
 */
export async function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  const contentType = req.headers.get("content-type") ?? "";
  const raw = new Uint8Array(await req.arrayBuffer());
  if (!/^multipart\/form-data/i.test(contentType)) {
    if (raw.length > maxBytes) throw tooLarge(maxBytes);
    return { bytes: raw, name: null, contentType: contentType.split(";")[0].trim(), fields: {} };
  }
  let form: FormData;
  try {
    form = await new Request("http://upload.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: raw as Uint8Array<ArrayBuffer>,
    }).formData();
  } catch {
    throw invalid("body", "the multipart/form-data body could not be parsed");
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw invalid("file", "a file field named 'file' is required");
  if (file.size > maxBytes) throw tooLarge(maxBytes);
  const fields: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string") fields[k] = v;
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    name: sanitizeName(file.name),
    contentType: file.type,
    fields,
  };
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
