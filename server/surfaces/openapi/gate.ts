/**
 * The crawler gate's forward-authentication endpoints in the OpenAPI document (issue 33;
 * docs/decisions/crawler-gate.md): what a proxy in front of a publisher's own site asks Folio.
 */
import { type Api, type Operation } from "./kit.ts";

const TEXT = { "text/plain": { schema: { type: "string" } } };
const EMPTY = { "text/plain": { schema: { type: "string", maxLength: 0 } } };

const FORWARDED = [
  ["X-Forwarded-Host", "The client's Host (the publisher's verified domain, port included)", true],
  ["X-Forwarded-Uri", "The client's request target (path and query); or X-Original-URI", true],
  ["X-Forwarded-Method", "The client's method (default GET); or X-Original-Method", false],
  ["X-Forwarded-Proto", "http or https (default https)", false],
  ["X-Real-IP", "The client's address; else the last X-Forwarded-For hop", false],
] as const;

const params = FORWARDED.map(([name, description, required]) => ({
  name,
  in: "header",
  required,
  description,
  schema: { type: "string" },
}));

const COMMON = "Any method. The client's own headers come along as the proxy passes them " +
  "(User-Agent, Authorization, crawler-exact-price/crawler-max-price, Idempotency-Key, Web Bot " +
  "Auth Signature/Signature-Input/Signature-Agent, x402 PAYMENT-SIGNATURE). People pass with no lookup; crawlers get the " +
  "landing path's decision and charge (call-log surface `landing`).";

function door(summary: string, description: string, refusals: Operation["also"]): Operation {
  return {
    summary,
    description: `${description} ${COMMON}`,
    params,
    ok: [200, EMPTY, "Admit: pass the request to the origin (crawler-charged when it was paid)"],
    headers: {
      "crawler-charged": {
        description: "A paid read's price, e.g. USD 0.02094",
        schema: { type: "string" },
      },
      "PAYMENT-RESPONSE": {
        description: "x402 v2: the settlement of a read paid with PAYMENT-SIGNATURE (base64 JSON)",
        schema: { type: "string" },
      },
    },
    also: refusals,
    errors: [400, 404],
  };
}

/** The gate API. */
export function gateApi(): Api {
  return {
    tag: "Crawler gate",
    description: "Forward authentication for a proxy in front of the publisher's own site " +
      "(nginx auth_request, Caddy forward_auth, Traefik ForwardAuth); GET " +
      "/api/publisher/gate/config gives the configuration. 400 names the forwarded header " +
      "missing, 404 a domain no publisher verified.",
    auth: { security: [], errors: [] },
    errors: {
      400: "A forwarded header is missing or malformed (`param` names it)",
      404: "No publisher has verified the forwarded host",
    },
    errorSchema: "Error",
    paths: {
      "/api/gate/v1/forward-auth": {
        get: door(
          "Decide a request (Caddy forward_auth, Traefik ForwardAuth)",
          "A 2xx admits; any other answer is meant for the client as it is: 402 with " +
            "crawler-price and the RSL Link, 403 CrawlerForbidden, 400 crawler-error, 401 " +
            "for a key that is not a live buyer key.",
          [
            [
              402,
              TEXT,
              "Pay per crawl: crawler-price, Link to license.xml, WWW-Authenticate: License, " +
              "and with x402 configured PAYMENT-REQUIRED (base64 JSON; its error says why a " +
              "payment was refused)",
            ],
            [403, TEXT, "Refused (crawler-error CrawlerForbidden or PaymentFailed)"],
            [401, TEXT, "The bearer credential is not a live Folio buyer key"],
            [451, TEXT, "Withheld in the client's territory"],
          ],
        ),
      },
      "/api/gate/v1/nginx": {
        get: door(
          "Decide a request (nginx auth_request)",
          "A 2xx admits. nginx accepts only 2xx, 401 and 403 from auth_request, so every " +
            "refusal is a bodiless 401 with Folio-Status (the real status), Folio-Message, " +
            "crawler-price, crawler-error, Link and PAYMENT-REQUIRED, for the configuration's " +
            "error_page location.",
          [[401, EMPTY, "Refused: the answer for the client is in Folio-Status and the headers"]],
        ),
      },
    },
  };
}
