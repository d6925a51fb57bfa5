/**
 * The operator API's part of the OpenAPI document (issue 38; docs/decisions/operator.md), from
 * the zod schemas its routes parse with (server/surfaces/operator/schemas.ts). The areas built on
 * the operator add their paths here with `authed(...)`, one block each.
 */
import { z } from "zod";
import * as io from "../operator/schemas.ts";
import * as pay from "../operator/payout_schemas.ts";
import * as inv from "../operator/invoices_schemas.ts";
import * as disputes from "../operator/dispute_schemas.ts";
import { type Api, type Operation, pathParam, query, queryParamsOf } from "./kit.ts";
import { passwordResetPaths } from "./password_reset.ts";

const ERRORS: Record<number, string> = {
  400: "Invalid input; the message names the field and the problem, and `param` the field",
  401: "Missing or invalid operator key or session, or a sign-in step not passed",
  403: "A publisher's or buyer's credential, or a cookie-authenticated change without a " +
    "matching X-CSRF-Token",
  404: "Not found",
  409: "Conflicts with the current state",
  413: "Body too large",
  415: "Unsupported media type",
  429: "Too many attempts from this address; see Retry-After",
  503: "Email is off on this node (FOLIO_SMTP_URL unset): no reset link can be sent",
};

/** The sign-in steps after the password: the session cookie of that step and its CSRF token. */
const SIGNING_IN = [{ operatorSession: [], csrf: [] }];
const BODY_ERRORS = [400, 413, 415];
const CSV = { "text/csv": { schema: { type: "string" } } };

/** The operator API. */
export function operatorApi(): Api {
  const authed = (o: Omit<Operation, "auth">): Operation => ({ ...o, auth: true });
  return {
    tag: "Operator",
    description: "The operator console's own API, for whoever runs the node. Authenticate with " +
      "an operator key (`Authorization: Bearer opk_...`, made in the console or the API) or the " +
      "operator session cookie after both sign-in steps (password, then a TOTP or recovery " +
      "code) plus its X-CSRF-Token on changes. Publisher and buyer credentials are refused " +
      "(403). Every change is recorded in the audit log.",
    auth: {
      security: [{ operatorKey: [] }, { operatorSession: [], csrf: [] }],
      errors: [401, 403],
    },
    errors: ERRORS,
    errorSchema: "Error",
    paths: {
      "/api/operator/login": {
        post: {
          summary: "Sign in, step one: email and password",
          description: "Sets the operator session cookie for the second step (10 minutes). " +
            "`next` says whether to pass the second factor or, the first time, enrol one.",
          body: io.operatorLoginSchema,
          example: { email: "ops@example.com", password: "a long passphrase" },
          ok: [200, io.operatorLoginAnswerSchema],
          errors: [...BODY_ERRORS, 401, 429],
        },
        get: {
          summary: "The sign-in in progress",
          security: SIGNING_IN,
          ok: [200, io.signInStateSchema],
          errors: [401],
        },
      },
      "/api/operator/login/second-factor": {
        post: {
          summary: "Sign in, step two: a TOTP code or a recovery code",
          description: "A code is accepted once (a replay within its window is refused); a " +
            "recovery code works once. The session becomes full for 12 hours.",
          security: SIGNING_IN,
          body: io.secondFactorSchema,
          example: { code: "123456" },
          ok: [200, io.fullSessionSchema],
          errors: [...BODY_ERRORS, 401, 403, 429],
        },
      },
      "/api/operator/enrolment": {
        post: {
          summary: "Enrol a second factor: the TOTP secret to add to an authenticator",
          description: "Only before the first enrolment; the same secret until it is confirmed, " +
            "never shown after.",
          security: SIGNING_IN,
          ok: [200, io.enrolmentSchema],
          errors: [401, 403, 409],
        },
      },
      "/api/operator/enrolment/confirm": {
        post: {
          summary: "Confirm the enrolment with a code: ten recovery codes, shown once",
          security: SIGNING_IN,
          body: io.confirmSchema,
          example: { code: "123456" },
          ok: [200, io.enrolledSchema],
          errors: [...BODY_ERRORS, 401, 403, 409, 429],
        },
      },
      ...Object.fromEntries(
        Object.entries(passwordResetPaths("operator"))
          .map(([p, ops]) => [`/api/operator${p}`, ops]),
      ),
      "/api/operator/logout": {
        post: { summary: "Sign out (ends the session)", ok: [204, null] },
      },
      "/api/operator/session": {
        get: authed({ summary: "Who is signed in", ok: [200, io.operatorSessionSchema] }),
      },
      "/api/operator/operators": {
        get: authed({ summary: "The node's operators", ok: [200, io.operatorListSchema] }),
      },
      "/api/operator/keys": {
        get: authed({
          summary: "Operator keys (hints, never the keys)",
          ok: [200, io.keyListSchema],
        }),
        post: authed({
          summary: "Make an operator key (shown once)",
          body: io.newKeySchema,
          example: { name: "month-end script" },
          ok: [201, io.createdKeySchema],
          errors: BODY_ERRORS,
        }),
      },
      "/api/operator/keys/{id}": {
        delete: authed({
          summary: "Revoke an operator key (at once)",
          params: [pathParam("id")],
          ok: [200, io.operatorKeySchema],
          errors: [404, 409],
        }),
      },
      "/api/operator/recovery-codes": {
        post: authed({
          summary: "New recovery codes (the old ones stop working), shown once",
          ok: [201, io.recoveryCodesSchema],
        }),
      },
      "/api/operator/recovery-codes/reveal": {
        post: authed({
          summary: "The recovery codes this session just made, once (the console's page)",
          ok: [200, io.recoveryCodesSchema],
          errors: [404],
        }),
      },
      "/api/operator/payouts": {
        get: authed({
          summary: "Payouts with their state, amount due now, holds and payee (masked)",
          description:
            "held (each hold with its reason), due (free for the next batch), approved " +
            "(in a batch), paid. Amounts are the publisher's share of what buyers paid, whole " +
            'cents (docs/decisions/billing.md "Payouts paid"). Paged by offset.',
          params: queryParamsOf(pay.payoutQuerySchema),
          ok: [200, pay.payoutListSchema],
          errors: [400],
        }),
      },
      "/api/operator/payouts/{id}/hold": {
        post: authed({
          summary: "Put a payout not yet batched under review, with a reason",
          params: [pathParam("id")],
          body: pay.reviewHoldSchema,
          example: { reason: "Checking the account holder's name" },
          ok: [200, z.object({ payout: pay.operatorPayoutSchema })],
          errors: [...BODY_ERRORS, 404, 409],
        }),
      },
      "/api/operator/payouts/{id}/release": {
        post: authed({
          summary: "Release a payout's review hold",
          params: [pathParam("id")],
          body: pay.releaseSchema,
          ok: [200, z.object({ payout: pay.operatorPayoutSchema })],
          errors: [...BODY_ERRORS, 404, 409],
        }),
      },
      "/api/operator/payouts/{id}/paid": {
        post: authed({
          summary: "Mark one approved payout paid, with the date and the transfer's reference",
          description: "409 payout_not_batched before its batch is approved, 409 " +
            "payout_already_paid the second time. The publisher gets payout.paid.",
          params: [pathParam("id")],
          body: pay.paidInputSchema,
          example: { paidOn: "2026-12-03", reference: "SEPA-20261203-0001" },
          ok: [200, pay.paidAnswerSchema],
          errors: [...BODY_ERRORS, 404, 409],
        }),
      },
      "/api/operator/payout-batches": {
        get: authed({
          summary: "Approved batches, newest first",
          params: [query("month", { type: "string", pattern: "^\\d{4}-\\d{2}$" })],
          ok: [200, pay.batchListSchema],
        }),
        post: authed({
          summary: "Approve a batch: the payouts due up to a month and not held",
          description: "Each payout pays what is due now. Refused with nothing written: a held " +
            "payout (409 payout_held, with the reasons), one already in a batch (409 " +
            "payout_already_batched), nothing due (409 nothing_to_pay).",
          body: pay.batchInputSchema,
          example: { month: "2026-11" },
          ok: [201, pay.batchAnswerSchema],
          errors: [...BODY_ERRORS, 404, 409],
        }),
      },
      "/api/operator/payout-batches/{id}": {
        get: authed({
          summary: "A batch and its payouts",
          params: [pathParam("id")],
          ok: [200, pay.batchAnswerSchema],
          errors: [404],
        }),
      },
      "/api/operator/payout-batches/{id}/csv": {
        get: authed({
          summary: "The batch's payout file (CSV for a bank or payment provider); audited",
          description: "Columns payout_id, batch_id, month, publisher_id, legal_name, country, " +
            "currency, method, iban, bic, account_number, routing_number, account_type, " +
            "provider, email, amount_usd, amount_usd_micros, remittance. The payee's details " +
            "in full: the one place they are opened.",
          params: [pathParam("id")],
          ok: [200, CSV],
          errors: [404],
        }),
      },
      "/api/operator/payout-batches/{id}/paid": {
        post: authed({
          summary: "Mark every unpaid payout of a batch paid (one transfer reference)",
          params: [pathParam("id")],
          body: pay.paidInputSchema,
          example: { paidOn: "2026-12-03", reference: "WISE-BATCH-8812" },
          ok: [200, pay.paidAnswerSchema],
          errors: [...BODY_ERRORS, 404, 409],
        }),
      },
      "/api/operator/desk": {
        get: authed({
          summary:
            "The desk: a month's money (billed, collected, outstanding, overdue, credited, " +
            "platform fees, payouts) and the months before it",
          params: queryParamsOf(pay.deskQuerySchema),
          ok: [200, pay.deskSchema],
          errors: [400],
        }),
      },
      "/api/operator/desk/csv": {
        get: authed({
          summary: "The desk's months as CSV (one row per month, micro-dollars)",
          params: queryParamsOf(pay.deskQuerySchema),
          ok: [200, CSV],
          errors: [400],
        }),
      },
      "/api/operator/audit": {
        get: authed({
          summary: "The audit log, newest first, filtered and paged",
          params: queryParamsOf(io.auditQuerySchema),
          ok: [200, io.auditPageSchema],
          errors: [400],
        }),
      },
      "/api/operator/audit/csv": {
        get: authed({
          summary: "The audit log as CSV, same filters",
          params: queryParamsOf(io.auditExportQuerySchema),
          ok: [200, CSV],
          errors: [400],
        }),
      },
      "/api/operator/disputes": {
        get: authed({
          summary: "Every dispute, by state, publisher or buyer, paged",
          description: "Escalated disputes (undecided past their deadline) are the operator's " +
            "to decide; open ones the operator may decide too.",
          params: queryParamsOf(disputes.operatorDisputeQuerySchema),
          ok: [200, disputes.disputePageSchema],
          errors: [400],
        }),
      },
      "/api/operator/disputes/{id}": {
        get: authed({
          summary: "One dispute",
          params: [pathParam("id", "The dispute id, dsp_…")],
          ok: [200, z.object({ dispute: disputes.disputeSchema })],
          errors: [404],
        }),
      },
      "/api/operator/disputes/{id}/decision": {
        post: authed({
          summary: "Decide a dispute",
          description: "As the publisher's decision (accept in full, for an amount or per " +
            "item; or refuse with a reason), for any undecided dispute. Audited with the " +
            "dispute before and after. A decided dispute is 409 dispute_decided.",
          params: [pathParam("id", "The dispute id, dsp_…")],
          body: disputes.disputeDecisionSchema,
          ok: [200, z.object({ dispute: disputes.disputeSchema })],
          errors: [...BODY_ERRORS, 404, 409],
        }),
      },
      ...receivablesPaths(authed),
    },
  };
}

/** Invoices and suspensions (issue 38 parts 2 and 3). */
function receivablesPaths(authed: (o: Omit<Operation, "auth">) => Operation) {
  const number = pathParam("number", "FOLIO-000042");
  const action = (summary: string, description: string) => ({
    post: authed({
      summary,
      description,
      params: [number],
      body: inv.reasonSchema,
      ok: [200, inv.operatorInvoiceSchema],
      errors: [...BODY_ERRORS, 404, 409],
    }),
  });
  return {
    "/api/operator/invoices": {
      get: authed({
        summary: "Invoices, newest first, by state (or overdue), buyer and month, paged",
        params: queryParamsOf(inv.invoiceQuerySchema),
        ok: [200, inv.invoicePageSchema],
        errors: [400],
      }),
    },
    "/api/operator/invoices/{number}": {
      get: authed({
        summary: "One invoice with its payments",
        params: [number],
        ok: [200, inv.operatorInvoiceSchema],
        errors: [404],
      }),
    },
    "/api/operator/invoices/{number}/payments": {
      post: authed({
        summary: "Record a payment (partial payments; an overpayment becomes credit)",
        description: "Whole cents, more than zero, at most what is left plus the larger of that " +
          "and 100 USD (payment_too_large). Refused on a void (invoice_void), uncollectible " +
          "(invoice_uncollectible) or paid (invoice_paid) invoice. Idempotent by " +
          "`idempotencyKey`: a retry answers 200 with `replayed: true` and records nothing; the " +
          "same key for another amount is 409 idempotency_key_reused. Paying in full lifts a " +
          "suspension the invoice caused. Audited.",
        params: [number],
        body: inv.paymentInputSchema,
        example: {
          amountUsdMicros: 12_340_000,
          paidOn: "2026-12-20",
          method: "bank_transfer",
          reference: "SEPA 2026-12-20 ACME",
          idempotencyKey: "bank-statement-line-4711",
        },
        ok: [201, inv.paymentAnswerSchema, "Recorded"],
        also: [[200, inv.paymentAnswerSchema, "Recorded before under this key: nothing changed"]],
        errors: [...BODY_ERRORS, 404, 409],
      }),
    },
    "/api/operator/invoices/{number}/void": action(
      "Void an invoice issued in error",
      "Only open ones without payments (invoice_has_payments); the credit it used goes back to " +
        "the buyer; a suspension it caused is lifted. Audited with the reason.",
    ),
    "/api/operator/invoices/{number}/uncollectible": action(
      "Mark an invoice uncollectible (written off)",
      "Open or partly paid ones; it takes no payments after. A suspension stays until lifted " +
        "by hand. Audited with the reason.",
    ),
    "/api/operator/suspensions": {
      get: authed({
        summary: "Suspensions, open ones first, then newest, paged",
        params: queryParamsOf(inv.suspensionQuerySchema),
        ok: [200, inv.suspensionPageSchema],
        errors: [400],
      }),
      post: authed({
        summary: "Suspend a buyer by hand, with a reason",
        description: "Its priced reads answer payment_overdue on every surface until lifted; 409 " +
          "already_suspended. Audited.",
        body: inv.suspendInputSchema,
        ok: [201, inv.suspensionStateSchema],
        errors: [...BODY_ERRORS, 404, 409],
      }),
    },
    "/api/operator/suspensions/{buyerId}/lift": {
      post: authed({
        summary: "Lift a buyer's suspension, with a reason",
        description: "Whatever caused it; 409 not_suspended. Audited.",
        params: [pathParam("buyerId")],
        body: inv.liftInputSchema,
        ok: [200, inv.suspensionStateSchema],
        errors: [...BODY_ERRORS, 409],
      }),
    },
  };
}
