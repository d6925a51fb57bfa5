/**
 * One error model (docs/DESIGN.md section 6): platform endpoints answer
 * `{ "error": { "code": "snake_case_code", "message": "Sentence case", "param"?: "field" } }`,
 * `param` naming the input field at fault (Stripe's shape) when there is one.
 * Surfaces with their own wire format (publisher REST, OAuth, JSON-RPC) translate at their edge.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** A domain or validation error that is safe to show to the caller. */
export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The input field at fault (`email`, `branding.logoUrl`), if the error is about one. */
    readonly param?: string,
  ) {
    super(message);
  }
}

/** The JSON body of a platform error. */
export function errorBody(
  code: string,
  message: string,
  param?: string,
): { error: { code: string; message: string; param?: string } } {
  return { error: param === undefined ? { code, message } : { code, message, param } };
}

/**
 * 400 for an input that fails validation; `field` names what was wrong, and is the error's
 * `param` unless it is the whole body.
 */
export function invalid(field: string, problem: string): AppError {
  const param = field === "body" ? undefined : field;
  return new AppError(400, "invalid_request", `${field}: ${problem}`, {}, param);
}

/** 404 for something that does not exist (or that the caller may not know exists). */
export function notFound(what: string): AppError {
  return new AppError(404, "not_found", `${what} was not found`);
}
