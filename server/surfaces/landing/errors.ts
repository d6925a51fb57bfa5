/**
 * The landing path's words for every refusal: the pay-per-crawl dialect's `crawler-error` (with
 * `crawler-price` when a price is known) and a short text body that says what to do. Anything else
 * goes to the platform's one error handler. NLWeb's `/ask` answers every failure, the envelope's
 * and a 500 included, in NLWeb's own Failure form (./nlweb_wire.ts).
 */
import type { Context, ErrorHandler } from "hono";
import { licenseLink } from "./rsl.ts";
import type { AppDeps } from "../../deps.ts";
import { type PublishedEnv, Refused } from "../../platform/envelope.ts";
import { onError } from "../../platform/middleware.ts";
import { formatCrawlerPrice } from "./crawler_price.ts";
import { CrawlerError } from "./pay_per_crawl.ts";
import { failureBody } from "./nlweb_wire.ts";
import { SITE } from "../../platform/host_router.ts";
import { licenseChallenge, LicenseTokenError } from "../../domain/rsl/license_tokens.ts";

/** The site app's error handler. */
export function landingError(deps: AppDeps): ErrorHandler<PublishedEnv> {
  const fallback = onError<PublishedEnv>(deps);
  return async (err, c) => {
    if (c.req.path === "/ask" || c.req.path === `${SITE}/ask`) {
      const res = err instanceof Refused ? refused(c, err) : await fallback(err, c);
      return askFailure(res);
    }
    if (err instanceof CrawlerError) {
      c.header("crawler-error", err.code);
      // Every refusal points at the RSL license: it says what the pages cost and on what terms.
      c.header(
        "Link",
        licenseLink(`${new URL(c.req.url).origin}${c.get("siteBase") ?? ""}/license.xml`),
      );
      if (err.priceMicros !== null) c.header("crawler-price", formatCrawlerPrice(err.priceMicros));
      c.header("Cache-Control", "no-store");
      return c.text(`${err.code}: ${err.message}\n`, err.status);
    }
    if (err instanceof Refused) return refused(c, err);
    if (err instanceof LicenseTokenError) return licenseRefused(c, err);
    return fallback(err, c);
  };
}

/** A license token refused in the Crawler Authorization Protocol's form, with the license's Link. */
function licenseRefused(c: Context<PublishedEnv>, err: LicenseTokenError): Response {
  c.header("WWW-Authenticate", licenseChallenge(err.error, err.message));
  c.header(
    "Link",
    licenseLink(`${new URL(c.req.url).origin}${c.get("siteBase") ?? ""}/license.xml`),
  );
  c.header("Cache-Control", "no-store");
  return c.text(`${err.error}: ${err.message}\n`, err.status);
}

function refused(c: Context<PublishedEnv>, err: Refused): Response {
  const r = err.refusal;
  switch (r.kind) {
    case "bad_license":
      return licenseRefused(c, r.license);
    case "unknown_publisher":
      return c.text(`No publisher is served at ${r.host}\n`, 404);
    case "key_in_url":
      return c.text("Send the key in the Authorization header, never in the URL.\n", 400);
    case "body_too_large":
      return c.text(`The body is over ${r.limit} bytes.\n`, 413);
    case "unreachable":
    case "bad_credential":
      // Pages take buyer keys only; an unknown, revoked or foreign credential is refused alike.
      c.header("WWW-Authenticate", 'Bearer realm="folio", error="invalid_token"');
      return c.text(
        "The credential is not a live Folio buyer key (Authorization: Bearer mk_...).\n",
        401,
      );
  }
}

/** NLWeb codes for the HTTP statuses a refusal or failure of `/ask` can take. */
const ASK_CODES: Record<number, string> = {
  400: "INVALID_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  413: "REQUEST_TOO_LARGE",
  429: "RATE_LIMITED",
};

/** The same refusal (status, headers, sentence) in NLWeb's Failure form. */
async function askFailure(res: Response): Promise<Response> {
  const text = await res.text();
  let message = text.trim();
  try {
    message = (JSON.parse(text) as { error: { message: string } }).error.message;
  } catch {
    // A text refusal: its sentence is the body.
  }
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json");
  const code = ASK_CODES[res.status] ?? (res.status >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST");
  return new Response(JSON.stringify(failureBody(code, message)), { status: res.status, headers });
}
