/**
 * The inputs every read surface takes, one zod schema each (docs/SPEC.md "Limits" and "Publisher
 * REST API"): REST parses its query string with them, MCP advertises and parses them as tool
 * arguments, A2A parses skill calls with them. Each surface words a refusal from the same first
 * issue (`firstProblem`), so a limit and its message live here and nowhere else.
 */
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { firstProblem, hasControlChars } from "../../platform/validate.ts";

/** The parsed value, or the field's first problem as `"<name>: <what is wrong>"`. */
export function parseField<S extends z.ZodType>(
  schema: S,
  name: string,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  const r = schema.safeParse(value);
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, message: `${name}: ${firstProblem(r.error).message}` };
}

/** docs/SPEC.md "Limits" for the read inputs; descriptions (cards, tool schemas) quote these. */
export const READ_LIMITS = {
  queryMax: 200,
  limit: { min: 1, max: 50, default: 10 },
  refMax: 2048,
  promptMax: 8000,
} as const;

const { queryMax: QUERY_MAX, limit: LIMIT, refMax: REF_MAX, promptMax: PROMPT_MAX } = READ_LIMITS;

/** Length in code points, as docs/SPEC.md counts characters (and JSON Schema's maxLength). */
function length(s: string): number {
  return [...s].length;
}

/** Trimmed text of 1 to `max` characters without control characters (also for tool inputs). */
export function text(max: number, required = "is required") {
  return z.string({ error: (issue) => issue.input === undefined ? required : "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .refine((s) => length(s) <= max, `must be at most ${max} characters`)
    .refine((s) => !hasControlChars(s), "must not contain control characters")
    // The refinement above enforces it; this makes JSON Schema advertise it.
    .meta({ maxLength: max });
}

/** `query` (REST alias `q`): what to look for. */
export const query = text(QUERY_MAX, `is required, 1 to ${QUERY_MAX} characters`)
  .describe(`What to look for (1 to ${QUERY_MAX} characters)`);

/** `limit`: how many results, a whole number within the bounds, with a default. */
export const limit = z.number({ error: limitProblem }).int({ error: limitProblem })
  .min(LIMIT.min, { error: limitProblem }).max(LIMIT.max, { error: limitProblem })
  .default(LIMIT.default)
  .describe(`How many results (${LIMIT.min} to ${LIMIT.max}, default ${LIMIT.default})`);

/** `url_or_id`: an article's id or URL. */
export const urlOrId = text(REF_MAX, "is required (an article id or URL)")
  .describe("The article's id or URL");

/** `last_user_prompt`: the end user's latest prompt, kept verbatim (not trimmed). */
export const lastUserPrompt = z.string({ error: "must be a string" })
  .min(1, "must not be empty")
  .refine((s) => length(s) <= PROMPT_MAX, `must be at most ${PROMPT_MAX} characters`)
  .refine((s) => !s.includes("\u0000"), "must not contain NUL characters")
  .meta({ maxLength: PROMPT_MAX })
  .describe(`Verbatim text of the end user's latest prompt (1 to ${PROMPT_MAX} characters)`);

/** The text a surface answers when a required `last_user_prompt` is absent. */
export const PROMPT_REQUIRED =
  `last_user_prompt is required: pass the verbatim text of the end user's latest prompt (1 to ${PROMPT_MAX} characters)`;

/** A string of digits becomes a number; anything else stays as it came (REST query strings). */
export function wholeNumber(raw: string | undefined): unknown {
  if (raw === undefined || raw === "") return undefined;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
}

function limitProblem(issue: { input?: unknown }): string {
  const bounds = `must be a whole number from ${LIMIT.min} to ${LIMIT.max}`;
  return issue.input === undefined
    ? bounds
    : `${bounds}, got "${String(issue.input).slice(0, 20)}"`;
}

/**
 * An idempotency key, as every surface takes it (docs/decisions/billing.md "One billable read"):
 * 1 to 255 visible ASCII characters, the same on a retry, new for each read.
 */
export const idempotencyKey = z.string({ error: "must be a string" })
  .regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 visible ASCII characters (no spaces)")
  .describe("The same key on a retry, a new one per read: a retried read is billed once");

/** The key a surface was given (null: none), or a 400 naming `param` when it is malformed. */
export function idempotencyKeyOf(raw: unknown, param = "Idempotency-Key"): string | null {
  if (raw === undefined || raw === null) return null;
  const r = idempotencyKey.safeParse(raw);
  if (r.success) return r.data;
  throw new AppError(
    400,
    "invalid_idempotency_key",
    `${param}: ${firstProblem(r.error).message}`,
    {},
    param,
  );
}
