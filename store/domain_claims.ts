/**
 * Custom domain claims (migration 0023): one per publisher, pending until its owner proves the
 * domain. `publishers.custom_domain` holds only a verified domain, so routing reads it unchanged;
 * verifying writes both in one batch.
 */
import type { Client } from "./db.ts";

export type ClaimState = "pending" | "verified" | "released";
/** How a claim was proven: its DNS TXT record, its HTTP token, or the operator's configuration. */
export type ClaimMethod = "dns" | "http" | "trusted";

export interface DomainClaim {
  publisherId: string;
  domain: string;
  token: string;
  state: ClaimState;
  method: ClaimMethod | null;
  createdAt: number;
  checkedAt: number | null;
  note: string | null;
}

/** The publisher's claim, whatever its state. */
export async function getDomainClaim(db: Client, publisherId: string): Promise<DomainClaim | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM domain_claims WHERE publisher_id = ?",
    args: [publisherId],
  });
  return rs.rows[0] ? toClaim(rs.rows[0]) : null;
}

/** Pending claims, least recently checked first (the periodic re-check). */
export async function listPendingClaims(db: Client, limit: number): Promise<DomainClaim[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM domain_claims WHERE state = 'pending'
          ORDER BY coalesce(checked_at, 0), publisher_id LIMIT ?`,
    args: [limit],
  });
  return rs.rows.map(toClaim);
}

/**
 * Replaces the publisher's claim with a pending one for `domain`. A domain it already routes keeps
 * serving until the new one is proven (verifyClaim() then moves the route): moving a site must not
 * take it offline.
 */
export async function putPendingClaim(
  db: Client,
  claim: { publisherId: string; domain: string; token: string; note: string },
  options: { now: Date },
): Promise<void> {
  await db.batch([
    {
      sql: `INSERT OR REPLACE INTO domain_claims
              (publisher_id, domain, token, state, method, created_at, checked_at, note)
            VALUES (?, ?, ?, 'pending', NULL, ?, NULL, ?)`,
      args: [claim.publisherId, claim.domain, claim.token, options.now.getTime(), claim.note],
    },
  ], "write");
}

/**
 * Makes the publisher's claim the domain it already routes, verified as it was (the publisher
 * changed its mind while another domain waited for proof).
 */
export async function keepRoutedClaim(
  db: Client,
  claim: { publisherId: string; domain: string; token: string; note: string },
  options: { now: Date },
): Promise<void> {
  const now = options.now.getTime();
  await db.execute({
    sql: `INSERT OR REPLACE INTO domain_claims
            (publisher_id, domain, token, state, method, created_at, checked_at, note)
          SELECT ?, custom_domain, ?, 'verified', 'kept', ?, ?, ? FROM publishers
          WHERE id = ? AND custom_domain = ?`,
    args: [claim.publisherId, claim.token, now, now, claim.note, claim.publisherId, claim.domain],
  });
}

/** Removes the publisher's claim and its routed domain. */
export async function dropClaim(
  db: Client,
  publisherId: string,
  options: { now: Date },
): Promise<void> {
  await db.batch([
    { sql: "DELETE FROM domain_claims WHERE publisher_id = ?", args: [publisherId] },
    unroute(publisherId, options.now),
  ], "write");
}

/** Records a check that did not prove the claim (still pending) and what it found. */
export async function notePendingCheck(
  db: Client,
  claim: Pick<DomainClaim, "publisherId" | "token">,
  note: string,
  options: { now: Date },
): Promise<void> {
  await db.execute({
    sql: `UPDATE domain_claims SET checked_at = ?, note = ?
          WHERE publisher_id = ? AND token = ? AND state = 'pending'`,
    args: [options.now.getTime(), note, claim.publisherId, claim.token],
  });
}

/**
 * Marks the claim verified, routes its domain to the publisher, and releases every other pending
 * claim on that domain with `releasedNote`, in one write. Returns false when the claim changed
 * meanwhile; throws the store's UNIQUE error when another publisher holds the domain verified.
 */
export async function verifyClaim(
  db: Client,
  claim: Pick<DomainClaim, "publisherId" | "token" | "domain">,
  verified: { method: ClaimMethod; note: string; releasedNote: string },
  options: { now: Date },
): Promise<boolean> {
  const now = options.now.getTime();
  const [marked] = await db.batch([
    {
      sql: `UPDATE domain_claims SET state = 'verified', method = ?, checked_at = ?, note = ?
            WHERE publisher_id = ? AND token = ? AND state = 'pending'`,
      args: [verified.method, now, verified.note, claim.publisherId, claim.token],
    },
    {
      sql: `UPDATE publishers SET custom_domain = ?, updated_at = ?
            WHERE id = ? AND EXISTS (SELECT 1 FROM domain_claims
              WHERE publisher_id = ? AND token = ? AND state = 'verified')`,
      args: [claim.domain, now, claim.publisherId, claim.publisherId, claim.token],
    },
    {
      sql: `UPDATE domain_claims SET state = 'released', checked_at = ?, note = ?
            WHERE domain = ? AND state = 'pending' AND publisher_id <> ?`,
      args: [now, verified.releasedNote, claim.domain, claim.publisherId],
    },
  ], "write");
  return marked.rowsAffected === 1;
}

function unroute(publisherId: string, now: Date) {
  return {
    sql: `UPDATE publishers SET custom_domain = NULL, updated_at = ?
          WHERE id = ? AND custom_domain IS NOT NULL`,
    args: [now.getTime(), publisherId],
  };
}

// deno-lint-ignore no-explicit-any
function toClaim(r: any): DomainClaim {
  return {
    publisherId: String(r.publisher_id),
    domain: String(r.domain),
    token: String(r.token),
    state: String(r.state) as ClaimState,
    method: r.method === null ? null : String(r.method) as ClaimMethod,
    createdAt: Number(r.created_at),
    checkedAt: r.checked_at === null ? null : Number(r.checked_at),
    note: r.note === null ? null : String(r.note),
  };
}
