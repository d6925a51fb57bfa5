/**
 * Edge validation for the management API: one zod schema per input, and one error shape,
 * `400 {error: {code: "invalid_request", message: "<field>: <why>"}}` naming the first bad field.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../deps.ts";
import { bodyLimited, JSON_BODY_LIMIT } from "../envelope.ts";
import { AppError, invalid } from "../errors.ts";
import { firstProblem } from "../validate.ts";

/** Parses `data` with `schema`, or throws a 400 naming the first field that failed and why. */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const result = schema.safeParse(data, { error: describeIssue });
  if (result.success) return result.data;
  const { field, message } = firstProblem(result.error);
  throw invalid(field, message);
}

/**
 * The size limit of the management API's JSON bodies, for routes whose body is JSON (uploads set
 * their own limits on their routes).
 */
export const jsonLimit: MiddlewareHandler<AppEnv> = (() => {
  const limited = bodyLimited(JSON_BODY_LIMIT, tooLarge);
  return (c, next) => mediaType(c) === "application/json" ? limited(c, next) : next();
})();

/**
 * Reads a JSON request body (size-limited by `jsonLimit`), refusing anything that is not an
 * object. The Content-Type must be JSON: an HTML form cannot send that, and a cross-origin script
 * must pass a CORS preflight that these routes never grant, so no other site can post here
 * (login CSRF included).
 */
export async function readJson(c: Context): Promise<unknown> {
  if (mediaType(c) !== "application/json") {
    throw new AppError(
      415,
      "unsupported_media_type",
      "Content-Type: must be application/json",
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(await c.req.text());
  } catch {
    throw invalid("body", "is not valid JSON");
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw invalid("body", "must be a JSON object");
  }
  return data;
}

/** Like `readJson`, but an empty body without a Content-Type reads as `{}` (all optional). */
export async function readOptionalJson(c: Context): Promise<unknown> {
  if (mediaType(c) === "" && (await c.req.text()) === "") return {};
  return await readJson(c);
}

function mediaType(c: Context): string {
  return (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

const ARTICLE: Record<string, string> = {
  boolean: "a boolean",
  number: "a number",
  int: "an integer",
  string: "a string",
  object: "an object",
  array: "an array",
};

/** zod's per-parse error map: a short reason for issues whose schema gave no message. */
function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `expected ${ARTICLE[issue.expected] ?? issue.expected}`;
    case "too_small":
      return bound(issue.origin, issue.minimum, issue.inclusive, "least", "more than");
    case "too_big":
      return bound(issue.origin, issue.maximum, issue.inclusive, "most", "less than");
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return issue.format === "datetime"
        ? "must be an ISO 8601 instant with a time zone, e.g. 2026-01-01T00:00:00Z"
        : `is not a valid ${issue.format}`;
    case "invalid_union":
      return "has the wrong shape";
    default:
      return undefined;
  }
}

function bound(
  origin: string,
  limit: number | bigint,
  inclusive: boolean | undefined,
  word: string,
  strict: string,
): string {
  const plural = Number(limit) === 1 ? "" : "s";
  const unit = origin === "string"
    ? ` character${plural}`
    : origin === "array" || origin === "set"
    ? ` item${plural}`
    : "";
  const have = origin === "array" || origin === "string" ? "have" : "be";
  return inclusive === false
    ? `must ${have} ${strict} ${limit}${unit}`
    : `must ${have} at ${word} ${limit}${unit}`;
}

function tooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: must be at most ${limit} bytes of JSON`);
}
