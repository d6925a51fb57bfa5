/**
 * The consent screen's decision (docs/SPEC.md "Authentication" 3): the reader's email is stored on the
 * client and attributed to every later call; terms must be accepted; when the publisher configured
 * subscription linking, the install can be billed to the buyer account the reader is signed in to
 * in the buyer portal (its session cookie, never a pasted key: issue 42), so that account's
 * licenses and budgets apply to the app's reads.
 */
import { type Buyer, getBuyer } from "../../../store/buyers.ts";
import { findBuyerSession } from "../../../store/buyer_sessions.ts";
import type { Client } from "../../../store/db.ts";
import { linkClientToBuyer, setClientEmail } from "../../../store/oauth.ts";
import { BUYER_SESSION_COOKIE } from "../../domain/accounts/session_cookie.ts";
import { hashSecret } from "../../platform/secrets.ts";
import { type AuthorizationRequest, issueCode } from "./authorize.ts";

/** A consent form that cannot be accepted as sent; the message is shown on the page. */
export class ConsentProblem extends Error {
  override name = "ConsentProblem";
}

/** Who pays for the app's reads, as the page says it. */
export type Payer =
  /** The client is billed to a buyer already (registered by it, or linked at an earlier consent). */
  | { kind: "linked"; buyer: Buyer }
  /** Subscription linking is on and the reader is signed in to this buyer account. */
  | { kind: "signed_in"; buyer: Buyer }
  /** Subscription linking is on; no buyer account is signed in. */
  | { kind: "sign_in" }
  /** The publisher does not link installs to buyer accounts. */
  | { kind: "none" };

/** The buyer signed in to the buyer portal in this browser (its session cookie), or null. */
export async function signedInBuyer(
  db: Client,
  cookies: Record<string, string>,
  now: Date,
): Promise<Buyer | null> {
  const token = cookies[BUYER_SESSION_COOKIE];
  if (!token) return null;
  return (await findBuyerSession(db, await hashSecret(token), { now }))?.buyer ?? null;
}

/** Who would pay for the reads of the app `req` names, for this reader. */
export async function payerOf(
  db: Client,
  req: AuthorizationRequest,
  signedIn: Buyer | null,
): Promise<Payer> {
  const linked = req.client.buyerId ? await getBuyer(db, req.client.buyerId) : null;
  if (linked) return { kind: "linked", buyer: linked };
  if (!req.publisher.toggles.subscriptionLinking) return { kind: "none" };
  return signedIn ? { kind: "signed_in", buyer: signedIn } : { kind: "sign_in" };
}

/** What the reader chose on the form about billing. */
export interface BillingChoice {
  /** "Bill my buyer account" was chosen. */
  billBuyer: boolean;
  /** The buyer account the page showed (a hidden field), to be the one signed in now. */
  shownBuyerId: string;
}

/** Records the reader's consent and issues the code. */
export async function approveConsent(
  db: Client,
  req: AuthorizationRequest,
  form: {
    email: string;
    acceptTerms: boolean;
    billing: BillingChoice;
    payer: Payer;
    now: Date;
  },
): Promise<string> {
  const email = form.email.trim();
  if (email.length > 254 || !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email)) {
    throw new ConsentProblem("Email: enter an address like reader@example.com.");
  }
  if (!form.acceptTerms) throw new ConsentProblem("Terms: accept the license terms to continue.");
  const buyerId = billedBuyer(form.billing, form.payer);
  await setClientEmail(db, req.client.id, email);
  if (buyerId) await linkClientToBuyer(db, req.client.id, buyerId);
  return await issueCode(db, req, { email, now: form.now });
}

/**
 * The buyer to link, if the reader chose one: only the account signed in now, and only if it is
 * the one the page showed (a sign-in as someone else in another tab must not be billed unseen).
 */
function billedBuyer(choice: BillingChoice, payer: Payer): string | null {
  if (!choice.billBuyer || payer.kind === "linked" || payer.kind === "none") return null;
  if (payer.kind === "sign_in") {
    throw new ConsentProblem(
      "Who pays: you are no longer signed in to a buyer account. Sign in again, or allow " +
        "without one.",
    );
  }
  if (payer.buyer.id !== choice.shownBuyerId) {
    throw new ConsentProblem(
      `Who pays: you are now signed in as ${payer.buyer.name}, not the account this page ` +
        "showed. Check who pays below, then allow again.",
    );
  }
  return payer.buyer.id;
}
