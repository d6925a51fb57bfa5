/**
 * Sources: a publisher's CSV of URLs (docs/SPEC.md "What the service does" 6: a url column, an optional
 * title column, at most 20 MB). Accepted URLs are queued in source_urls, owned by a drain job the
 * upload queues in the same transaction (each upload is its own job: see run_job.ts for turns).
 */
import { CsvError, parse } from "csv-parse/sync";
import { findSourceByHash, insertSource } from "../../../store/sources.ts";
import { getJob, type Job, jobsOfSource } from "../../../store/jobs.ts";
import { newId } from "../../../store/ids.ts";
import type { AppDeps } from "../../deps.ts";
import { AppError, invalid } from "../../platform/errors.ts";
import { wakeWorker } from "./jobs.ts";

/** docs/SPEC.md "Limits": source CSV size. */
export const MAX_CSV_BYTES = 20 * 1024 * 1024;
/** Rows beyond this are refused as a whole file (docs/TEST-PLAN.md section 4, case 20). */
export const MAX_CSV_ROWS = 200_000;
/** Bound on one record, so an unterminated quote cannot swallow the file into one field. */
const MAX_RECORD_BYTES = 64 * 1024;
const MAX_URL_LENGTH = 2048;

/** A line of the CSV that was not queued, and why. */
export interface RejectedRow {
  line: number;
  url: string;
  reason: string;
}

/** What an upload did. */
export interface SourceImport {
  sourceId: string;
  accepted: number;
  rejected: RejectedRow[];
  /** URLs new to this publisher (already listed ones keep their state). */
  queued: number;
  /** True when the same file was uploaded before: nothing new was queued. */
  duplicate: boolean;
  /**
   * The drain job processing the upload's new URLs (for a duplicate, the upload's latest job);
   * null when the upload queued nothing new.
   */
  job: Job | null;
}

/** A parsed CSV: the rows to queue and the lines refused. */
export interface ParsedCsv {
  rows: { line: number; url: string; title: string | null }[];
  rejected: RejectedRow[];
}

/** Parses a CSV of URLs; throws a 400 naming the line for a file that is not CSV. */
export function parseSourceCsv(bytes: Uint8Array): ParsedCsv {
  const text = decode(bytes);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_BYTES,
      to: MAX_CSV_ROWS + 1,
    }) as unknown as typeof records;
  } catch (e) {
    if (e instanceof CsvError) {
      const line = openQuoteLine(text) ?? (e as CsvError & { lines?: number }).lines;
      const what = e.code === "CSV_QUOTE_NOT_CLOSED"
        ? "a quoted field is never closed"
        : e.code === "CSV_MAX_RECORD_SIZE"
        ? `a record is longer than ${MAX_RECORD_BYTES} bytes (an unterminated quote?)`
        : "it is not valid CSV";
      throw invalid("file", `line ${line ?? "?"}: ${what} (${e.code})`);
    }
    throw e;
  }
  if (records.length > MAX_CSV_ROWS) {
    throw invalid("file", `more than ${MAX_CSV_ROWS} rows; split the list into several files`);
  }
  if (records.length === 0) throw invalid("file", "the CSV has no rows");
  const first = records[0].record.map((c) => c.trim());
  const isHeader = !first.some(isHttpUrl) && first.some((c) => c.toLowerCase() === "url");
  let urlCol: number;
  let titleCol = -1;
  if (isHeader) {
    urlCol = first.findIndex((c) => c.toLowerCase() === "url");
    titleCol = first.findIndex((c) => c.toLowerCase() === "title");
  } else {
    urlCol = first.findIndex(isHttpUrl);
    if (urlCol < 0) urlCol = 0;
    if (!first.some(isHttpUrl) && first.length > 1) {
      throw invalid(
        "file",
        "line 1: no url column; start with a header row naming a 'url' column, or list one URL per line",
      );
    }
  }
  const rows: ParsedCsv["rows"] = [];
  const rejected: RejectedRow[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records.slice(isHeader ? 1 : 0)) {
    const line = info.lines;
    const cell = (record[urlCol] ?? "").trim();
    const title = titleCol >= 0 ? cleanTitle(record[titleCol] ?? "") : null;
    const problem = urlProblem(cell);
    if (typeof problem === "string") {
      rejected.push({ line, url: cell.slice(0, 300), reason: problem });
      continue;
    }
    const earlier = seen.get(problem.href);
    if (earlier !== undefined) {
      rejected.push({ line, url: cell.slice(0, 300), reason: `duplicate of line ${earlier}` });
      continue;
    }
    seen.set(problem.href, line);
    rows.push({ line, url: problem.href, title });
  }
  return { rows, rejected };
}

/** Parses and records an uploaded CSV, queueing its new URLs; idempotent per file content. */
export async function importSourceCsv(
  deps: AppDeps,
  publisherId: string,
  upload: { bytes: Uint8Array; name: string | null },
): Promise<SourceImport> {
  const parsed = parseSourceCsv(upload.bytes);
  const contentHash = await sha256(upload.bytes);
  const existing = await findSourceByHash(deps.store.db, publisherId, contentHash);
  if (existing) {
    const [latest] = await jobsOfSource(deps.store.db, publisherId, existing.id);
    return {
      sourceId: existing.id,
      accepted: existing.accepted,
      rejected: parsed.rejected,
      queued: 0,
      duplicate: true,
      job: latest ?? null,
    };
  }
  const sourceId = newId("src");
  const jobId = newId("job");
  const queued = await insertSource(deps.store.db, publisherId, {
    id: sourceId,
    originalName: upload.name,
    contentHash,
    rows: parsed.rows.map(({ url, title }) => ({ url, title })),
    rejected: parsed.rejected.length,
    jobId,
  }, { now: deps.clock.now() });
  if (queued > 0) wakeWorker(deps);
  return {
    sourceId,
    accepted: parsed.rows.length,
    rejected: parsed.rejected,
    queued,
    duplicate: false,
    job: queued > 0 ? await getJob(deps.store.db, publisherId, jobId) : null,
  };
}

function decode(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new AppError(
      415,
      "unsupported_encoding",
      "file: UTF-16 is not supported; save as UTF-8",
      {},
      "file",
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(415, "unsupported_encoding", "file: the CSV is not valid UTF-8", {}, "file");
  }
}

/** The line of a quote that opens a field and is never closed (RFC 4180 quoting), if any. */
function openQuoteLine(text: string): number | null {
  let line = 1;
  let inQuote = false;
  let openedAt = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) {
      if (inQuote && text.charCodeAt(i + 1) === 34) i++;
      else if ((inQuote = !inQuote)) openedAt = line;
    } else if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) line++;
  }
  return inQuote ? openedAt : null;
}

function isHttpUrl(cell: string): boolean {
  return /^https?:\/\//i.test(cell.trim());
}

/** A URL as uploads store it (fragment dropped, normalised by URL), or null if it is not one. */
export function normalizeUrl(cell: string): string | null {
  const url = urlProblem(cell.trim());
  return typeof url === "string" ? null : url.href;
}

/** The normalised URL, or why the cell is not one we can queue. */
function urlProblem(cell: string): URL | string {
  if (!cell) return "empty url cell";
  if (cell.includes("\0")) return "contains a NUL byte";
  if (cell.length > MAX_URL_LENGTH) return `longer than ${MAX_URL_LENGTH} characters`;
  // Formula-looking cells (=HYPERLINK(...), @SUM...) are data: they fail here like any non-URL.
  if (!isHttpUrl(cell)) return "not an http(s) URL";
  let url: URL;
  try {
    url = new URL(cell);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "not an http(s) URL";
  if (url.username || url.password) return "credentials in the URL are not allowed";
  if (!url.hostname) return "no host name";
  url.hash = "";
  return url;
}

function cleanTitle(raw: string): string | null {
  // deno-lint-ignore no-control-regex
  const t = raw.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "").trim().slice(0, 500);
  return t || null;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
