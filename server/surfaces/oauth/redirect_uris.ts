/**
 * Redirect URIs: what may be registered (RFC 7591 §2, RFC 8252 §7, OAuth 2.1 §2.3.1) and how a
 * request's URI is matched against the registered ones (exact string match, OAuth 2.1 §4.1.1.3).
 */
import { OAuthError, PageError } from "./errors.ts";

/** At most this many redirect URIs per client. */
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

// Schemes a browser would execute or read locally rather than hand to an app.
const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "filesystem:",
  "view-source:",
  "ftp:",
  "ws:",
  "wss:",
  "mailto:",
  "tel:",
  "sms:",
  "intent:",
  "jar:",
]);

/** Why `uri` may not be registered, or null when it may. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== "string" || uri.length === 0) return "must be a non-empty string";
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(uri)) return "contains whitespace, control characters or \\";
  if (uri.includes("#")) return "must not contain a fragment";
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return "is not an absolute URI";
  }
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `uses a forbidden scheme (${u.protocol})`;
  if (u.username || u.password || /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(uri)) {
    return "must not contain user information";
  }
  if (/(^|\/)\.\.?(\/|$)/.test(u.pathname) || /\/\.\.?(\/|$|\?)/.test(uri)) {
    return "must not contain . or .. path segments";
  }
  if (u.protocol === "https:") return u.hostname ? null : "must name a host";
  if (u.protocol === "http:") {
    // RFC 8252 §7.3: plain http only for native apps listening on the loopback interface.
    return LOOPBACK_HOSTS.has(u.hostname) ? null : "must use https unless the host is loopback";
  }
  // RFC 8252 §7.1: private-use schemes (com.example.app:/cb, cursor://...) for native apps.
  return null;
}

/**
 * The redirect URI to use for an authorization request: the requested one when it equals a
 * registered one byte for byte (or differs only in the port of a loopback URI, RFC 8252 §7.3),
 * or the only registered one when none was requested. Failures are page errors: never redirect.
 */
export function resolveRedirectUri(registered: string[], requested: string | null): string {
  if (requested === null) {
    if (registered.length === 1) return registered[0];
    throw new PageError(
      "invalid_request",
      "redirect_uri: required because the client registered more than one",
    );
  }
  if (registered.includes(requested)) return requested;
  if (registered.some((r) => sameLoopbackExceptPort(r, requested))) return requested;
  throw new PageError("invalid_request", "redirect_uri: does not match a registered redirect URI");
}

/** Throws the RFC 7591 error for a list of redirect URIs that may not be registered. */
export function checkRedirectUris(uris: unknown): string[] {
  if (!Array.isArray(uris) || uris.length === 0) {
    throw new OAuthError("invalid_redirect_uri", "redirect_uris: must be a non-empty array");
  }
  if (uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError(
      "invalid_redirect_uri",
      `redirect_uris: at most ${MAX_REDIRECT_URIS} are allowed`,
    );
  }
  for (const [i, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uris[${i}]: ${problem}`);
  }
  return [...new Set(uris as string[])];
}

function sameLoopbackExceptPort(registered: string, requested: string): boolean {
  if (redirectUriProblem(requested) !== null) return false;
  const a = new URL(registered);
  const b = new URL(requested);
  if (a.protocol !== "http:" || b.protocol !== "http:" || !LOOPBACK_HOSTS.has(a.hostname)) {
    return false;
  }
  // Everything but the port must be identical, compared on the raw strings after the authority.
  const ra = `http://${a.host}/`;
  const rb = `http://${b.host}/`;
  return a.hostname === b.hostname && registered.startsWith(ra) && requested.startsWith(rb) &&
    registered.slice(ra.length) === requested.slice(rb.length);
}
