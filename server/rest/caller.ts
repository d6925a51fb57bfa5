/** Who is calling the REST API: a buyer (by key) or an anonymous client (by address). */
import type { Context } from "hono";
import type { Config } from "../config.ts";
import type { Client } from "../../store/db.ts";
import { bearerToken, buyerForKey, territoryOf } from "../identity.ts";
import type { Caller } from "../reads/requester.ts";
import { clientAddress } from "../throttle.ts";

/** The caller, or throws the one 401 for a bad key. Anonymous callers are metered by address. */
export async function restCaller(
  c: Context,
  deps: { db: Client; config: Pick<Config, "countryHeader"> },
): Promise<Caller> {
  const territory = territoryOf(deps.config, c.req.raw.headers);
  const token = bearerToken(c.req.header("authorization"));
  if (token) {
    const buyer = await buyerForKey(deps.db, token);
    return { identity: `buyer:${buyer.id}`, buyerId: buyer.id, territory, surface: "rest" };
  }
  const addr = clientAddress(c);
  return { identity: `ip:${addr}`, buyerId: null, territory, surface: "rest" };
}
