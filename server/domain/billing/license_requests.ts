/**
 * License requests (docs/SPEC.md "MCP server": request_license with a publisher approval workflow).
 * The publisher approves one by making an offer (server/domain/billing/offers.ts) or denies it with
 * a reason; the request may carry the most the buyer will pay a month.
 *
 * A request from an identity that is not a buyer (an OAuth client nobody has bound yet) is kept,
 * but can only be approved once a buyer is named: when a buyer binds that client with
 * POST /api/marketplace/clients the pending request takes the buyer, and approval before that
 * answers 409 buyer_required. Licenses always belong to a buyer, who is the one billed.
 */
import { buyerOfClient } from "../../../store/buyer_clients.ts";
import { type Client, type Executor, inWriteTx } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import {
  decideLicenseRequest,
  getLicenseRequest,
  insertLicenseRequest,
  type LicenseRequest,
  listLicenseRequests,
} from "../../../store/license_requests.ts";
import { getPublisher } from "../../../store/publishers.ts";
import { nextMonth } from "./months.ts";
import { AppError, invalid, notFound } from "../../platform/errors.ts";
import { usdDecimal } from "../../platform/money.ts";
import type { UseCase } from "../licensing/mod.ts";
import { hasControlChars } from "../../platform/validate.ts";
import { notify } from "../webhooks/events.ts";

export type { LicenseRequest } from "../../../store/license_requests.ts";

/** The highest monthly price a request may name or an offer may carry: 1,000,000 USD. */
export const MAX_MONTHLY_MICROS = 1_000_000_000_000;

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
  /** The most the buyer will pay a month (micros): the publisher may not offer more. */
  maxMonthlyMicros?: number | null;
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
  const max = req.maxMonthlyMicros ?? null;
  if (max !== null && (!Number.isSafeInteger(max) || max < 0 || max > MAX_MONTHLY_MICROS)) {
    throw invalid("maxMonthlyUsd", "must be an amount from 0 to 1,000,000 USD");
  }
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
      maxMonthlyMicros: req.maxMonthlyMicros ?? null,
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
      maxMonthlyUsd: req.maxMonthlyMicros == null ? null : usdDecimal(req.maxMonthlyMicros),
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
export function monthsAfter(month: string, n: number): string {
  let m = month;
  for (let i = 0; i < n; i++) m = nextMonth(m);
  return m;
}

/** The publisher's request, if it is still pending (404, or 409 already_decided). */
export async function pendingRequest(
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

/** The buyer an identity belongs to: its own, or the one that bound the OAuth client. */
export async function buyerOfIdentity(tx: Executor, identity: string): Promise<string | null> {
  if (identity.startsWith("buyer:")) return identity.slice("buyer:".length);
  if (identity.startsWith("oauth:")) return await buyerOfClient(tx, identity.slice(6));
  return null;
}
