/**
 * Who stands behind the identities the call log, reader intents and license requests record
 * (`buyer:<id>`, `oauth:<clientId>`): the buyers' names and the OAuth clients' names, consented
 * emails and buyers, looked up in one round trip per kind.
 */
import type { Client } from "./db.ts";

/** An OAuth client as a caller. */
export interface CallerClient {
  name: string | null;
  /** The email the reader gave on the consent screen, stored on the client. */
  email: string | null;
  buyerId: string | null;
}

/** Names of buyers and records of OAuth clients, by id; unknown ids are absent. */
export async function callerRecords(
  db: Client,
  ids: { buyerIds: string[]; clientIds: string[] },
): Promise<{ buyers: Map<string, string>; clients: Map<string, CallerClient> }> {
  const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");
  const [buyers, clients] = await Promise.all([
    ids.buyerIds.length === 0 ? null : db.execute({
      sql: `SELECT id, name FROM buyers WHERE id IN (${marks(ids.buyerIds.length)})`,
      args: ids.buyerIds,
    }),
    ids.clientIds.length === 0 ? null : db.execute({
      sql: `SELECT id, name, email, buyer_id FROM oauth_clients WHERE id IN (${
        marks(ids.clientIds.length)
      })`,
      args: ids.clientIds,
    }),
  ]);
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    buyers: new Map((buyers?.rows ?? []).map((r) => [String(r.id), String(r.name)])),
    clients: new Map((clients?.rows ?? []).map((r) => [String(r.id), {
      name: text(r.name),
      email: text(r.email),
      buyerId: text(r.buyer_id),
    }])),
  };
}
