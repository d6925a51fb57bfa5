/**
 * Opaque OAuth tokens: issuing shapes and verification for resource servers (the MCP endpoint).
 * Tokens are `prefix_` + 190 random bits + checksum (server/platform/secrets.ts); only their SHA-256 is
 * stored, and each is bound to exactly one publisher's MCP resource (RFC 8707).
 */
import type { Client } from "../../../store/db.ts";
import { findTokenByHash } from "../../../store/oauth.ts";
import { hashSecret, wellFormed } from "../../platform/secrets.ts";

/** Prefix of access tokens. */
export const ACCESS_PREFIX = "fat";
/** Prefix of refresh tokens. */
export const REFRESH_PREFIX = "frt";
/** Prefix of authorization codes. */
export const CODE_PREFIX = "fac";

/** What a live access token grants. */
export interface TokenGrant {
  clientId: string;
  publisherId: string;
  scope: string;
  email: string | null;
  buyerId: string | null;
}

/** The grant behind a live access token for `resource`, or null (unknown, expired, revoked, other resource). */
export async function verifyAccessToken(
  db: Client,
  token: string,
  options: { resource: string | readonly string[]; now: Date },
): Promise<TokenGrant | null> {
  // Malformed tokens are refused before the store is asked; every refusal is the same null.
  if (!wellFormed(token, ACCESS_PREFIX)) return null;
  const row = await findTokenByHash(db, await hashSecret(token));
  if (!row || row.kind !== "access") return null;
  const now = options.now.getTime();
  if (row.revokedAt !== null || row.clientRevokedAt !== null) return null;
  if (row.expiresAt <= now || row.grantExpiresAt <= now) return null;
  // RFC 8707: the token is for one audience; a token for publisher A is refused by publisher B.
  const audience = typeof options.resource === "string" ? [options.resource] : options.resource;
  if (!audience.includes(row.resource)) return null;
  return {
    clientId: row.clientId,
    publisherId: row.publisherId,
    scope: row.scope,
    email: row.email,
    buyerId: row.buyerId,
  };
}
