/**
 * Who is calling a publisher's A2A server, with the meter identity of docs/DESIGN.md §4:
 * - `Authorization: Bearer mk_...` (buyer key) → `buyer:<id>`, licensed and metered to the buyer;
 * - `Authorization: Bearer fat_...` (OAuth access token) → `oauth:<clientId>`, accepted only when the
 *   token was issued for this same publisher's MCP resource (RFC 8707 audience = the publisher);
 *   a token for another publisher gets the one 401;
 * - no credentials → `ip:<address>`, exactly as on REST, so the paywall meter is one per address
 *   across REST and A2A and cannot be reset by inventing a new A2A contextId. Refused (401) when
 *   the publisher's Require auth is on.
 * Unknown, revoked, malformed and foreign credentials all get the identical 401 (docs/TEST-PLAN.md 5.4).
 */
import type { Context } from "hono";
import type { Publisher } from "../../store/publishers.ts";
import type { AppDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { bearerToken, buyerForKey, invalidKeyError, territoryOf } from "../identity.ts";
import { mcpResourceUri } from "../oauth/metadata.ts";
import { verifyAccessToken } from "../oauth/tokens.ts";
import type { Caller } from "../reads/requester.ts";
import { clientAddress } from "../throttle.ts";

/** The caller of this request, or throws the one 401. */
export async function a2aCaller(
  c: Context,
  deps: AppDeps,
  publisher: Publisher,
): Promise<Caller> {
  const territory = territoryOf(deps.config, c.req.raw.headers);
  const token = bearerToken(c.req.header("authorization"));
  if (token?.startsWith("mk_")) {
    const buyer = await buyerForKey(deps.store.db, token);
    return { identity: `buyer:${buyer.id}`, buyerId: buyer.id, territory, surface: "a2a" };
  }
  if (token) {
    const grant = await verifyAccessToken(deps.store.db, token, {
      resource: mcpResourceUri(deps.config.baseUrl, publisher.id),
      now: deps.clock.now(),
    });
    if (!grant || grant.publisherId !== publisher.id) throw invalidKeyError();
    return {
      identity: `oauth:${grant.clientId}`,
      buyerId: grant.buyerId,
      territory,
      surface: "a2a",
    };
  }
  if (publisher.toggles.requireAuth) {
    throw new AppError(
      401,
      "authentication_required",
      `${publisher.name} requires authentication: send a buyer key (Authorization: Bearer mk_...) or an OAuth access token`,
      { "WWW-Authenticate": 'Bearer realm="folio"' },
    );
  }
  const addr = clientAddress(c);
  return { identity: `ip:${addr}`, buyerId: null, territory, surface: "a2a" };
}
