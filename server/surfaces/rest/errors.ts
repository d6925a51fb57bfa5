/**
 * REST's words for every refusal (docs/SPEC.md "Errors"): `{status, message}` with the HTTP status
 * the table gives. Anything that is not a known refusal goes on to the app's 500 handler.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../deps.ts";
import { type EnvelopeRefusal, Refused } from "../../platform/envelope.ts";
import { AppError } from "../../platform/errors.ts";
import { invalidKeyError } from "../../platform/identity.ts";
import { RestError } from "./params.ts";
import { licenseChallenge } from "../../domain/rsl/license_tokens.ts";

/** The REST sub-app's error handler. */
export function restError(err: Error, c: Context<AppEnv>): Response {
  const known = err instanceof Refused ? refusal(err.refusal) : err;
  if (known instanceof RestError) {
    return c.json({ status: known.status, message: known.message }, known.httpStatus);
  }
  if (known instanceof AppError) {
    for (const [k, v] of Object.entries(known.headers)) c.header(k, v);
    return c.json({ status: known.code, message: known.message }, known.status);
  }
  throw err;
}

function refusal(r: EnvelopeRefusal): RestError | AppError {
  switch (r.kind) {
    case "unknown_publisher":
      return r.via === "host"
        ? new RestError(404, "unknown_publisher_host", `No publisher is served at ${r.host}`)
        : new RestError(404, "unknown_publisher", "No publisher has that id");
    case "key_in_url":
      return new RestError(
        401,
        "invalid_api_key",
        "Send the key in the Authorization header, never in the URL",
      );
    case "unreachable":
      if (r.why === "rest_not_public") {
        return new RestError(
          404,
          "rest_api_disabled",
          `${r.publisher.name} has not enabled anonymous REST access; send a buyer key (Authorization: Bearer mk_...)`,
        );
      }
      return invalidKeyError();
    case "bad_credential":
      return invalidKeyError();
    case "bad_license":
      // The Crawler Authorization Protocol's form (docs/decisions/rsl.md).
      return new AppError(r.license.status, r.license.error, r.license.message, {
        "WWW-Authenticate": licenseChallenge(r.license.error, r.license.message),
      });
    case "body_too_large":
      return new AppError(413, "payload_too_large", `The body is over ${r.limit} bytes`);
  }
}
