/**
 * License requests (docs/SPEC.md "MCP server": request_license with a publisher approval workflow) and
 * the licenses an approval creates: a `request` license for the one use asked for (fine_tuning
 * included, for that publisher only), or an `enterprise` license on the publisher's enterprise
 * terms, billed monthly like a subscription.
 *
 * A request from an identity that is not a buyer (an OAuth client nobody has bound yet) is kept,
 * but can only be approved once a buyer is named: when a buyer binds that client with
 * POST /api/marketplace/clients the pending request takes the buyer, and approval before that
 * answers 409 buyer_required. Licenses always belong to a buyer, who is the one billed.
 */
import { buyerOfClient } from "../../../store/buyer_clients.ts";
import { insertSubscriptionCharge } from "../../../store/charges.ts";
import { type Client, type Executor, inWriteTx } from "../../../store/db.ts";
import { newId, newTimeOrderedId } from "../../../store/ids.ts";
import {
  decideLicenseRequest,
  getLicenseRequest,
  insertLicenseRequest,
  type LicenseRequest,
  listLicenseRequests,
} from "../../../store/license_requests.ts";
import { insertLicense, type License } from "../../../store/licenses.ts";
import { getPublisher, type Publisher } from "../../../store/publishers.ts";
import { monthOf } from "../../platform/clock.ts";
import { monthStart, nextMonth } from "./months.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import type { UseCase } from "../licensing/mod.ts";
import { hasControlChars } from "../../platform/validate.ts";
import { notify } from "../webhooks/events.ts";

export type { LicenseRequest } from "../../../store/license_requests.ts";

/** Use cases a license request may ask for. */
export const REQUESTABLE_USES: readonly UseCase[] = [
  "summarization",
  "display",
  "rag",
  "fine_tuning",
];

/** A request as submitted by the request_license tool (or any other surface). */
export interface NewLicenseRequest {
  publisherId: string;
  /** Meter identity of the requester: `buyer:<id>`, `oauth:<clientId>`, `sess:<id>`. */
  identity: string;
  buyerId: string | null;
  useCase: string;
  message: string;
  contact: string | null;
  /** Ask for the publisher's enterprise license instead of one use. */
  enterprise?: boolean;
}

/** Validates and stores a pending request; a repeat of a pending one returns that one. */
export async function createLicenseRequest(
  db: Client,
  req: NewLicenseRequest,
  options: { now: Date },
): Promise<{ requestId: string; state: "pending" }> {
  if (!REQUESTABLE_USES.includes(req.useCase as UseCase)) {
    throw invalid("use_case", `must be one of ${REQUESTABLE_USES.join(", ")}`);
  }
  const message = typeof req.message === "string" ? req.message.trim() : "";
  if (message.length < 1 || message.length > 2000 || hasControlChars(message)) {
    throw invalid("message", "must be 1 to 2000 characters without control characters");
  }
  const contact = typeof req.contact === "string" && req.contact.trim() ? req.contact.trim() : null;
  if (contact !== null && (contact.length > 200 || hasControlChars(contact))) {
    throw invalid("contact", "must be at most 200 characters without control characters");
  }
  if (!req.identity || req.identity.length > 300) throw invalid("identity", "is required");
  const publisher = await getPublisher(db, req.publisherId);
  if (!publisher) throw notFound("Publisher");
  if (req.enterprise && !publisher.enterpriseTerms) {
    throw invalid("enterprise", `${publisher.name} does not offer an enterprise license`);
  }
  const pending = await listLicenseRequests(db, publisher.id, { state: "pending", limit: 500 });
  const same = pending.find((r) =>
    r.identity === req.identity && r.useCase === req.useCase &&
    r.enterprise === Boolean(req.enterprise)
  );
  if (same) return { requestId: same.id, state: "pending" };
  const requestId = newId("lreq");
  // The publisher's webhook is queued with the request, in one write (docs/decisions/webhooks.md).
  await inWriteTx(db, async (tx) => {
    await insertLicenseRequest(tx, publisher.id, {
      id: requestId,
      buyerId: req.buyerId,
      identity: req.identity,
      useCase: req.useCase,
      enterprise: Boolean(req.enterprise),
      message,
      contact,
      now: options.now,
    });
    await notify(tx, { kind: "publisher", id: publisher.id }, "license_request.created", {
      requestId,
      requester: req.identity,
      buyerId: req.buyerId,
      useCase: req.useCase,
      enterprise: Boolean(req.enterprise),
      message,
      contact,
    }, { now: options.now });
  });
  return { requestId, state: "pending" };
}

/** The publisher's requests, newest first. */
export function listRequests(
  db: Client,
  publisherId: string,
  options: { state?: LicenseRequest["state"] } = {},
): Promise<LicenseRequest[]> {
  return listLicenseRequests(db, publisherId, options);
}

/** What the publisher decides on approval; both optional. */
export interface ApprovalTerms {
  /** Monthly price of the license; default: the enterprise terms' price, or 0 (free). */
  monthlyPriceMicros?: number;
  /** Calendar months the license runs, the approval's month included; default: until canceled. */
  termMonths?: number;
}

/** The license an approval created, as the publisher sees it. */
export type ApprovedLicense = Pick<
  License,
  "id" | "kind" | "useCases" | "monthlyFeeMicros" | "termMonths" | "expiresAt"
>;

/**
 * Approves a pending request and creates its license, exactly once. A license with a monthly price
 * is billed for the approval's month at once and renews on the 1st like a subscription; a term
 * ends it at the start of the month after its last month (no proration, as subscriptions).
 */
export async function approveLicenseRequest(
  db: Client,
  publisher: Publisher,
  options: { requestId: string; now: Date } & ApprovalTerms,
): Promise<{ request: LicenseRequest; license: ApprovedLicense }> {
  const tx = await db.transaction("write");
  try {
    const request = await pendingRequest(tx, publisher.id, options.requestId);
    const buyerId = request.buyerId ?? await buyerOfIdentity(tx, request.identity);
    if (!buyerId) {
      throw new AppError(
        409,
        "buyer_required",
        "The requester is not linked to a buyer account yet: they must sign up at " +
          "/api/marketplace/signup and register their client with POST /api/marketplace/clients",
      );
    }
    const enterprise = request.enterprise ? publisher.enterpriseTerms : null;
    if (request.enterprise && !enterprise) {
      throw new AppError(
        409,
        "enterprise_terms_missing",
        "Set enterprise terms before approving an enterprise request",
      );
    }
    const price = options.monthlyPriceMicros ?? enterprise?.monthlyPriceMicros ?? 0;
    const termMonths = options.termMonths ?? null;
    const month = monthOf(options.now);
    const license: ApprovedLicense = {
      id: newId("lic"),
      kind: enterprise ? "enterprise" : "request",
      useCases: [...new Set([...(enterprise?.useCases ?? []), request.useCase as UseCase])],
      monthlyFeeMicros: price,
      termMonths,
      expiresAt: termMonths === null ? null : monthStart(monthsAfter(month, termMonths)).getTime(),
    };
    await insertLicense(tx, buyerId, {
      ...license,
      publisherId: publisher.id,
      state: "active",
      terms: enterprise ? JSON.stringify({ ...enterprise, monthlyPriceMicros: price }) : null,
      expiresAt: license.expiresAt === null ? null : new Date(license.expiresAt),
      now: options.now,
    });
    if (price > 0) {
      await insertSubscriptionCharge(tx, buyerId, {
        id: newTimeOrderedId("chg", options.now),
        licenseId: license.id,
        publisherId: publisher.id,
        feeMicros: price,
        month,
        prepaid: false,
        now: options.now,
      });
    }
    const decided = {
      state: "approved" as const,
      buyerId,
      licenseId: license.id,
      priceMicros: price,
      termMonths,
    };
    await decideLicenseRequest(tx, publisher.id, {
      id: request.id,
      ...decided,
      now: options.now,
    });
    await tx.commit();
    return {
      request: { ...request, ...decided, decidedAt: options.now.toISOString(), reason: null },
      license,
    };
  } finally {
    tx.close();
  }
}

/** Denies a pending request, with the publisher's reason when given. */
export async function denyLicenseRequest(
  db: Client,
  publisherId: string,
  options: { requestId: string; reason?: string | null; now: Date },
): Promise<LicenseRequest> {
  const tx = await db.transaction("write");
  try {
    const request = await pendingRequest(tx, publisherId, options.requestId);
    const reason = options.reason ?? null;
    await decideLicenseRequest(tx, publisherId, {
      id: request.id,
      state: "denied",
      reason,
      now: options.now,
    });
    await tx.commit();
    return { ...request, state: "denied", reason, decidedAt: options.now.toISOString() };
  } finally {
    tx.close();
  }
}

/** The month `n` months after `month` ("YYYY-MM"). */
function monthsAfter(month: string, n: number): string {
  let m = month;
  for (let i = 0; i < n; i++) m = nextMonth(m);
  return m;
}

async function pendingRequest(
  tx: Executor,
  publisherId: string,
  id: string,
): Promise<LicenseRequest> {
  const request = await getLicenseRequest(tx, publisherId, id);
  if (!request) throw notFound("License request");
  if (request.state !== "pending") {
    throw new AppError(409, "already_decided", `The license request was already ${request.state}`);
  }
  return request;
}

async function buyerOfIdentity(tx: Executor, identity: string): Promise<string | null> {
  if (identity.startsWith("buyer:")) return identity.slice("buyer:".length);
  if (identity.startsWith("oauth:")) return await buyerOfClient(tx, identity.slice(6));
  return null;
}
