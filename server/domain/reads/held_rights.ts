/**
 * What one buyer holds with one publisher, by the rights table (../licensing/rights.ts): each use's right and
 * where it comes from, and what is for sale. The buyer portal and `GET /api/marketplace/rights`
 * show it, so a buyer sees what its license blocks will say.
 */
import type { Client } from "../../../store/db.ts";
import { heldGrants } from "../../../store/licenses.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { USE_CASES } from "../../../store/vocabulary.ts";
import {
  BUNDLE_USES,
  purchasable,
  rightOf,
  type RightSource,
  type UseCase,
} from "../licensing/mod.ts";

/** One buyer's rights with one publisher, before any book chapter's ceiling. */
export interface HeldReport {
  publisherId: string;
  rights: Record<UseCase, "granted" | "denied">;
  /** Where each granted right comes from: the publisher's default or a license in force. */
  grantedBy: Record<UseCase, RightSource>;
  /** The uses the buyer may subscribe to now (`purchasable()`). */
  forSale: (typeof BUNDLE_USES)[number][];
}

/** The buyer's rights with `publisher` at `now`. */
export async function heldReport(
  db: Client,
  buyerId: string,
  publisher: Pick<Publisher, "id" | "rights">,
  options: { now: Date },
): Promise<HeldReport> {
  const held = await heldGrants(db, buyerId, publisher.id, options);
  const rights = {} as HeldReport["rights"];
  const grantedBy = {} as HeldReport["grantedBy"];
  for (const use of USE_CASES) {
    grantedBy[use] = rightOf(use, publisher.rights, { licensedUses: held.licensed }, null);
    rights[use] = grantedBy[use] === "none" ? "denied" : "granted";
  }
  return { publisherId: publisher.id, rights, grantedBy, forSale: purchasable(publisher.rights) };
}
