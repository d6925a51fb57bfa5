/** Persistence of license requests (the request_license workflow, docs/SPEC.md "MCP server"). */
import type { Client, Executor } from "./db.ts";

/** A request for a license, as the publisher sees it. */
export interface LicenseRequest {
  id: string;
  publisherId: string;
  buyerId: string | null;
  identity: string;
  useCase: string;
  enterprise: boolean;
  message: string;
  contact: string | null;
  state: "pending" | "approved" | "denied";
  licenseId: string | null;
  createdAt: string;
  decidedAt: string | null;
  /** Set on approval: the license's monthly price (micros) and term (months; null: open-ended). */
  priceMicros: number | null;
  termMonths: number | null;
  /** Set on denial when the publisher gave one. */
  reason: string | null;
  /** The most the buyer said it will pay a month (micros); null: not said. */
  maxMonthlyMicros: number | null;
}

/** Inserts a pending request. */
export async function insertLicenseRequest(
  db: Executor,
  publisherId: string,
  r:
    & Pick<
      LicenseRequest,
      | "id"
      | "buyerId"
      | "identity"
      | "useCase"
      | "enterprise"
      | "message"
      | "contact"
      | "maxMonthlyMicros"
    >
    & { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO license_requests (id, publisher_id, buyer_id, identity, use_case, enterprise,
            message, contact, max_monthly_micros, state, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    args: [
      r.id,
      publisherId,
      r.buyerId,
      r.identity,
      r.useCase,
      r.enterprise ? 1 : 0,
      r.message,
      r.contact,
      r.maxMonthlyMicros,
      r.now.getTime(),
    ],
  });
}

/** The publisher's requests, newest first, optionally in one state. */
export async function listLicenseRequests(
  db: Client,
  publisherId: string,
  options: { state?: LicenseRequest["state"]; limit?: number } = {},
): Promise<LicenseRequest[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM license_requests WHERE publisher_id = ? AND (? IS NULL OR state = ?)
          ORDER BY created_at DESC, id DESC LIMIT ?`,
    args: [publisherId, options.state ?? null, options.state ?? null, options.limit ?? 200],
  });
  return rs.rows.map(toRequest);
}

/** The requests a buyer made (or that were bound to it), newest first. */
export async function listBuyerRequests(
  db: Client,
  buyerId: string,
  options: { limit?: number } = {},
): Promise<LicenseRequest[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM license_requests WHERE buyer_id = ?
          ORDER BY created_at DESC, id DESC LIMIT ?`,
    args: [buyerId, options.limit ?? 200],
  });
  return rs.rows.map(toRequest);
}

/** The requests one identity made of one publisher, newest first (what an agent asked). */
export async function listIdentityRequests(
  db: Client,
  publisherId: string,
  identity: string,
  options: { limit?: number } = {},
): Promise<LicenseRequest[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM license_requests WHERE publisher_id = ? AND identity = ?
          ORDER BY created_at DESC, id DESC LIMIT ?`,
    args: [publisherId, identity, options.limit ?? 50],
  });
  return rs.rows.map(toRequest);
}

/** Records the license an accepted offer created on its request. */
export async function setRequestLicense(
  db: Executor,
  id: string,
  licenseId: string,
): Promise<void> {
  await db.execute({
    sql: "UPDATE license_requests SET license_id = ? WHERE id = ?",
    args: [licenseId, id],
  });
}

/** One of the publisher's requests. */
export async function getLicenseRequest(
  db: Executor,
  publisherId: string,
  id: string,
): Promise<LicenseRequest | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM license_requests WHERE publisher_id = ? AND id = ?",
    args: [publisherId, id],
  });
  return rs.rows[0] ? toRequest(rs.rows[0]) : null;
}

/** Moves a pending request to approved or denied; false when it was no longer pending. */
export async function decideLicenseRequest(
  db: Executor,
  publisherId: string,
  d: {
    id: string;
    state: "approved" | "denied";
    buyerId?: string;
    licenseId?: string;
    priceMicros?: number;
    termMonths?: number | null;
    reason?: string | null;
    now: Date;
  },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE license_requests SET state = ?, license_id = ?, buyer_id = COALESCE(?, buyer_id),
            price_micros = ?, term_months = ?, reason = ?, decided_at = ?
          WHERE publisher_id = ? AND id = ? AND state = 'pending'`,
    args: [
      d.state,
      d.licenseId ?? null,
      d.buyerId ?? null,
      d.priceMicros ?? null,
      d.termMonths ?? null,
      d.reason ?? null,
      d.now.getTime(),
      publisherId,
      d.id,
    ],
  });
  return rs.rowsAffected === 1;
}

/** Names the buyer on pending requests made by `identity` before it was bound to a buyer. */
export async function attachBuyerToRequests(
  db: Executor,
  identity: string,
  buyerId: string,
): Promise<number> {
  const rs = await db.execute({
    sql: `UPDATE license_requests SET buyer_id = ?
          WHERE identity = ? AND buyer_id IS NULL AND state = 'pending'`,
    args: [buyerId, identity],
  });
  return rs.rowsAffected;
}

// deno-lint-ignore no-explicit-any
function toRequest(r: any): LicenseRequest {
  return {
    id: String(r.id),
    publisherId: String(r.publisher_id),
    buyerId: r.buyer_id === null ? null : String(r.buyer_id),
    identity: String(r.identity),
    useCase: String(r.use_case),
    enterprise: Number(r.enterprise) === 1,
    message: String(r.message),
    contact: r.contact === null ? null : String(r.contact),
    state: String(r.state) as LicenseRequest["state"],
    licenseId: r.license_id === null ? null : String(r.license_id),
    createdAt: new Date(Number(r.created_at)).toISOString(),
    decidedAt: r.decided_at === null ? null : new Date(Number(r.decided_at)).toISOString(),
    priceMicros: r.price_micros === null ? null : Number(r.price_micros),
    termMonths: r.term_months === null ? null : Number(r.term_months),
    reason: r.reason === null ? null : String(r.reason),
    maxMonthlyMicros: r.max_monthly_micros === null ? null : Number(r.max_monthly_micros),
  };
}
