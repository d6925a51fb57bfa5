/**
 * Reading small JSON request bodies on the marketplace API; routes then parse them with their
 * schema (server/surfaces/marketplace/schemas.ts).
 */
import type { Context } from "hono";
import { bodyLimited, JSON_BODY_LIMIT } from "../../platform/envelope.ts";
import { AppError, invalid } from "../../platform/errors.ts";

/** The size limit of a marketplace JSON body, on the routes that read one. */
export const jsonLimit = bodyLimited(
  JSON_BODY_LIMIT,
  (limit) => new AppError(413, "payload_too_large", `The body is over ${limit} bytes`),
);

/** The request's JSON object body (already size-limited by `jsonLimit`); `{}` when empty. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("body", "is not valid JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw invalid("body", "must be a JSON object");
  }
  return value as Record<string, unknown>;
}
