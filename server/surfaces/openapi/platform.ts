/**
 * The platform's protocol endpoints in the OpenAPI document (issue 40): status and health, the
 * receipt keys, the OAuth 2.1 authorization server and its metadata (docs/decisions/oauth.md),
 * NLWeb `/ask` on a publisher's domain, and the RSL license server (docs/decisions/rsl.md). Their bodies are the protocols' own (RFC 6749, 7591, 8414,
 * 9728, NLWeb), so they are described by media type and meaning, each status an answer of its own.
 */
import type { Api, Json, Operation, Reply } from "./kit.ts";

const JSON_OBJECT = { "application/json": { schema: { type: "object" } } };
const HTML = { "text/html": { schema: { type: "string" } } };

/** Answers in the protocol's own JSON error form, one per status. */
function refusals(statuses: number[], what: string): Reply[] {
  return statuses.map((status) => [status, JSON_OBJECT, `${what} (status ${status})`]);
}

const OAUTH_ERROR = "An RFC 6749 error: {error, error_description}";
const FORM = {
  "application/x-www-form-urlencoded": { schema: { type: "object" } },
};

function publisherParam(): Json {
  return { name: "publisherId", in: "path", required: true, schema: { type: "string" } };
}

const ask: Operation = {
  summary: "NLWeb ask: list-mode search of the publisher's articles",
  description: "Served on the publisher's domain (and /read/{publisherId}/ask on the platform's " +
    "host). Classic GET ?query= streams server-sent events unless streaming=false; POST takes " +
    "v0.54's {query: {text}}. Refusals take v0.54's Failure form; a territory rule withholding " +
    "every article answers 451 TERRITORY_BLOCKED.",
  servers: [{ url: "https://{publisherDomain}", variables: { publisherDomain: { default: "" } } }],
  params: [{ name: "query", in: "query", required: false, schema: { type: "string" } }],
  ok: [200, {
    ...JSON_OBJECT,
    "text/event-stream": { schema: { type: "string" } },
  }, "The results (JSON, or an event stream)"],
  also: refusals([400, 401, 403, 404, 413, 429, 451, 500], "An NLWeb Failure"),
};

/** The platform API. */
export function platformApi(): Api {
  return {
    tag: "Platform",
    description: "Status and health, receipt keys, the OAuth 2.1 authorization server for MCP " +
      "and A2A with its metadata, and NLWeb /ask on a publisher's domain.",
    auth: { security: [], errors: [] },
    errors: {},
    errorSchema: "Error",
    paths: {
      "/api/health": {
        get: {
          summary: "Health: a round trip to the store",
          ok: [200, JSON_OBJECT, "{ok: true, dbLatencyMs}"],
          also: [[503, JSON_OBJECT, "{ok: false, error}: the store did not answer"]],
        },
      },
      "/api/status": {
        get: {
          summary: "The published status figures",
          params: [{ name: "days", in: "query", required: false, schema: { type: "integer" } }],
          ok: [200, JSON_OBJECT, "Uptime and latency figures"],
          also: refusals([400], "days is not a whole number in range: {error}"),
        },
      },
      "/.well-known/jwks.json": {
        get: {
          summary: "The public keys that verify receipts and license tokens (JWKS, RFC 7517)",
          ok: [200, { "application/json": { schema: { type: "object" } } }, "{keys: [...]}"],
        },
      },
      "/.well-known/oauth-authorization-server": {
        get: {
          summary: "Authorization server metadata (RFC 8414)",
          ok: [200, JSON_OBJECT, "The metadata"],
        },
      },
      "/.well-known/oauth-protected-resource/api/mcp/{publisherId}": {
        get: {
          summary: "Protected resource metadata of a publisher's MCP server (RFC 9728)",
          params: [publisherParam()],
          ok: [200, JSON_OBJECT, "The metadata"],
          also: refusals([404], "No such publisher"),
        },
      },
      "/.well-known/oauth-protected-resource/mcp": {
        get: {
          summary: "Protected resource metadata of /mcp on a publisher's domain (RFC 9728 §3.1)",
          ok: [200, JSON_OBJECT, "The metadata"],
          also: refusals([404], "The host is no publisher's domain"),
        },
      },
      "/.well-known/oauth-protected-resource": {
        get: {
          summary: "Protected resource metadata at the bare well-known path (a publisher's domain)",
          ok: [200, JSON_OBJECT, "The metadata"],
          also: refusals([404], "The host is no publisher's domain"),
        },
      },
      "/api/oauth/register": {
        post: {
          summary: "Dynamic client registration (RFC 7591): public clients only",
          body: JSON_OBJECT,
          ok: [201, JSON_OBJECT, "The registered client"],
          also: refusals([400, 413, 415, 429], "An RFC 7591 error: {error, error_description}"),
        },
      },
      "/api/oauth/token": {
        post: {
          summary: "Token endpoint: authorization_code (PKCE) and refresh_token",
          body: FORM,
          ok: [200, JSON_OBJECT, "{access_token, token_type, expires_in, refresh_token, scope}"],
          also: refusals([400, 401, 413, 415, 429], OAUTH_ERROR),
        },
      },
      "/api/oauth/authorize": {
        get: {
          summary: "Authorization endpoint: the sign-in and consent page",
          ok: [200, HTML, "The page"],
          also: [
            [302, null, "Back to the client's redirect_uri with a code or an error"],
            [400, HTML, "An error page (bad client_id or redirect_uri: never a redirect)"],
            [429, HTML, "Too many attempts"],
          ],
        },
        post: {
          summary: "Authorization endpoint: the consent form's answer",
          body: FORM,
          ok: [303, null, "Back to the client's redirect_uri with a code or an error"],
          also: [
            [302, null, "Back to the client's redirect_uri"],
            [200, HTML, "The page again (a wrong password)"],
            [400, HTML, "An error page"],
            [403, HTML, "The form's CSRF token did not match"],
            [413, HTML, "The form is too large"],
            [429, HTML, "Too many attempts"],
          ],
        },
      },
      "/ask": { get: ask, post: { ...ask, summary: "NLWeb ask (v0.54 POST)", body: JSON_OBJECT } },
      "/api/olp/token": {
        post: {
          summary: "RSL license server (OLP): acquire a license token",
          description: "grant_type=rsl (or client_credentials), license (an RSL <license> " +
            "element) and resource (the page's URL on a publisher's domain); the client " +
            "authenticates with HTTP Basic or client_id/client_secret (a buyer's OLP client, " +
            "POST /api/marketplace/olp-client). The license must be one license.xml offers " +
            "for the resource. Present the token as Authorization: License <token>; it is a " +
            "JWT verifiable against /.well-known/jwks.json. docs/decisions/rsl.md.",
          body: FORM,
          ok: [200, JSON_OBJECT, "{access_token, token_type: License, expires_in, resource}"],
          also: refusals([400, 401, 413, 429], OAUTH_ERROR),
        },
      },
      "/api/olp/introspect": {
        post: {
          summary: "RSL license server (OLP): introspect a license token (RFC 7662)",
          body: FORM,
          ok: [200, JSON_OBJECT, "{active, client_id, resource, license, exp...}"],
          also: refusals([400, 401, 413, 429], OAUTH_ERROR),
        },
      },
    },
  };
}
