/**
 * The authorization endpoint's steps (OAuth 2.1 §4.1.1), in the order that decides where an error
 * may go: client and redirect URI first (failures stay on our page), then everything else
 * (failures go back to the client's redirect URI with `state` and `iss`, RFC 9207).
 */
import type { Client } from "../../../store/db.ts";
import { newId } from "../../../store/ids.ts";
import { getClient, insertCode, type OAuthClient } from "../../../store/oauth.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { hashSecret, newSecret } from "../../platform/secrets.ts";
import { OAuthError, PageError } from "./errors.ts";
import { resolveRedirectUri } from "./redirect_uris.ts";
import { publisherForResource, singleResource } from "./resource.ts";
import { parseScope } from "./scope.ts";
import { CODE_PREFIX } from "../../domain/accounts/tokens.ts";

/** Authorization codes live 60 s (docs/TEST-PLAN.md 1.17; node-oidc-provider's default). */
export const CODE_TTL_MS = 60_000;

/** A request that passed every check. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  publisher: Publisher;
  resource: string;
  scope: string;
  codeChallenge: string;
}

/** An error to send back to the (trusted) redirect URI. */
export class RedirectError extends Error {
  override name = "RedirectError";
  constructor(
    readonly redirectUri: string,
    readonly state: string | null,
    readonly error: OAuthError,
  ) {
    super(error.message);
  }
}

const SINGLE = [
  "client_id",
  "redirect_uri",
  "response_type",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
];

/** Runs every check; throws PageError (show) or RedirectError (send to the client). */
export async function checkAuthorizationRequest(
  db: Client,
  params: URLSearchParams,
  options: { baseUrl: string },
): Promise<AuthorizationRequest> {
  const client = await checkClient(db, params);
  const redirectUri = resolveRedirectUri(client.redirectUris, single(params, "redirect_uri", true));
  const state = params.getAll("state").length > 1 ? null : params.get("state");
  try {
    for (const name of SINGLE) single(params, name, false);
    const responseType = params.get("response_type");
    if (!responseType) throw new OAuthError("invalid_request", "response_type: required (code)");
    if (responseType !== "code") {
      throw new OAuthError(
        "unsupported_response_type",
        'response_type: only "code" is supported (OAuth 2.1 has no implicit grant)',
      );
    }
    const codeChallenge = checkPkce(params);
    const resource = singleResource(params.getAll("resource"), { required: true })!;
    const publisher = await publisherForResource(db, resource, options);
    const scope = parseScope(params.get("scope"), String(client.metadata.scope ?? "") || undefined);
    return { client, redirectUri, state, publisher, resource, scope, codeChallenge };
  } catch (err) {
    if (err instanceof OAuthError) throw new RedirectError(redirectUri, state, err);
    throw err;
  }
}

/** Issues a single-use code for a checked request; `email` comes from the consent screen. */
export async function issueCode(
  db: Client,
  req: AuthorizationRequest,
  options: { email: string | null; now: Date },
): Promise<string> {
  const code = newSecret(CODE_PREFIX);
  await insertCode(db, await hashSecret(code), {
    clientId: req.client.id,
    publisherId: req.publisher.id,
    resource: req.resource,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    scope: req.scope,
    email: options.email,
    familyId: newId("fam"),
    expiresAt: options.now.getTime() + CODE_TTL_MS,
    now: options.now,
  });
  return code;
}

/** The redirect carrying a code, or an error, with `state` and `iss` (RFC 6749 §4.1.2, RFC 9207). */
export function redirectWith(
  redirectUri: string,
  params: Record<string, string | null>,
  options: { issuer: string },
): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  url.searchParams.set("iss", options.issuer);
  return url.href;
}

async function checkClient(db: Client, params: URLSearchParams): Promise<OAuthClient> {
  const id = single(params, "client_id", true);
  if (!id) throw new PageError("invalid_request", "client_id: required");
  const client = /^[\w:-]{1,80}$/.test(id) ? await getClient(db, id) : null;
  if (!client || client.revokedAt !== null || client.redirectUris.length === 0) {
    throw new PageError("invalid_client", "client_id: no such client is registered here");
  }
  return client;
}

// RFC 7636 §4.2 with S256 only: the challenge is BASE64URL(SHA-256(verifier)), 43 characters.
function checkPkce(params: URLSearchParams): string {
  const challenge = params.get("code_challenge");
  const method = params.get("code_challenge_method");
  if (!challenge) {
    throw new OAuthError("invalid_request", "code_challenge: required (PKCE with S256)");
  }
  if (method !== "S256") {
    throw new OAuthError("invalid_request", "code_challenge_method: must be S256");
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    throw new OAuthError(
      "invalid_request",
      "code_challenge: must be the 43-character base64url SHA-256 of the code_verifier",
    );
  }
  return challenge;
}

/** A parameter that may appear at most once (RFC 6749 §3.1); client and redirect errors stay on our page. */
function single(params: URLSearchParams, name: string, page: boolean): string | null {
  const all = params.getAll(name);
  if (all.length > 1) {
    const message = `${name}: must not be repeated`;
    throw page
      ? new PageError("invalid_request", message)
      : new OAuthError("invalid_request", message);
  }
  return all[0] ?? null;
}
