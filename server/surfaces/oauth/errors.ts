/**
 * OAuth errors carry their RFC code (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2; RFC 8707 §2) and say
 * whether they may travel to the client's redirect URI: errors found before the redirect URI is
 * trusted are shown on our own page and never redirected (RFC 6749 §4.1.2.1).
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An OAuth protocol error with its RFC `error` code. */
export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: ContentfulStatusCode = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
}

/** An authorization error that must be shown on our error page, never redirected. */
export class PageError extends OAuthError {
  override name = "PageError";
}

/** Headers every token and registration response carries (RFC 6749 §5.1). */
export const NO_STORE = { "Cache-Control": "no-store", "Pragma": "no-cache" };

/** The RFC 6749 §5.2 JSON body of an OAuth error, uncacheable. */
export function oauthErrorResponse(c: Context, err: OAuthError): Response {
  return c.json(
    { error: err.error, error_description: err.description },
    err.status,
    { ...NO_STORE, ...err.headers },
  );
}
