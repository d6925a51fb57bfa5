/** Offers in tests: approve a request and accept its offer in one step, as the old approval did. */
import type { Client } from "../store/db.ts";
import { getLicense } from "../store/licenses.ts";
import type { Publisher } from "../store/publishers.ts";
import { makeOffer, type OfferTerms } from "../server/domain/billing/offers.ts";
import { acceptOffer } from "../server/domain/billing/offer_answers.ts";

/** Makes the publisher's offer on `requestId` and has its buyer accept it at `now`. */
export async function grantRequest(
  db: Client,
  publisher: Publisher,
  options: { requestId: string; now: Date } & OfferTerms,
) {
  const { request, offer } = await makeOffer(db, publisher, options);
  const accepted = await acceptOffer(db, offer.buyerId, offer.id, { now: options.now });
  const license = (await getLicense(db, offer.buyerId, accepted.licenseId))!;
  return {
    request: { ...request, licenseId: license.id },
    offer: accepted.offer,
    license,
    accepted,
  };
}
