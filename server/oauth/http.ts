/** HTTP helpers shared by the OAuth routes: body reading, CORS and page security headers. */
import type { Context } from "hono";
import { OAuthError } from "./errors.ts";

/** Largest request body the OAuth endpoints read (docs/TEST-PLAN.md 1.34). */
export const MAX_BODY_BYTES = 64 * 1024;

/** CORS for endpoints browser MCP clients call without cookies (docs/TEST-PLAN.md 5.16). */
export const OPEN_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, MCP-Protocol-Version",
  "Access-Control-Max-Age": "600",
};

/**
 * Pages that must not be framed or read cross-origin (clickjacking the consent button, leaking the
 * code through Referer): no CORS headers at all, and these.
 */
export const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
};

/** The body as text, refusing the wrong media type and bodies over the limit. */
export async function readBody(
  c: Context,
  options: { type: string; error: string },
): Promise<string> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== options.type) {
    await c.req.raw.body?.cancel();
    throw new OAuthError(options.error, `Content-Type: must be ${options.type}`);
  }
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) {
    await c.req.raw.body?.cancel();
    throw new OAuthError(options.error, "body: larger than 64 KiB");
  }
  const reader = c.req.raw.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new OAuthError(options.error, "body: larger than 64 KiB");
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** A form body whose parameters each appear at most once (RFC 6749 §3.2). */
export function parseForm(text: string): URLSearchParams {
  const form = new URLSearchParams(text);
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw new OAuthError("invalid_request", `${key}: must not be repeated`);
    seen.add(key);
  }
  return form;
}
