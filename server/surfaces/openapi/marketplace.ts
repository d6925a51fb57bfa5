/**
 * The buyer marketplace API's part of the OpenAPI document (docs/SPEC.md "Buyer marketplace API"),
 * from the schemas its routes parse with and answer in (server/surfaces/marketplace/schemas.ts).
 */
import { z } from "zod";
import { MARKETPLACE } from "../marketplace/schemas.ts";
import * as m from "../marketplace/schemas.ts";
import * as r from "../marketplace/rights_schemas.ts";
import * as o from "../marketplace/offer_schemas.ts";
import { webhookPaths } from "./webhooks.ts";
import { passwordResetPaths } from "./password_reset.ts";
import * as items from "../marketplace/item_schemas.ts";
import * as inv from "../marketplace/invoice_schemas.ts";
import { olpClientSchema, olpSecretSchema } from "../marketplace/olp_schemas.ts";
import { itemQuerySchema } from "../../domain/billing/items.ts";
import * as disputes from "../../domain/billing/dispute_schemas.ts";
import { type Api, MONTH_PARAM, type Operation, pathParam, query, queryParamsOf } from "./kit.ts";

const ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field and the problem, and `param` the field",
  401: "Missing, malformed, unknown or revoked buyer key or session (invalid_api_key), or a key " +
    "in the URL (api_key_in_url)",
  403: "Cookie-authenticated change without the session's X-CSRF-Token",
  404: "Not found (or another buyer's)",
  409: "Conflicts with what exists (the code says what)",
  413: "Body too large",
  415: "Content-Type must be application/json",
  429: "Too many attempts from this address; see Retry-After",
  502: "The payment processor failed; nothing was bought",
};

const HTML = { "text/html": { schema: { type: "string" } } };

const ITEM_PARAMS = queryParamsOf(itemQuerySchema);

/** The marketplace API. */
export function marketplaceApi(): Api {
  const authed = (o: Omit<Operation, "auth">): Operation => ({ ...o, auth: true });
  const path = (p: string) => `${MARKETPLACE}${p}`;
  const paths: Record<string, Record<string, Operation>> = {
    "/signup": {
      post: {
        summary: "Create a buyer account",
        description: "Returns the buyer key (mk_) once; only its hash is stored. One account " +
          "per email (409 email_taken). Rate-limited per client address. The account also " +
          "gets a virtual MCP install, `buyer:<buyerId>`, so reads with the key are licensed " +
          "and metered without further registration.",
        body: m.signupSchema,
        ok: [201, m.signupResponseSchema, "Created"],
        errors: [400, 409, 413, 415, 429],
      },
    },
    "/rotate-key": {
      post: authed({
        summary: "Rotate the buyer key",
        description: "Returns a new mk_ key once; the old key stops working on the very next " +
          "request.",
        ok: [200, m.rotateKeyResponseSchema],
      }),
    },
    "/clients": {
      post: authed({
        summary: "Claim an MCP install (OAuth client) for this buyer",
        description: "Its MCP traffic is then licensed and billed to this buyer; its pending " +
          "license requests now name the buyer. 201 when claimed now, 200 when it was already " +
          "this buyer's; 409 client_taken when another buyer holds it.",
        body: m.clientInputSchema,
        ok: [201, m.clientResponseSchema, "Claimed"],
        also: [[200, m.clientResponseSchema, "Already this buyer's"]],
        errors: [400, 404, 409, 413, 415],
      }),
      get: authed({
        summary: "The buyer's MCP installs",
        description: "The key's own virtual install first, then claimed OAuth clients.",
        ok: [200, m.clientListSchema],
      }),
    },
    "/catalog": {
      get: {
        summary: "Every publisher with content, and the rate card",
        description: "Granted rights per use case, per-use prices, the paywall meter, the MCP, " +
          "REST and A2A endpoints and the license terms of each publisher; the standard " +
          "monthly rate card. Public and CORS-open.",
        ok: [200, m.catalogSchema],
      },
    },
    "/licenses": {
      post: authed({
        summary: "Buy a monthly license (subscription)",
        description: "Priced from the rate card: the base fee plus each use case. Without a " +
          "payment processor the license is active at once (201) and its fee is on this " +
          "month's statement prorated to the second (firstChargeUsdCents), within the buyer's " +
          "budgets (409 budget_exceeded), renewed on the 1st (UTC). With one, the answer is " +
          "200 with a checkoutUrl and the license activates when checkout completes. A license " +
          "suppresses per-use charges for its use cases. fine_tuning is never in the bundle: " +
          "ask the publisher with the request_license MCP tool.",
        body: m.licenseInputSchema,
        ok: [201, m.licenseActiveSchema, "Active now, billed by invoice"],
        also: [[200, m.licensePendingSchema, "Pay at checkoutUrl to activate"]],
        errors: [400, 404, 409, 413, 415, 502],
      }),
      get: authed({
        summary: "The buyer's licenses",
        description: "A license approved for a term shows as expired once the term is over.",
        ok: [200, m.licenseListSchema],
      }),
    },
    "/licenses/{licenseId}/cancel": {
      get: authed({
        summary: "What canceling the license would do, before it happens",
        description: "The license with `effect`: until when it keeps its uses, what is " +
          "credited and charged (nothing: the paid period runs out, as Stripe's " +
          "cancel_at_period_end) and the renewal that will not be billed.",
        params: [pathParam("licenseId")],
        ok: [200, o.cancelEffectSchema],
        errors: [404],
      }),
      post: authed({
        summary: "Cancel a license at the end of the paid period",
        description: "The license stays active until the start of next UTC month (or its " +
          "term's end, if sooner) and is not renewed (cancelsAt); nothing is credited or " +
          "charged; `effect` says so. A pending checkout is canceled at once; with a payment " +
          "processor, the subscription is set to cancel at period end first. A repeat answers " +
          "the same; 409 once the license has ended.",
        params: [pathParam("licenseId")],
        ok: [200, o.cancelEffectSchema],
        errors: [404, 409],
      }),
    },
    "/license-requests": {
      get: authed({
        summary: "The buyer's license requests, with their offers",
        description: "Newest first. state: pending, offered (an open offer), accepted, " +
          "declined, expired (the offer ran out unaccepted) or denied (with the publisher's " +
          "reason).",
        ok: [200, o.buyerRequestListSchema],
      }),
      post: authed({
        summary: "Ask a publisher for a license",
        description: "The same request the request_license MCP tool makes, with the most the " +
          "buyer will pay a month (maxMonthlyUsdCents): the publisher cannot offer more. A " +
          "repeat of a pending request answers that one.",
        body: o.buyerRequestInputSchema,
        ok: [201, o.buyerRequestCreatedSchema, "Pending"],
        errors: [400, 404, 413, 415],
      }),
    },
    "/offers": {
      get: authed({
        summary: "Offers publishers made on the buyer's requests",
        description: "Newest first; an open offer past expiresAt shows as expired.",
        ok: [200, o.offerListSchema],
      }),
    },
    "/offers/{offerId}": {
      get: authed({
        summary: "One offer",
        params: [pathParam("offerId")],
        ok: [200, o.offerSchema],
        errors: [404],
      }),
    },
    "/offers/{offerId}/accept": {
      post: authed({
        summary: "Accept an offer: the license starts and its first month is billed",
        description: "Bills the monthly price prorated to the second over the rest of this UTC " +
          "month, on this month's statement, within the buyer's budgets (409 budget_exceeded " +
          "otherwise, nothing changes); it renews on the 1st. 409 offer_expired, " +
          "offer_declined or offer_accepted once the offer cannot be accepted; 404 for " +
          "another buyer's offer. With quotedAt (the offer's acceptNow.quotedAt, at most an " +
          "hour old and in this month) it bills exactly the figure quoted then, as Stripe's " +
          "proration_date; 400 otherwise.",
        params: [pathParam("offerId")],
        body: o.offerAcceptSchema,
        bodyOptional: true,
        ok: [200, o.offerAcceptedSchema],
        errors: [400, 404, 409, 413, 415],
      }),
    },
    "/offers/{offerId}/decline": {
      post: authed({
        summary: "Decline an offer",
        description: "Nothing is billed; the publisher sees the reason, if given. 409 once the " +
          "offer was accepted, declined or expired.",
        params: [pathParam("offerId")],
        body: o.offerDeclineSchema,
        bodyOptional: true,
        ok: [200, o.offerSchema],
        errors: [400, 404, 409, 413, 415],
      }),
    },
    "/checkout/success": {
      get: {
        summary: "Where the buyer's browser lands after paying (HTML)",
        description: "Confirms the checkout with the payment processor (the URL alone is never " +
          "trusted) and activates the license once, whichever of this and the webhook comes " +
          "first. 404 without a payment processor.",
        params: [query("session_id", { type: "string" }, true)],
        ok: [200, HTML, "A page saying whether the license is active"],
        errors: [400, 404, 502],
      },
    },
    "/checkout/cancel": {
      get: {
        summary: "Where the buyer's browser lands after abandoning checkout (HTML)",
        params: [query("session_id", { type: "string" })],
        ok: [200, HTML, "A page saying nothing was bought"],
      },
    },
    "/webhooks/stripe": {
      post: {
        summary: "The payment processor's signed events",
        description: "HMAC-SHA256 over the raw body (Stripe-Signature, 300 s tolerance); a " +
          "redelivered event has no second effect. 404 without a payment processor.",
        params: [{
          name: "Stripe-Signature",
          in: "header",
          required: true,
          schema: { type: "string" },
        }],
        body: { "application/json": { schema: { type: "object", description: "A Stripe event" } } },
        ok: [200, m.webhookResponseSchema],
        errors: [400, 404, 413],
      },
    },
    "/usage": {
      get: authed({
        summary: "Calls, reads and metered spend per publisher",
        description: "Over the last `days` days, for every identity billed to the buyer (the " +
          "key and claimed MCP installs).",
        params: [query("days", { type: "integer", minimum: 1, maximum: 90, default: 30 })],
        ok: [200, m.usageSchema],
        errors: [400],
      }),
    },
    "/rights/{publisherId}": {
      get: authed({
        summary: "What the buyer holds with a publisher, and what it may buy",
        description: "Each use's right by the rights table: granted by the publisher's default, " +
          "by a license in force (a subscription to the end of its paid month, an enterprise " +
          "license or approved request for its term), or not at all; what a license block " +
          "says for this buyer. `forSale`: the uses a subscription may cover now.",
        params: [pathParam("publisherId")],
        ok: [200, r.heldRightsSchema],
        errors: [404],
      }),
    },
    "/budgets": {
      get: authed({
        summary: "Monthly budgets and what is left of them",
        description: "Spend this month against the buyer's overall budget and each publisher's " +
          "budget and cap (1,000 USD per publisher per month). A read " +
          "that would go past a budget falls back to the rights held, as at the cap.",
        ok: [200, m.budgetsSchema],
      }),
      put: authed({
        summary: "Set or remove a monthly budget",
        description: "With publisherId, that publisher's budget; without, the overall one. " +
          "monthlyUsdCents: null removes it. Answers the budgets as GET does.",
        body: m.budgetInputSchema,
        ok: [200, m.budgetsSchema],
        errors: [400, 404, 413, 415],
      }),
    },
    "/olp-client": {
      get: authed({
        summary: "This buyer's RSL license-server (OLP) client, without its secret",
        description: "The client a crawler authenticates with at /api/olp/token to acquire " +
          "RSL license tokens that bill this buyer (docs/decisions/rsl.md); null before one is " +
          "issued.",
        ok: [200, olpClientSchema],
      }),
      post: authed({
        summary: "Issue the OLP client, or rotate its secret",
        description: "The secret is in this answer only (stored as its hash); rotating keeps " +
          "the client id and stops the old secret at once.",
        ok: [201, olpSecretSchema],
      }),
    },
    "/signature-agents": {
      get: authed({
        summary: "The Web Bot Auth key directories that pay as this buyer",
        description: "A crawler signing its requests (RFC 9421) with a key from one of these " +
          "directories pays as this buyer on publishers' pages (pay-per-crawl).",
        ok: [200, m.signatureAgentsSchema],
      }),
      post: authed({
        summary: "Register a key directory",
        description: "The request itself must carry a Web Bot Auth signature (Signature-Agent, " +
          "Signature-Input, Signature; covering @authority, @path and signature-agent) from a " +
          "key of that directory: it proves the directory is the buyer's. A signature is good " +
          "for one request. 409 when another buyer holds it.",
        body: m.signatureAgentInputSchema,
        ok: [201, m.signatureAgentsSchema],
        errors: [400, 403, 409, 413, 415],
      }),
      delete: authed({
        summary: "Remove a key directory",
        params: [query("agent", { type: "string", description: "The directory's origin" })],
        ok: [200, m.signatureAgentsSchema],
        errors: [404],
      }),
    },
    "/statements": {
      get: authed({
        summary: "The months to choose a statement from",
        description: "The current month, then every earlier month with something on its " +
          "statement, newest first, with its state and total.",
        ok: [200, m.statementMonthsSchema],
      }),
    },
    "/statement": {
      get: authed({
        summary: "The consolidated monthly statement",
        description: "Subscription fees, metered lines, agent payments and adjustments; total " +
          "= sum of lines. Open during the month; closed (immutable) after the month close. " +
          "Usage arriving for a closed month is an adjustment line on the next statement.",
        params: [MONTH_PARAM],
        ok: [200, m.statementSchema],
        errors: [400],
      }),
    },
    "/statement/invoice": {
      get: authed({
        summary: "The statement as a printable invoice (HTML)",
        params: [MONTH_PARAM],
        ok: [200, HTML],
        errors: [400],
      }),
    },
    "/invoices": {
      get: authed({
        summary: "The buyer's invoices, balance due, credit and suspension",
        description: "Every issued invoice, newest first, with its state (open, partially_paid, " +
          "paid, void, uncollectible), due date, what is left to pay and its payments; the " +
          "balance due, its overdue part, the credit balance the next invoice uses, and the " +
          "suspension (priced reads answer payment_overdue while it is set).",
        ok: [200, inv.receivablesSchema],
      }),
    },
    "/invoices/{number}": {
      get: authed({
        summary: "One invoice with its payments",
        params: [pathParam("number", "FOLIO-000042")],
        ok: [200, inv.invoiceSchema],
        errors: [404],
      }),
    },
    "/invoices/{number}/checkout": {
      post: authed({
        summary: "A Stripe Checkout link to pay what is left of an invoice by card",
        description: "Checkout in payment mode for the amount remaining; the same session while " +
          "that amount holds. Stripe's checkout.session.completed webhook records the payment. " +
          "409 card_payment_unavailable without Stripe, invoice_paid / invoice_void / " +
          "invoice_uncollectible when nothing is to pay.",
        params: [pathParam("number", "FOLIO-000042")],
        ok: [200, inv.invoiceCheckoutSchema],
        errors: [404, 409, 502],
      }),
    },
    "/statement/csv": {
      get: authed({
        summary: "The statement as CSV (attachment)",
        description: "Columns month, publisher, kind, description, quantity, " +
          "price_usd_micros, fee_usd_micros, amount_usd_micros (micro-dollars, exact); a last " +
          "total row, the sum of the lines, naming the total as invoiced (rounded once to the " +
          "cent). Text cells are guarded against formula injection.",
        params: [MONTH_PARAM],
        ok: [200, { "text/csv": { schema: { type: "string" } } }],
        errors: [400],
      }),
    },
    "/items": {
      get: authed({
        summary: "The buyer's charge items, paged and filtered",
        description: "Every charge as an item: time, publisher, article (id, URL, title), use, " +
          "surface, price, platform fee, idempotency key, receipt id. Newest first; " +
          "`nextCursor` pages on. `matching` sums every item the filters match, to the " +
          "micro-dollar: a statement line's `itemsUrl` is this route with the line's filters, " +
          "and its items add up to the line.",
        params: ITEM_PARAMS,
        ok: [200, items.itemPageSchema],
        errors: [400],
      }),
    },
    "/items/csv": {
      get: authed({
        summary: "The buyer's charge items as CSV (attachment)",
        description: "Every item the filters match (no paging), newest first; RFC 4180, every " +
          "cell quoted, cells starting with = + - @ guarded against formula injection.",
        params: ITEM_PARAMS.filter((p) => p.name !== "cursor" && p.name !== "limit"),
        ok: [200, { "text/csv": { schema: { type: "string" } } }],
        errors: [400],
      }),
    },
    "/receipts/verify": {
      post: {
        summary: "Check a receipt",
        description: "Whether Folio signed the receipt as it stands (EdDSA against the keys of " +
          "/.well-known/jwks.json, old ones included) and whether the ledger still holds its " +
          "charge with the same amounts and statement month. A forged or altered receipt is " +
          "400 invalid_receipt. Receipts verify offline too; this is a convenience.",
        body: items.receiptCheckSchema,
        ok: [200, items.receiptCheckedSchema],
        errors: [400, 413, 415],
      },
    },
    "/items/{id}": {
      get: authed({
        summary: "One charge item and its signed receipt",
        description: "The receipt is the compact JWS a charged read answered with (EdDSA over " +
          "the item; verify it against /.well-known/jwks.json).",
        params: [pathParam("id", "The item (charge) id, chg_…")],
        ok: [200, items.itemReceiptSchema],
        errors: [404],
      }),
    },
    "/disputes": {
      post: authed({
        summary: "Dispute charges",
        description: "Dispute one or more of your items (of one publisher) with a reason, " +
          "within the dispute window (default 60 days from the charge). Its publisher accepts " +
          "(in full or in part) or refuses; undecided, it goes to the operator (default after " +
          "14 days). An accepted dispute issues a credit note. Refused, changing nothing: " +
          "another buyer's item (404), past the window (409 dispute_window_closed), an item " +
          "already disputed (409 already_disputed), a credit note's item (409 " +
          "credit_note_item), an empty reason (400).",
        body: disputes.disputeOpenSchema,
        ok: [201, z.object({ dispute: disputes.disputeSchema }), "Opened"],
        errors: [400, 404, 409, 413, 415],
      }),
      get: authed({
        summary: "Your disputes, paged",
        params: queryParamsOf(disputes.disputeQuerySchema),
        ok: [200, disputes.disputePageSchema],
        errors: [400],
      }),
    },
    "/disputes/{id}": {
      get: authed({
        summary: "One dispute",
        params: [pathParam("id", "The dispute id, dsp_…")],
        ok: [200, z.object({ dispute: disputes.disputeSchema })],
        errors: [404],
      }),
    },
    "/credit-notes/{number}": {
      get: authed({
        summary: "A credit note, its negative items and their signed receipts",
        description: "Each item credits the item named by creditOf; its receipt verifies " +
          "against /.well-known/jwks.json like any charge's.",
        params: [pathParam("number", "FOLIO-CN-000001…")],
        ok: [200, disputes.creditNoteSchema],
        errors: [404],
      }),
    },
    "/session": {
      post: {
        summary: "Sign in to the buyer portal",
        description: "With email and password, or with the buyer key. Sets the " +
          "folio_buyer_session cookie; send csrfToken as X-CSRF-Token on every " +
          "cookie-authenticated change. Throttled per address and per email.",
        body: m.sessionInputSchema,
        ok: [201, m.sessionCreatedSchema, "Signed in"],
        errors: [400, 401, 413, 415, 429],
      },
      get: authed({
        summary: "Who is signed in",
        description: "With a key instead of a session, csrfToken and expiresAt are null.",
        ok: [200, m.sessionSchema],
      }),
      delete: {
        summary: "Sign out",
        description: "Ends the session and clears its cookie (X-CSRF-Token required with a live " +
          "session); without one it only clears the cookie.",
        security: [{ buyerSession: [], csrf: [] }, {}],
        ok: [204, null, "Signed out"],
        errors: [403],
      },
    },
    "/password": {
      put: authed({
        summary: "Set or change the portal password",
        description: "currentPassword is required once the account has a password. Other " +
          "sessions end; this one stays.",
        body: m.passwordInputSchema,
        example: { password: "a long passphrase" },
        ok: [204, null, "Changed"],
        errors: [400, 413, 415, 429],
      }),
    },
    "/account": {
      get: authed({
        summary: "The buyer account",
        ok: [200, m.accountSchema],
      }),
    },
  };
  Object.assign(paths, webhookPaths("buyer"), passwordResetPaths("buyer account"));
  return {
    tag: "Buyer marketplace",
    description: "For AI companies: sign up once, license publishers, and read every publisher " +
      "under one key; usage settles on one monthly statement. Authenticate with the buyer key " +
      "(`Authorization: Bearer mk_...`), or in the buyer portal with its session cookie plus " +
      "X-CSRF-Token on changes. CORS-open for key-authenticated calls.",
    auth: {
      security: [{ buyerKey: [] }, { buyerSession: [], csrf: [] }],
      errors: [401, 403],
    },
    errors: ERRORS,
    errorSchema: "Error",
    paths: Object.fromEntries(Object.entries(paths).map(([p, ops]) => [path(p), ops])),
  };
}
