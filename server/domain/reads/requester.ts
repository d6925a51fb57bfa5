/** Gathers what the access decision needs about the requester, from the store. */
import type { Client } from "../../../store/db.ts";
import { heldGrants } from "../../../store/licenses.ts";
import { cachedSuspension } from "../../../store/suspensions.ts";
import type { CrawlTerms, Requester, Surface } from "../licensing/mod.ts";

/** How a surface identified its caller before the decision. */
export interface Caller {
  /** Meter key: `buyer:<id>`, `oauth:<clientId>`, `sess:<id>`, `crawler:<family>`, `ip:<addr>`. */
  identity: string;
  /** The buyer billed for this caller (a buyer key, or an OAuth client the buyer registered). */
  buyerId: string | null;
  territory: string | null;
  surface: Surface;
  /** A paying crawler's terms on the landing path (server/surfaces/landing/visitor.ts). */
  crawl?: CrawlTerms | null;
  /** The article an RSL license token is for (docs/decisions/rsl.md); absent without one. */
  license?: { articleId: string; resource: string } | null;
}

/** The decision's view of the caller for one publisher: adds the licenses held at `now`. */
export async function requesterFor(
  db: Client,
  publisherId: string,
  caller: Caller,
  options: { now: Date },
): Promise<Requester> {
  if (!caller.buyerId) return { ...caller, licensedUses: [], approvedUses: [] };
  // Both cached with the configuration: on a request's view neither costs a query.
  const [held, suspension] = await Promise.all([
    heldGrants(db, caller.buyerId, publisherId, options),
    cachedSuspension(db, caller.buyerId),
  ]);
  return {
    ...caller,
    licensedUses: held.licensed,
    approvedUses: held.approved,
    suspension: suspension && { invoiceNumber: suspension.invoiceNumber, url: suspension.url },
  };
}
