/** Persistence of publishers' payee details (migration 0070): sealed, plus what a list may show. */
import type { Client, Executor } from "./db.ts";

/** A payee row: `sealed` is the whole of the details, encrypted (server/domain/billing/payees.ts). */
export interface PayeeRow {
  publisherId: string;
  sealed: string;
  method: "iban" | "us_account" | "email";
  last4: string;
  country: string;
  currency: string;
  updatedAt: number;
}

/** Sets the publisher's payee details (replacing any). */
export async function putPayee(db: Executor, row: PayeeRow): Promise<void> {
  await db.execute({
    sql: `INSERT INTO payee_details (publisher_id, sealed, method, last4, country, currency,
            updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (publisher_id) DO UPDATE SET sealed = excluded.sealed,
            method = excluded.method, last4 = excluded.last4, country = excluded.country,
            currency = excluded.currency, updated_at = excluded.updated_at`,
    args: [
      row.publisherId,
      row.sealed,
      row.method,
      row.last4,
      row.country,
      row.currency,
      row.updatedAt,
    ],
  });
}

/** The publisher's payee details, or null. */
export async function payeeOf(db: Executor, publisherId: string): Promise<PayeeRow | null> {
  const rs = await db.execute({
    sql: "SELECT * FROM payee_details WHERE publisher_id = ?",
    args: [publisherId],
  });
  return rs.rows[0] ? rowOf(rs.rows[0]) : null;
}

/** The payee details of these publishers (the ones that have some). */
export async function payeesOf(db: Executor, publisherIds: string[]): Promise<PayeeRow[]> {
  if (publisherIds.length === 0) return [];
  const rs = await db.execute({
    sql: `SELECT * FROM payee_details WHERE publisher_id IN (${
      publisherIds.map(() => "?").join(", ")
    })`,
    args: publisherIds,
  });
  return rs.rows.map(rowOf);
}

/** The node's own key named `name`: `fresh` is kept when there is none yet (first one wins). */
export async function nodeKey(
  db: Client,
  name: string,
  fresh: string,
  now: Date,
): Promise<string> {
  const [, rs] = await db.batch([
    {
      sql: "INSERT OR IGNORE INTO node_keys (name, secret, created_at) VALUES (?, ?, ?)",
      args: [name, fresh, now.getTime()],
    },
    { sql: "SELECT secret FROM node_keys WHERE name = ?", args: [name] },
  ], "write");
  return String(rs.rows[0].secret);
}

function rowOf(r: Record<string, unknown>): PayeeRow {
  return {
    publisherId: String(r.publisher_id),
    sealed: String(r.sealed),
    method: String(r.method) as PayeeRow["method"],
    last4: String(r.last4),
    country: String(r.country),
    currency: String(r.currency),
    updatedAt: Number(r.updated_at),
  };
}
