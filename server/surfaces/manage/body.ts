/**
 * The management API's JSON bodies (`/api/publisher`, `/api/publishers` accounts): the platform's
 * one reader (server/platform/json_body.ts); routes pass their schema from the `*_schemas.ts`
 * beside them. Uploads are not JSON and set their own limits on their routes.
 */
import { jsonBodies, jsonTooLarge } from "../../platform/json_body.ts";

/** `json(schema)`: the middleware that reads and checks a management route's body. */
export const json = jsonBodies(jsonTooLarge);
