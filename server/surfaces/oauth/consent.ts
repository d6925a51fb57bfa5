/**
 * The consent screen's decision (docs/SPEC.md "Authentication" 3): the reader's email is stored on the
 * client and attributed to every later call; terms must be accepted; when the publisher configured
 * subscription linking, a buyer key links the install to that buyer's subscriptions and billing.
 */
import { findBuyerByKeyHash } from "../../../store/buyers.ts";
import type { Client } from "../../../store/db.ts";
import { linkClientToBuyer, setClientEmail } from "../../../store/oauth.ts";
import { hashSecret, wellFormed } from "../../platform/secrets.ts";
import { type AuthorizationRequest, issueCode } from "./authorize.ts";

/** A consent form that cannot be accepted as sent; the message is shown on the page. */
export class ConsentProblem extends Error {
  override name = "ConsentProblem";
}

/** Records the reader's consent and issues the code. */
export async function approveConsent(
  db: Client,
  req: AuthorizationRequest,
  form: { email: string; acceptTerms: boolean; buyerKey: string; now: Date },
): Promise<string> {
  const email = form.email.trim();
  if (email.length > 254 || !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email)) {
    throw new ConsentProblem("Email: enter an address like reader@example.com.");
  }
  if (!form.acceptTerms) throw new ConsentProblem("Terms: accept the license terms to continue.");
  let buyerId: string | null = null;
  const key = form.buyerKey.trim();
  if (key && req.publisher.toggles.subscriptionLinking) {
    const buyer = wellFormed(key, "mk")
      ? await findBuyerByKeyHash(db, await hashSecret(key))
      : null;
    if (!buyer) throw new ConsentProblem("Subscription: that buyer API key is not valid.");
    buyerId = buyer.id;
  }
  await setClientEmail(db, req.client.id, email);
  if (buyerId) await linkClientToBuyer(db, req.client.id, buyerId);
  return await issueCode(db, req, { email, now: form.now });
}
