/**
 * JSON bodies on the management API: the media type, the size limit and the object check. Routes
 * then parse with their zod schema (`parseInput`, server/platform/validate.ts), whose one error shape is
 * `400 {error: {code: "invalid_request", message: "<field>: <why>"}}` naming the first bad field.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../deps.ts";
import { bodyLimited, JSON_BODY_LIMIT } from "../../platform/envelope.ts";
import { AppError, invalid } from "../../platform/errors.ts";

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

function tooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: must be at most ${limit} bytes of JSON`);
}
