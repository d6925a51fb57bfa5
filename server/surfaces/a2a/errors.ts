/**
 * A2A's words for the envelope's refusals. A publisher without an A2A server answers the platform
 * JSON error (there is no JSON-RPC server to speak for it) and is not logged; refusals by the
 * server itself are JSON-RPC errors with `id: null` and the REST status value as `data.status`.
 */
import type { Context } from "hono";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppEnv } from "../../deps.ts";
import { Refused } from "../../platform/envelope.ts";
import { errorBody } from "../../platform/errors.ts";
import { invalidKeyError } from "../../platform/identity.ts";
import { CODES, rpcError } from "./jsonrpc.ts";
import { licenseChallenge } from "../../domain/rsl/license_tokens.ts";

/** The 404 of a publisher that has no A2A server here. */
export function notServed(c: Context<AppEnv>, publisher: Publisher | null): Response {
  return publisher
    ? c.json(errorBody("a2a_disabled", `${publisher.name} has not enabled its A2A server`), 404)
    : c.json(errorBody("unknown_publisher", "No publisher is served here"), 404);
}

/** The A2A sub-app's error handler. */
export function a2aError(err: Error, c: Context<AppEnv>): Response {
  if (!(err instanceof Refused)) throw err;
  const r = err.refusal;
  const unauthenticated = (message: string, status: string) => {
    c.header("WWW-Authenticate", 'Bearer realm="folio"');
    return c.json(rpcError(null, CODES.unauthenticated, message, { status }), 401);
  };
  switch (r.kind) {
    case "unknown_publisher":
      c.set("call", undefined);
      return notServed(c, null);
    case "unreachable":
      if (r.why === "surface_off") {
        c.set("call", undefined);
        return notServed(c, r.publisher);
      }
      if (r.why === "auth_required") {
        return unauthenticated(
          `${r.publisher.name} requires authentication: send a buyer key (Authorization: Bearer mk_...) or an OAuth access token`,
          "authentication_required",
        );
      }
      throw err;
    case "key_in_url":
      return unauthenticated(
        "Send the key in the Authorization header, never in the URL",
        "api_key_in_url",
      );
    case "bad_credential":
      return unauthenticated(invalidKeyError().message, "invalid_api_key");
    case "bad_license":
      // The Crawler Authorization Protocol's form (docs/decisions/rsl.md).
      c.header("WWW-Authenticate", licenseChallenge(r.license.error, r.license.message));
      return c.json(
        rpcError(null, CODES.unauthenticated, r.license.message, { status: r.license.error }),
        r.license.status,
      );
    case "body_too_large":
      return c.json(
        rpcError(null, CODES.invalidRequest, `Request body exceeds ${r.limit} bytes (1 MiB)`),
        413,
      );
  }
}
