/**
 * The one JSON request-body reader of the platform APIs (management and marketplace): one size
 * limit, one media-type policy, then the route's zod schema through hono/validator, so the handler
 * takes its typed input from `c.req.valid("json")`. A bad field is `400 invalid_request` with the
 * field in `param` (server/platform/errors.ts, docs/decisions/platform.md "JSON bodies").
 *
 * The Content-Type must be JSON (`application/json` or `application/*+json`): an HTML form cannot
 * send that, and a cross-origin script must pass a CORS preflight these routes never grant, so no
 * other site can post here (login CSRF included).
 */
import type { Context } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { bodyLimited, JSON_BODY_LIMIT } from "./envelope.ts";
import { AppError, invalid } from "./errors.ts";
import { parseInput } from "./validate.ts";

/** The JSON media types, as hono/validator matches them. */
const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/** What a route allows of its body. */
export interface BodyOptions {
  /**
   * An empty body, sent without a Content-Type or with a JSON one, reads as `{}` (a route whose
   * body is optional; its schema decides whether `{}` will do).
   */
  empty?: boolean;
  /** The route's own size limit, when its schema admits more than JSON_BODY_LIMIT (bulk ids). */
  limit?: number;
}

/**
 * The reader for one API: `tooLarge` words the 413 (each API keeps its pinned sentence). Returns
 * `json(schema, options)`, the middleware a route puts before its handler.
 */
export function jsonBodies(tooLarge: (limit: number) => AppError) {
  const limited = bodyLimited(JSON_BODY_LIMIT, tooLarge);
  return function json<T extends z.ZodType>(schema: T, options: BodyOptions = {}) {
    // The limit's refusal is thrown, so it never answers: only the handler behind it does. The
    // body is parsed once and handed to `c.req.valid("json")` as hono/validator would hand it.
    const cap = options.limit ? bodyLimited(options.limit, tooLarge) : limited;
    const read: Validator<T> = async (c, next) => {
      await cap(c, async () => {
        const input = parseInput(schema, await readBody(c, options.empty));
        c.req.addValidatedData("json", input as object);
        await next();
      });
    };
    return read;
  };
}

/** hono/validator's middleware for a JSON body of `T`: what types `c.req.valid("json")`. */
function typedBy<T extends z.ZodType>(schema: T) {
  return validator("json", (value: unknown) => parseInput(schema, value));
}
type Validator<T extends z.ZodType> = ReturnType<typeof typedBy<T>>;

/** The 413 of the management API. */
export function jsonTooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: must be at most ${limit} bytes of JSON`);
}

/**
 * The media-type policy and the object check, in today's words: the body as a JSON object, or
 * `{}` for an allowed empty one (no Content-Type, or a JSON one).
 */
async function readBody(c: Context, empty = false): Promise<object> {
  const media = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const json = JSON_MEDIA.test(media);
  if (empty && (media === "" || json) && (await c.req.text()).trim() === "") return {};
  if (!json) {
    throw new AppError(415, "unsupported_media_type", "Content-Type: must be application/json");
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
