/**
 * The operator API's JSON bodies: the platform's one reader (server/platform/json_body.ts); each
 * route passes its schema from the `*schemas.ts` beside it.
 */
import { jsonBodies, jsonTooLarge } from "../../platform/json_body.ts";

/** `json(schema)`: the middleware that reads and checks an operator route's body. */
export const json = jsonBodies(jsonTooLarge);
