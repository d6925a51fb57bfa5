/** Input rules of the publisher REST API (docs/SPEC.md "Publisher REST API" and "Limits"). */
import { hasControlChars } from "../validate.ts";

/** A REST input error: HTTP status, SPEC status field, and a message naming the parameter. */
export class RestError extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 402 | 403 | 404 | 409 | 451,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
}

/** `query` (alias `q`): 1 to 200 characters, no control characters. */
export function parseQuery(params: URLSearchParams): string {
  const raw = params.get("query") ?? params.get("q");
  if (raw === null) throw bad("query: is required (alias q), 1 to 200 characters");
  const q = raw.trim();
  if (q.length < 1) throw bad("query: must not be empty");
  if ([...q].length > 200) throw bad("query: must be at most 200 characters");
  if (hasControlChars(q)) throw bad("query: must not contain control characters");
  return q;
}

/** `limit`: an integer from 1 to 50, default 10. */
export function parseLimit(params: URLSearchParams): number {
  const raw = params.get("limit");
  if (raw === null || raw === "") return 10;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 50) {
    throw bad(`limit: must be a whole number from 1 to 50, got "${raw.slice(0, 20)}"`);
  }
  return Number(raw);
}

/** `last_user_prompt`: required, 1 to 8000 characters, recorded verbatim. */
export function parsePrompt(params: URLSearchParams): string {
  const raw = params.get("last_user_prompt");
  if (raw === null || raw.length === 0) {
    throw new RestError(
      400,
      "missing_last_user_prompt",
      "last_user_prompt is required: pass the verbatim text of the end user's latest prompt (1 to 8000 characters)",
    );
  }
  if ([...raw].length > 8000) throw bad("last_user_prompt: must be at most 8000 characters");
  if (raw.includes("\u0000")) throw bad("last_user_prompt: must not contain NUL characters");
  return raw;
}

/** An article id or URL from the path: an id, or an absolute http(s) URL. */
export function parseIdOrUrl(raw: string): string {
  const v = raw.trim();
  if (v.length < 1 || v.length > 2048 || hasControlChars(v)) {
    throw new RestError(404, "article_not_found", "No article has that id or URL");
  }
  return v;
}

function bad(message: string): RestError {
  return new RestError(400, "invalid_request", message);
}
