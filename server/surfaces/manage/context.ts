/** The authenticated publisher of a management request. */
import type { Context } from "hono";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppEnv } from "../../deps.ts";
import { unauthenticated } from "./auth.ts";

/** The publisher that requirePublisher() put on the context; 401 if it did not run. */
export function current(c: Context<AppEnv>): Publisher {
  const publisher = c.get("publisher");
  if (!publisher) throw unauthenticated();
  return publisher;
}
