/**
 * The publisher REST API's inputs (docs/SPEC.md "Publisher REST API"): the shared read inputs
 * (server/domain/reads/inputs.ts) taken from the query string and path, refused in REST's own form.
 */
import type { z } from "zod";
import * as inputs from "../../domain/reads/inputs.ts";

/** A REST refusal: HTTP status, docs/SPEC.md status field, and a message naming the parameter. */
export class RestError extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 402 | 403 | 404 | 409 | 451,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
}

/** `query` (alias `q`). */
export function parseQuery(params: URLSearchParams): string {
  return field(inputs.query, "query", params.get("query") ?? params.get("q") ?? undefined);
}

/** `limit`, from its query-string digits. */
export function parseLimit(params: URLSearchParams): number {
  return field(inputs.limit, "limit", inputs.wholeNumber(params.get("limit") ?? undefined));
}

/** `last_user_prompt`: required on REST, with its own status when absent (docs/SPEC.md "Errors"). */
export function parsePrompt(params: URLSearchParams): string {
  const raw = params.get("last_user_prompt");
  if (raw === null || raw === "") {
    throw new RestError(400, "missing_last_user_prompt", inputs.PROMPT_REQUIRED);
  }
  return field(inputs.lastUserPrompt, "last_user_prompt", raw);
}

/** An article id or URL from the path; one that cannot name an article is simply not found. */
export function parseIdOrUrl(raw: string): string {
  const parsed = inputs.urlOrId.safeParse(raw);
  if (!parsed.success) throw articleNotFound();
  return parsed.data;
}

/** 404 article_not_found. */
export function articleNotFound(): RestError {
  return new RestError(404, "article_not_found", "No article has that id or URL");
}

function field<S extends z.ZodType>(schema: S, name: string, value: unknown): z.output<S> {
  const r = inputs.parseField(schema, name, value);
  if (!r.ok) throw new RestError(400, "invalid_request", r.message);
  return r.value;
}
