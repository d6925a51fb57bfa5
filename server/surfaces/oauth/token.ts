/**
 * The token endpoint's grants (OAuth 2.1 §4.1.3, §4.3). Each redemption runs in one write
 * transaction, so of K concurrent redemptions of one code or refresh token exactly one wins, and a
 * replay (a loser, or a later attacker) revokes the whole family it belongs to (RFC 9700 §4.14.2,
 * §4.5.3.1): the tokens the winner got die with it.
 */
import { type Client, type Executor, inWriteTx } from "../../../store/db.ts";
import {
  claimCode,
  claimToken,
  findCode,
  findTokenByHash,
  insertTokens,
  revokeFamily,
} from "../../../store/oauth.ts";
import { hashSecret, newSecret, timingSafeEqual, wellFormed } from "../../platform/secrets.ts";
import { OAuthError } from "./errors.ts";
import { parseScope } from "./scope.ts";
import { ACCESS_PREFIX, CODE_PREFIX, REFRESH_PREFIX } from "../../domain/accounts/tokens.ts";

/** Access tokens live one hour (docs/SPEC.md "Limits"). */
export const ACCESS_TTL_MS = 60 * 60_000;
/** A grant's refresh tokens die 30 days after the code was redeemed, however often rotated. */
export const GRANT_TTL_MS = 30 * 24 * 60 * 60_000;

/** The RFC 6749 §5.1 success body. */
export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Redeems an authorization code with its PKCE verifier. */
export async function redeemCode(
  db: Client,
  req: {
    clientId: string;
    code: string | null;
    codeVerifier: string | null;
    redirectUri: string | null;
    resource: string | null;
    now: Date;
  },
): Promise<TokenResponse> {
  if (!req.code || !wellFormed(req.code, CODE_PREFIX)) {
    throw invalidGrant("code: unknown or malformed");
  }
  const hash = await hashSecret(req.code);
  const outcome = await inWriteTx(db, async (tx): Promise<TokenResponse | OAuthError> => {
    const code = await findCode(tx, hash);
    if (!code) return invalidGrant("code: unknown or malformed");
    if (!await claimCode(tx, hash, req.now)) {
      await revokeFamily(tx, code.familyId, req.now);
      return invalidGrant("code: already used; the tokens issued for it are revoked");
    }
    // From here the code is burned whatever happens (docs/TEST-PLAN.md 1.21: no verifier brute force).
    if (code.expiresAt <= req.now.getTime()) return invalidGrant("code: expired");
    if (code.clientId !== req.clientId) return invalidGrant("code: issued to another client");
    if (req.redirectUri !== null && req.redirectUri !== code.redirectUri) {
      return invalidGrant("redirect_uri: differs from the authorization request");
    }
    if (!await verifierMatches(req.codeVerifier, code.codeChallenge)) {
      return invalidGrant("code_verifier: missing or does not match the code_challenge");
    }
    if (req.resource !== null && req.resource !== code.resource) {
      return new OAuthError(
        "invalid_target",
        "resource: not the resource this code was issued for",
      );
    }
    return await issuePair(tx, {
      clientId: code.clientId,
      publisherId: code.publisherId,
      resource: code.resource,
      scope: code.scope,
      accessScope: code.scope,
      familyId: code.familyId,
      grantExpiresAt: req.now.getTime() + GRANT_TTL_MS,
      now: req.now,
    });
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** Rotates a refresh token: the old one is consumed, a new pair issued in the same family. */
export async function refresh(
  db: Client,
  req: {
    clientId: string;
    refreshToken: string | null;
    scope: string | null;
    resource: string | null;
    now: Date;
  },
): Promise<TokenResponse> {
  if (!req.refreshToken || !wellFormed(req.refreshToken, REFRESH_PREFIX)) {
    throw invalidGrant("refresh_token: unknown, expired or revoked");
  }
  const hash = await hashSecret(req.refreshToken);
  const now = req.now.getTime();
  const outcome = await inWriteTx(db, async (tx): Promise<TokenResponse | OAuthError> => {
    const row = await findTokenByHash(tx, hash);
    if (!row || row.kind !== "refresh") {
      return invalidGrant("refresh_token: unknown, expired or revoked");
    }
    if (row.clientId !== req.clientId) {
      return invalidGrant("refresh_token: issued to another client");
    }
    if (row.revokedAt !== null || row.clientRevokedAt !== null) {
      return invalidGrant("refresh_token: unknown, expired or revoked");
    }
    if (row.usedAt !== null) {
      // Reuse of a rotated token means two parties hold it: revoke the family (RFC 9700 §4.14.2).
      await revokeFamily(tx, row.familyId, req.now);
      return invalidGrant("refresh_token: already used; every token of this grant is revoked");
    }
    if (row.expiresAt <= now || row.grantExpiresAt <= now) {
      return invalidGrant("refresh_token: unknown, expired or revoked");
    }
    if (req.resource !== null && req.resource !== row.resource) {
      return new OAuthError("invalid_target", "resource: not the resource this grant is for");
    }
    let accessScope: string;
    try {
      accessScope = parseScope(req.scope, row.scope);
    } catch (err) {
      return err as OAuthError;
    }
    if (!await claimToken(tx, hash, req.now)) {
      await revokeFamily(tx, row.familyId, req.now);
      return invalidGrant("refresh_token: already used; every token of this grant is revoked");
    }
    // RFC 6749 §6: the new refresh token keeps the grant's scope; only the access token narrows.
    return await issuePair(tx, { ...row, accessScope, now: req.now });
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

async function issuePair(
  tx: Executor,
  g: {
    clientId: string;
    publisherId: string;
    resource: string;
    scope: string;
    accessScope: string;
    familyId: string;
    grantExpiresAt: number;
    now: Date;
  },
): Promise<TokenResponse> {
  const access = newSecret(ACCESS_PREFIX);
  const refreshToken = newSecret(REFRESH_PREFIX);
  const now = g.now.getTime();
  const accessExpires = Math.min(now + ACCESS_TTL_MS, g.grantExpiresAt);
  const common = {
    clientId: g.clientId,
    publisherId: g.publisherId,
    resource: g.resource,
    familyId: g.familyId,
    grantExpiresAt: g.grantExpiresAt,
  };
  await insertTokens(tx, [
    {
      ...common,
      hash: await hashSecret(access),
      kind: "access",
      scope: g.accessScope,
      expiresAt: accessExpires,
    },
    {
      ...common,
      hash: await hashSecret(refreshToken),
      kind: "refresh",
      scope: g.scope,
      expiresAt: g.grantExpiresAt,
    },
  ], g.now);
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: Math.round((accessExpires - now) / 1000),
    refresh_token: refreshToken,
    scope: g.accessScope,
  };
}

async function verifierMatches(verifier: string | null, challenge: string): Promise<boolean> {
  // RFC 7636 §4.1: 43 to 128 unreserved characters; shorter ones are refused, not hashed.
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return timingSafeEqual(base64url(new Uint8Array(digest)), challenge);
}

/** Unpadded base64url (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function invalidGrant(description: string): OAuthError {
  return new OAuthError("invalid_grant", description);
}
