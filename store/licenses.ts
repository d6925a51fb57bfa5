/** Persistence of licenses: what a buyer holds for a publisher. */
import { cachedConfig } from "./config_cache.ts";
import type { Client, Executor } from "./db.ts";
import type { UseCase } from "./vocabulary.ts";

/** A license row. */
export interface License {
  id: string;
  buyerId: string;
  publisherId: string;
  kind: "subscription" | "enterprise" | "request";
  useCases: UseCase[];
  monthlyFeeMicros: number;
  state: "pending" | "active" | "canceled";
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  terms: string | null;
  createdAt: number;
  activatedAt: number | null;
  canceledAt: number | null;
  /** A license with a term: how many months, and when it ends (ms); null: until canceled. */
  termMonths: number | null;
  expiresAt: number | null;
  /** When the buyer asked to end the license at the end of the paid month (ms). */
  cancelRequestedAt: number | null;
  processorSubscriptionId: string | null;
}

/** An active license's grant: what the read path needs of it, kept in the configuration cache. */
interface Grant {
  kind: License["kind"];
  useCases: UseCase[];
  expiresAt: number | null;
}

/**
 * The use cases covered by the buyer's active licenses for a publisher, not past their term, and
 * those among them the publisher approved itself (request and enterprise licenses). The active
 * licenses are kept until the configuration changes (migration 0020 bumps it on any license
 * change; store/config_cache.ts); their terms are checked against `now` on every call. `db` may
 * be the request's `readView()`.
 */
export async function heldGrants(
  db: Client,
  buyerId: string,
  publisherId: string,
  options: { now: Date },
): Promise<{ licensed: UseCase[]; approved: UseCase[] }> {
  const grants = await cachedConfig(
    db,
    `licenses\n${buyerId}\n${publisherId}`,
    () => activeGrants(db, buyerId, publisherId),
  );
  return inForce(grants, options.now);
}

/** What active grants cover at `now` (past its term, a grant covers nothing). */
function inForce(grants: Grant[], now: Date): { licensed: UseCase[]; approved: UseCase[] } {
  const licensed = new Set<UseCase>();
  const approved = new Set<UseCase>();
  for (const g of grants) {
    if (g.expiresAt !== null && g.expiresAt <= now.getTime()) continue;
    for (const u of g.useCases) {
      licensed.add(u);
      if (g.kind !== "subscription") approved.add(u);
    }
  }
  return { licensed: [...licensed], approved: [...approved] };
}

async function activeGrants(db: Executor, buyerId: string, publisherId: string): Promise<Grant[]> {
  const rs = await db.execute({
    sql: `SELECT kind, use_cases, expires_at FROM licenses
          WHERE buyer_id = ? AND publisher_id = ? AND state = 'active'`,
    args: [buyerId, publisherId],
  });
  return rs.rows.map((r) => ({
    kind: String(r.kind) as License["kind"],
    useCases: JSON.parse(String(r.use_cases)),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  }));
}

/**
 * The use cases covered by the buyer's active licenses for a publisher, not past their term, read
 * in `db` (a write transaction sees its own changes; nothing is cached).
 */
export async function heldUseCases(
  db: Executor,
  buyerId: string,
  publisherId: string,
  options: { now: Date },
): Promise<UseCase[]> {
  return inForce(await activeGrants(db, buyerId, publisherId), options.now).licensed;
}

/** Inserts a license; `useCases` are stored sorted so equal bundles compare equal. */
export async function insertLicense(
  db: Executor,
  buyerId: string,
  l: Pick<License, "id" | "publisherId" | "kind" | "useCases" | "monthlyFeeMicros" | "state"> & {
    terms?: string | null;
    termMonths?: number | null;
    expiresAt?: Date | null;
    now: Date;
  },
): Promise<void> {
  const now = l.now.getTime();
  await db.execute({
    sql: `INSERT INTO licenses (id, buyer_id, publisher_id, kind, use_cases, monthly_fee_micros,
            state, terms, created_at, activated_at, term_months, expires_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      l.id,
      buyerId,
      l.publisherId,
      l.kind,
      bundleKey(l.useCases),
      l.monthlyFeeMicros,
      l.state,
      l.terms ?? null,
      now,
      l.state === "active" ? now : null,
      l.termMonths ?? null,
      l.expiresAt?.getTime() ?? null,
    ],
  });
}

/** The canonical stored form of a set of use cases. */
export function bundleKey(useCases: readonly string[]): string {
  return JSON.stringify([...new Set(useCases)].sort());
}

/** The buyer's licenses, newest first. */
export async function listLicenses(db: Client, buyerId: string): Promise<License[]> {
  const rs = await db.execute({
    sql: "SELECT * FROM licenses WHERE buyer_id = ? ORDER BY created_at DESC, id DESC",
    args: [buyerId],
  });
  return rs.rows.map(toLicense);
}

/** The buyer's pending checkout for this publisher and bundle, if any. */
export async function findPendingLicense(
  db: Executor,
  buyerId: string,
  options: { publisherId: string; useCases: readonly string[] },
): Promise<License | null> {
  const rs = await db.execute({
    sql: `SELECT * FROM licenses WHERE buyer_id = ? AND publisher_id = ? AND use_cases = ?
            AND state = 'pending'`,
    args: [buyerId, options.publisherId, bundleKey(options.useCases)],
  });
  return rs.rows[0] ? toLicense(rs.rows[0]) : null;
}

/** Records the processor's checkout session on a pending license. */
export async function setCheckout(
  db: Executor,
  licenseId: string,
  checkout: { sessionId: string; url: string },
): Promise<void> {
  await db.execute({
    sql: `UPDATE licenses SET checkout_session_id = ?, checkout_url = ?
          WHERE id = ? AND state = 'pending'`,
    args: [checkout.sessionId, checkout.url, licenseId],
  });
}

/** Activates the pending license of a checkout session; null when none was pending (done once). */
export async function activateByCheckout(
  db: Executor,
  sessionId: string,
  options: { subscriptionId: string | null; now: Date },
): Promise<License | null> {
  const rs = await db.execute({
    sql: `UPDATE licenses SET state = 'active', activated_at = ?,
            processor_subscription_id = COALESCE(?, processor_subscription_id)
          WHERE checkout_session_id = ? AND state = 'pending' RETURNING *`,
    args: [options.now.getTime(), options.subscriptionId, sessionId],
  });
  return rs.rows[0] ? toLicense(rs.rows[0]) : null;
}

/**
 * Cancels a license by id or processor subscription (pending or active), or the still-pending
 * license of an expired checkout; false when nothing changed.
 */
export async function cancelLicense(
  db: Executor,
  where: { id?: string; processorSubscriptionId?: string; pendingCheckoutSessionId?: string },
  options: { now: Date },
): Promise<boolean> {
  const rs = await db.execute({
    sql: `UPDATE licenses SET state = 'canceled', canceled_at = ?
          WHERE state != 'canceled' AND (id = ? OR processor_subscription_id = ?
            OR (checkout_session_id = ? AND state = 'pending'))`,
    args: [
      options.now.getTime(),
      where.id ?? null,
      where.processorSubscriptionId ?? null,
      where.pendingCheckoutSessionId ?? null,
    ],
  });
  return rs.rowsAffected > 0;
}

/**
 * Ends an active license of the buyer at `endsAt` (or its term's end, if sooner) and records when
 * the buyer asked; null when the buyer has no such license still running.
 */
export async function endLicenseAt(
  db: Executor,
  buyerId: string,
  licenseId: string,
  options: { endsAt: Date; now: Date },
): Promise<License | null> {
  const rs = await db.execute({
    sql: `UPDATE licenses SET cancel_requested_at = ?1,
            expires_at = MIN(COALESCE(expires_at, ?2), ?2)
          WHERE id = ?3 AND buyer_id = ?4 AND state = 'active' AND cancel_requested_at IS NULL
            AND (expires_at IS NULL OR expires_at > ?1) RETURNING *`,
    args: [options.now.getTime(), options.endsAt.getTime(), licenseId, buyerId],
  });
  return rs.rows[0] ? toLicense(rs.rows[0]) : null;
}

/** One of the buyer's licenses. */
export async function getLicense(
  db: Executor,
  buyerId: string,
  licenseId: string,
): Promise<License | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM licenses WHERE id = ? AND buyer_id = ?",
    args: [licenseId, buyerId],
  });
  return rs.rows[0] ? toLicense(rs.rows[0]) : null;
}

/** The license of a checkout session. */
export async function licenseOfCheckout(db: Executor, sessionId: string): Promise<License | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM licenses WHERE checkout_session_id = ?",
    args: [sessionId],
  });
  return rs.rows[0] ? toLicense(rs.rows[0]) : null;
}

/**
 * Active licenses that carry a monthly fee, activated before `before` (a month's start) and still
 * in their term then: what a month roll bills.
 */
export async function billableLicenses(db: Client, before: Date): Promise<License[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM licenses WHERE state = 'active' AND monthly_fee_micros > 0
            AND activated_at < ?1 AND (expires_at IS NULL OR expires_at > ?1) ORDER BY id`,
    args: [before.getTime()],
  });
  return rs.rows.map(toLicense);
}

// deno-lint-ignore no-explicit-any
function toLicense(r: any): License {
  const n = (v: unknown) => (v === null ? null : Number(v));
  return {
    id: String(r.id),
    buyerId: String(r.buyer_id),
    publisherId: String(r.publisher_id),
    kind: String(r.kind) as License["kind"],
    useCases: JSON.parse(String(r.use_cases)),
    monthlyFeeMicros: Number(r.monthly_fee_micros),
    state: String(r.state) as License["state"],
    checkoutSessionId: r.checkout_session_id === null ? null : String(r.checkout_session_id),
    checkoutUrl: r.checkout_url === null ? null : String(r.checkout_url),
    terms: r.terms === null ? null : String(r.terms),
    createdAt: Number(r.created_at),
    activatedAt: n(r.activated_at),
    canceledAt: n(r.canceled_at),
    termMonths: n(r.term_months),
    expiresAt: n(r.expires_at),
    cancelRequestedAt: n(r.cancel_requested_at),
    processorSubscriptionId: r.processor_subscription_id === null
      ? null
      : String(r.processor_subscription_id),
  };
}

/**
 * A publisher's active subscriptions, not ending already, that cover any of `uses`: those a
 * withdrawal of default rights ends at the end of their paid month
 * (server/domain/billing/withdrawals.ts).
 */
export async function subscriptionsCovering(
  db: Executor,
  publisherId: string,
  uses: readonly UseCase[],
  options: { now: Date },
): Promise<License[]> {
  const rs = await db.execute({
    sql: `SELECT * FROM licenses WHERE publisher_id = ? AND kind = 'subscription'
            AND state = 'active' AND cancel_requested_at IS NULL
            AND (expires_at IS NULL OR expires_at > ?) ORDER BY id`,
    args: [publisherId, options.now.getTime()],
  });
  return rs.rows.map(toLicense).filter((l) => l.useCases.some((u) => uses.includes(u)));
}
