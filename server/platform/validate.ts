/** Small validators shared by every surface's input schemas, and how a failed parse is named. */
import { domainToASCII } from "node:url";
import type { z } from "zod";
import { invalid } from "./errors.ts";
import { noun } from "./words.ts";

/** A plausible email address (one @, a dot in the domain, no spaces), at most 254 characters. */
export function isEmail(s: string): boolean {
  return s.length <= 254 &&
    /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/.test(s);
}

/** A URL-safe slug: lower-case letters, digits and inner hyphens, 2 to 40 characters. */
export function isSlug(s: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])$/.test(s);
}

/**
 * A host name fit for a custom domain: labels of letters, digits and hyphens, each `xn--` label
 * valid punycode (the URL parser refuses `xn--zz`, so no request could ever name it).
 */
export function isHostname(s: string): boolean {
  return s.length <= 253 && domainToASCII(s) !== "" &&
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i
      .test(s);
}

/**
 * A host name as DNS carries it: lower case, IDNA (UTS #46) applied by the URL machinery, so
 * `bücher.example` is `xn--bcher-kva.example`; null for what is not a host name, an invalid
 * punycode label (`xn--zz.example`) included.
 */
export function asciiHostname(s: string): string | null {
  const t = s.trim().toLowerCase().replace(/\.$/, "");
  if (!t || /[\s/\\@:?#%\[\]]/.test(t)) return null;
  const ascii = domainToASCII(t);
  return ascii && isHostname(ascii) ? ascii : null;
}

/** True when the text has control characters other than tab, newline and carriage return. */
export function hasControlChars(s: string): boolean {
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);
}

/** The first problem of a failed parse: the field (dotted path) and what is wrong with it. */
export interface Problem {
  field: string;
  message: string;
}

/** The first issue of a zod error, named by its field (`root` names the whole input). */
export function firstProblem(error: z.ZodError, root = "body"): Problem {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys") {
    return {
      field: fieldName([...issue.path, issue.keys[0]], root),
      message: "is not a known field",
    };
  }
  return { field: fieldName(issue.path, root), message: issue.message };
}

/** `["branding", "logoUrl"]` → `branding.logoUrl`; `["territories", 0]` → `territories[0]`. */
function fieldName(path: readonly PropertyKey[], root = "body"): string {
  if (path.length === 0) return root;
  return path.map((p, i) =>
    typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`
  ).join("");
}

/**
 * Parses `data` with `schema`, or throws a 400 `invalid_request` naming the first field that failed
 * and why (the management and marketplace APIs' one error shape for bad input).
 */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const result = schema.safeParse(data, { error: describeIssue });
  if (result.success) return result.data;
  const { field, message } = firstProblem(result.error);
  throw invalid(field, message);
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
  const n = Number(limit);
  const unit = origin === "string"
    ? ` ${noun(n, "character")}`
    : origin === "array" || origin === "set"
    ? ` ${noun(n, "item")}`
    : "";
  const have = origin === "array" || origin === "string" ? "have" : "be";
  return inclusive === false
    ? `must ${have} ${strict} ${limit}${unit}`
    : `must ${have} at ${word} ${limit}${unit}`;
}
