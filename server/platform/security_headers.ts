/**
 * The security headers of every HTML answer, set once per page sub-app by Hono's secure-headers
 * middleware: one baseline (never framed, no MIME sniffing, no Referer to other origins, an own
 * browsing-context group, HSTS when the platform is served over https) and a Content-Security-
 * Policy per kind of page, each starting from `default-src 'none'` and adding only what that page
 * loads. JSON APIs are not pages and keep their own headers: a browser never renders
 * application/json as a document, nor runs it as a cross-origin script (Fetch's opaque-response
 * blocking), so nosniff would add nothing there.
 */
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../deps.ts";
import type { Config } from "./config.ts";

/** A policy: directive (Hono's camelCase) to its sources, in the order they are sent. */
export type Csp = Readonly<Record<string, readonly string[]>>;

/**
 * Around every policy: nothing loads unless named, styles may be inline (pages carry <style> and
 * style attributes, some computed, like a bar's width), no <base>, no framing (clickjacking).
 */
function csp(extra: Csp): Csp {
  return {
    defaultSrc: ["'none'"],
    ...extra,
    styleSrc: ["'unsafe-inline'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

/** The policy of each kind of page. */
export const CSP = {
  /**
   * Pages that run no script and post no form: home, terms, status, checkout, invoice. Images
   * from the platform only: the icon (/favicon.svg).
   */
  document: csp({ imgSrc: ["'self'"], formAction: ["'none'"] }),
  /** The API reference: its one script, /docs/copy.js (copy buttons), its icon, and no forms. */
  docs: csp({ scriptSrc: ["'self'"], imgSrc: ["'self'"], formAction: ["'none'"] }),
  /** Both portals: their own script (console.js), branding logos (any https URL), own forms. */
  portal: csp({
    scriptSrc: ["'self'"],
    imgSrc: ["'self'", "https:", "data:"],
    formAction: ["'self'"],
  }),
  /**
   * The OAuth consent page: the publisher's logo. No form-action: the approve POST answers with a
   * redirect to the client's redirect URI, and Chromium checks form-action on that redirect too.
   */
  consent: csp({ imgSrc: ["https:", "http:", "data:"] }),
  /**
   * A publisher's site: its logo (http or https, ui/site/brand.ts safeUrl) and nothing else. The
   * JSON-LD <script type="application/ld+json"> is a data block, which script-src does not govern.
   */
  site: csp({ imgSrc: ["'self'", "https:", "http:"], formAction: ["'none'"] }),
} as const satisfies Record<string, Csp>;

/** `policy` as header text (as the middleware writes it), for a route that sets its own. */
export function cspText(policy: Csp): string {
  return Object.entries(policy)
    .map(([k, v]) => [k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`), ...v].join(" "))
    .join("; ");
}

/** `policy` with `sources` added to one directive. */
export function widened(policy: Csp, directive: string, sources: string[]): Csp {
  return { ...policy, [directive]: [...(policy[directive] ?? []), ...sources] };
}

/** Two years, as the HSTS preload list asks (hstspreload.org); only over https (RFC 6797 §7.2). */
const HSTS_MAX_AGE = 63_072_000;

/** Where a page is served, and how it may be opened. */
export interface PageOptions {
  /**
   * `platform` (default): Folio's own host, whose subdomains the operator owns, so HSTS covers
   * them. `publisher`: a publisher's custom domain, whose other subdomains are not ours to pin.
   */
  host?: "platform" | "publisher";
  /**
   * Keep the opener (Cross-Origin-Opener-Policy: unsafe-none), for a page a client may open in a
   * popup and expects to hear back from (the OAuth authorization endpoint).
   */
  keepOpener?: boolean;
}

/**
 * The middleware of a page sub-app: the baseline headers and `policy`. A handler that set its own
 * Content-Security-Policy (one page that posts to a payment processor) keeps it: the middleware
 * adds headers the answer does not have yet (overwrite: false), and routes set no other of them.
 */
export function pageHeaders(
  config: Pick<Config, "baseUrl">,
  policy: Csp,
  options: PageOptions = {},
): MiddlewareHandler<AppEnv> {
  const https = config.baseUrl.startsWith("https:");
  const subdomains = (options.host ?? "platform") === "platform" ? "; includeSubDomains" : "";
  return secureHeaders({
    contentSecurityPolicy: policy as Record<string, string[]>,
    xFrameOptions: "DENY",
    // No Referer leaves for another origin (an authorize URL's state, a console URL's ids), yet a
    // same-origin form POST keeps its Origin: under no-referrer Chromium sends "Origin: null".
    referrerPolicy: "same-origin",
    crossOriginOpenerPolicy: options.keepOpener ? "unsafe-none" : "same-origin",
    strictTransportSecurity: https ? `max-age=${HSTS_MAX_AGE}${subdomains}` : false,
    overwrite: false,
  });
}
