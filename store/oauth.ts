/**
 * Persistence of the OAuth 2.1 authorization server: clients, authorization codes and tokens.
 * Only SHA-256 hashes of codes and tokens are stored; a family is everything issued from one code.
 * Functions taking an `Executor` run inside the caller's write transaction (see `inWriteTx` in db.ts).
 */
import type { Client, Executor } from "./db.ts";

/** A registered OAuth client. */
export interface OAuthClient {
  id: string;
  kind: "dynamic" | "buyer";
  buyerId: string | null;
  name: string | null;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  email: string | null;
  revokedAt: number | null;
}

/** A stored authorization code. */
export interface CodeRow {
  clientId: string;
  publisherId: string;
  resource: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  email: string | null;
  familyId: string;
  expiresAt: number;
  usedAt: number | null;
}

/** A row of `oauth_tokens` joined with the fields of its client that a grant needs. */
export interface TokenRow extends Omit<NewToken, "hash"> {
  usedAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  email: string | null;
  buyerId: string | null;
  clientRevokedAt: number | null;
}

/** A token to store (by hash). */
export interface NewToken {
  hash: string;
  kind: "access" | "refresh";
  clientId: string;
  publisherId: string;
  resource: string;
  scope: string;
  familyId: string;
  grantExpiresAt: number;
  expiresAt: number;
}

/** Inserts a dynamically registered client. */
export async function insertClient(
  db: Client,
  c: { id: string; name: string | null; redirectUris: string[]; metadata: object },
  options: { registeredFrom: string; now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO oauth_clients (id, kind, name, redirect_uris, metadata, registered_from,
            created_at) VALUES (?, 'dynamic', ?, ?, ?, ?, ?)`,
    args: [
      c.id,
      c.name,
      JSON.stringify(c.redirectUris),
      JSON.stringify(c.metadata),
      options.registeredFrom,
      options.now.getTime(),
    ],
  });
}

/** How many clients were registered from `origin` since `since` (the DCR rate limit). */
export async function countRegistrationsSince(
  db: Client,
  origin: string,
  since: Date,
): Promise<number> {
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS n FROM oauth_clients WHERE registered_from = ? AND created_at > ?`,
    args: [origin, since.getTime()],
  });
  return Number(rs.rows[0]?.n ?? 0);
}

/** A client by id (revoked ones included; callers check `revokedAt`). */
export async function getClient(db: Client, id: string): Promise<OAuthClient | null> {
  const rs = await db.execute({ sql: "SELECT * FROM oauth_clients WHERE id = ?", args: [id] });
  const r = rs.rows[0];
  if (!r) return null;
  return {
    id: String(r.id),
    kind: String(r.kind) as OAuthClient["kind"],
    buyerId: nullableString(r.buyer_id),
    name: nullableString(r.name),
    redirectUris: JSON.parse(String(r.redirect_uris)),
    metadata: JSON.parse(String(r.metadata)),
    email: nullableString(r.email),
    revokedAt: nullableNumber(r.revoked_at),
  };
}

/** Records the reader's email (from the consent screen) on the client. */
export async function setClientEmail(db: Client, clientId: string, email: string): Promise<void> {
  await db.execute({
    sql: "UPDATE oauth_clients SET email = ? WHERE id = ? AND revoked_at IS NULL",
    args: [email, clientId],
  });
}

/** Attributes a dynamic client to a buyer, so its MCP traffic bills to that buyer. */
export async function linkClientToBuyer(
  db: Client,
  clientId: string,
  buyerId: string,
): Promise<void> {
  await db.execute({
    sql: "UPDATE oauth_clients SET buyer_id = ? WHERE id = ? AND kind = 'dynamic'",
    args: [buyerId, clientId],
  });
}

/** Revokes a client and every token it holds, for every publisher. */
export async function revokeClient(db: Client, clientId: string, now: Date): Promise<void> {
  await db.batch([
    {
      sql: "UPDATE oauth_clients SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
      args: [now.getTime(), clientId],
    },
    {
      sql: "UPDATE oauth_tokens SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL",
      args: [now.getTime(), clientId],
    },
  ], "write");
}

/** Revokes every token a client holds for one publisher (the publisher's "remove install"). */
export async function revokeClientGrants(
  db: Client,
  publisherId: string,
  clientId: string,
  now: Date,
): Promise<number> {
  const rs = await db.execute({
    sql: `UPDATE oauth_tokens SET revoked_at = ?
          WHERE publisher_id = ? AND client_id = ? AND revoked_at IS NULL`,
    args: [now.getTime(), publisherId, clientId],
  });
  return rs.rowsAffected;
}

/** Stores an authorization code by hash. */
export async function insertCode(
  db: Client,
  hash: string,
  c: Omit<CodeRow, "usedAt"> & { now: Date },
): Promise<void> {
  await db.execute({
    sql: `INSERT INTO oauth_codes (code_hash, client_id, publisher_id, resource, redirect_uri,
            code_challenge, scope, email, family_id, expires_at, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      hash,
      c.clientId,
      c.publisherId,
      c.resource,
      c.redirectUri,
      c.codeChallenge,
      c.scope,
      c.email,
      c.familyId,
      c.expiresAt,
      c.now.getTime(),
    ],
  });
}

/** The code with this hash, used or not. */
export async function findCode(tx: Executor, hash: string): Promise<CodeRow | null> {
  const rs = await tx.execute({
    sql: "SELECT * FROM oauth_codes WHERE code_hash = ?",
    args: [hash],
  });
  const r = rs.rows[0];
  if (!r) return null;
  return {
    clientId: String(r.client_id),
    publisherId: String(r.publisher_id),
    resource: String(r.resource),
    redirectUri: String(r.redirect_uri),
    codeChallenge: String(r.code_challenge),
    scope: String(r.scope),
    email: nullableString(r.email),
    familyId: String(r.family_id),
    expiresAt: Number(r.expires_at),
    usedAt: nullableNumber(r.used_at),
  };
}

/** Marks a code used; false when it already was (the caller lost the race or replays it). */
export async function claimCode(tx: Executor, hash: string, now: Date): Promise<boolean> {
  const rs = await tx.execute({
    sql: "UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL",
    args: [now.getTime(), hash],
  });
  return rs.rowsAffected === 1;
}

/** The token with this hash and its client's email and buyer, or null. */
export async function findTokenByHash(db: Executor, hash: string): Promise<TokenRow | null> {
  const rs = await db.execute({
    sql: `SELECT t.*, c.email AS client_email, c.buyer_id AS client_buyer_id,
                 c.revoked_at AS client_revoked_at
          FROM oauth_tokens t JOIN oauth_clients c ON c.id = t.client_id
          WHERE t.token_hash = ?`,
    args: [hash],
  });
  const r = rs.rows[0];
  if (!r) return null;
  return {
    kind: String(r.kind) as TokenRow["kind"],
    clientId: String(r.client_id),
    publisherId: String(r.publisher_id),
    resource: String(r.resource),
    scope: String(r.scope),
    familyId: String(r.family_id),
    grantExpiresAt: Number(r.grant_expires_at),
    expiresAt: Number(r.expires_at),
    usedAt: nullableNumber(r.used_at),
    revokedAt: nullableNumber(r.revoked_at),
    createdAt: Number(r.created_at),
    email: nullableString(r.client_email),
    buyerId: nullableString(r.client_buyer_id),
    clientRevokedAt: nullableNumber(r.client_revoked_at),
  };
}

/** Marks a refresh token used; false when it already was or is revoked. */
export async function claimToken(tx: Executor, hash: string, now: Date): Promise<boolean> {
  const rs = await tx.execute({
    sql: `UPDATE oauth_tokens SET used_at = ?
          WHERE token_hash = ? AND used_at IS NULL AND revoked_at IS NULL`,
    args: [now.getTime(), hash],
  });
  return rs.rowsAffected === 1;
}

/** Stores tokens by hash. */
export async function insertTokens(tx: Executor, tokens: NewToken[], now: Date): Promise<void> {
  for (const t of tokens) {
    await tx.execute({
      sql: `INSERT INTO oauth_tokens (token_hash, kind, client_id, publisher_id, resource, scope,
              family_id, grant_expires_at, expires_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        t.hash,
        t.kind,
        t.clientId,
        t.publisherId,
        t.resource,
        t.scope,
        t.familyId,
        t.grantExpiresAt,
        t.expiresAt,
        now.getTime(),
      ],
    });
  }
}

/** Revokes every token of a family (code replay, refresh-token reuse); returns how many. */
export async function revokeFamily(tx: Executor, familyId: string, now: Date): Promise<number> {
  const rs = await tx.execute({
    sql: "UPDATE oauth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
    args: [now.getTime(), familyId],
  });
  return rs.rowsAffected;
}

function nullableString(v: unknown): string | null {
  return v == null ? null : String(v);
}

function nullableNumber(v: unknown): number | null {
  return v == null ? null : Number(v);
}
