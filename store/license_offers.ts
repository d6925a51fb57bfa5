/**
 * Persistence of license offers (migration 0028): what a publisher offers when it approves a
 * license request, until the buyer accepts or declines it or it expires.
 */
import type { Client, Executor } from "./db.ts";
import type { UseCase } from "./vocabulary.ts";

/** An offer row; `state` is the row's, before the clock's expiry is applied. */
export interface LicenseOffer {
  id: string;
  requestId: string;
  publisherId: string;
  buyerId: string;
  kind: "request" | "enterprise";
  useCases: UseCase[];
  monthlyMicros: number;
  termMonths: number | null;
  /** The enterprise terms offered, as JSON (null for a single use). */
  terms: string | null;
  /** The publisher's words to the buyer, if any. */
  note: string | null;
  expiresAt: number;
  state: "open" | "accepted" | "declined" | "expired";
  licenseId: string | null;
  declineReason: string | null;
  decidedAt: number | null;
  createdAt: number;
}

/** Inserts an open offer. */
export async function insertOffer(
  db: Executor,
  o: Omit<LicenseOffer, "state" | "licenseId" | "declineReason" | "decidedAt">,
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO license_offers (id, request_id, publisher_id, buyer_id, kind, use_cases,
            monthly_micros, term_months, terms, note, expires_at, state, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
    args: [
      o.id,
      o.requestId,
      o.publisherId,
      o.buyerId,
      o.kind,
      JSON.stringify(o.useCases),
      o.monthlyMicros,
      o.termMonths,
      o.terms,
      o.note,
      o.expiresAt,
      o.createdAt,
    ],
  });
}

/** One of the buyer's offers (another buyer's is not found). */
export async function getBuyerOffer(
  db: Executor,
  buyerId: string,
  id: string,
): Promise<LicenseOffer | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM license_offers WHERE buyer_id = ? AND id = ?",
    args: [buyerId, id],
  });
  return rs.rows[0] ? toOffer(rs.rows[0]) : null;
}

/** The buyer's offers, newest first. */
export async function listBuyerOffers(
  db: Client,
  buyerId: string,
  options: { limit?: number } = {},
): Promise<LicenseOffer[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM license_offers WHERE buyer_id = ?
          ORDER BY created_at DESC, id DESC LIMIT ?`,
    args: [buyerId, options.limit ?? 200],
  });
  return rs.rows.map(toOffer);
}

/** The offers made on these requests, by request id. */
export async function offersOfRequests(
  db: Executor,
  requestIds: readonly string[],
): Promise<Map<string, LicenseOffer>> {
  if (requestIds.length === 0) return new Map();
  const rs = await db.execute({
    sql: `SELECT * FROM license_offers WHERE request_id IN (${
      requestIds.map(() => "?").join(", ")
    })`,
    args: [...requestIds],
  });
  return new Map(rs.rows.map((r) => [String(r.request_id), toOffer(r)]));
}

/**
 * Moves an open offer to `state` once; false when it was not open any more (a concurrent accept
 * or decline won). Accepting or declining also requires it not to have expired at `now`.
 */
export async function closeOffer(
  db: Executor,
  id: string,
  d: {
    state: "accepted" | "declined" | "expired";
    licenseId?: string;
    declineReason?: string | null;
    now: Date;
  },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE license_offers SET state = ?, license_id = ?, decline_reason = ?, decided_at = ?
          WHERE id = ? AND state = 'open'
            AND (CASE WHEN ? = 'expired' THEN expires_at <= ? ELSE expires_at > ? END)`,
    args: [
      d.state,
      d.licenseId ?? null,
      d.declineReason ?? null,
      d.now.getTime(),
      id,
      d.state,
      d.now.getTime(),
      d.now.getTime(),
    ],
  });
  return rs.rowsAffected === 1;
}

// deno-lint-ignore no-explicit-any
function toOffer(r: any): LicenseOffer {
  const n = (v: unknown) => (v === null ? null : Number(v));
  return {
    id: String(r.id),
    requestId: String(r.request_id),
    publisherId: String(r.publisher_id),
    buyerId: String(r.buyer_id),
    kind: String(r.kind) as LicenseOffer["kind"],
    useCases: JSON.parse(String(r.use_cases)),
    monthlyMicros: Number(r.monthly_micros),
    termMonths: n(r.term_months),
    terms: r.terms === null ? null : String(r.terms),
    note: r.note === null ? null : String(r.note),
    expiresAt: Number(r.expires_at),
    state: String(r.state) as LicenseOffer["state"],
    licenseId: r.license_id === null ? null : String(r.license_id),
    declineReason: r.decline_reason === null ? null : String(r.decline_reason),
    decidedAt: n(r.decided_at),
    createdAt: Number(r.created_at),
  };
}
