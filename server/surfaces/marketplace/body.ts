/**
 * The marketplace API's JSON bodies: the platform's one reader (server/platform/json_body.ts)
 * with the marketplace's pinned 413 sentence; routes pass their schema (./schemas.ts).
 */
import { AppError } from "../../platform/errors.ts";
import { jsonBodies } from "../../platform/json_body.ts";

/** `json(schema)`: the middleware that reads and checks a marketplace route's body. */
export const json = jsonBodies(
  (limit) => new AppError(413, "payload_too_large", `The body is over ${limit} bytes`),
);
