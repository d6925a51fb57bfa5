/**
 * Dynamic client registration (RFC 7591). Every client is public (`token_endpoint_auth_method`
 * "none"): PKCE protects its codes, so there is no secret to leak. Registrations are limited per
 * address with a count kept in the store, so every node shares one budget.
 */
import { countRegistrationsSince, insertClient } from "../../../store/oauth.ts";
import { newId } from "../../../store/ids.ts";
import type { Client } from "../../../store/db.ts";
import { OAuthError } from "./errors.ts";
import { checkRedirectUris } from "./redirect_uris.ts";
import { parseScope } from "./scope.ts";

/** Registrations allowed per address per window. */
export const REGISTRATIONS_PER_WINDOW = 20;
/** The rate-limit window. */
export const REGISTRATION_WINDOW_MS = 60_000;

const GRANT_TYPES = new Set(["authorization_code", "refresh_token"]);
const OPTIONAL_STRINGS = ["client_uri", "software_id", "software_version", "tos_uri", "policy_uri"];

/** The registration response (RFC 7591 §3.2.1). */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
  scope: string;
}

/** Validates client metadata and registers the client; throws RFC 7591 errors or a 429. */
export async function registerClient(
  db: Client,
  body: unknown,
  options: { from: string; now: Date },
): Promise<RegisteredClient> {
  const since = new Date(options.now.getTime() - REGISTRATION_WINDOW_MS);
  if (await countRegistrationsSince(db, options.from, since) >= REGISTRATIONS_PER_WINDOW) {
    throw new OAuthError(
      "too_many_requests",
      `At most ${REGISTRATIONS_PER_WINDOW} registrations per minute from one address; retry later`,
      429,
      { "Retry-After": String(REGISTRATION_WINDOW_MS / 1000) },
    );
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw metadataError("body: must be a JSON object");
  }
  const m = body as Record<string, unknown>;
  const redirectUris = checkRedirectUris(m.redirect_uris);
  const grantTypes = stringList(m.grant_types, "grant_types", [
    "authorization_code",
    "refresh_token",
  ]);
  const bad = grantTypes.find((g) => !GRANT_TYPES.has(g));
  if (bad) {
    throw metadataError(`grant_types: "${bad}" is not supported (OAuth 2.1 allows code only)`);
  }
  if (!grantTypes.includes("authorization_code")) {
    throw metadataError("grant_types: must include authorization_code");
  }
  const responseTypes = stringList(m.response_types, "response_types", ["code"]);
  if (responseTypes.some((r) => r !== "code")) {
    throw metadataError('response_types: only "code" is supported');
  }
  const authMethod = m.token_endpoint_auth_method ?? "none";
  if (authMethod !== "none") {
    throw metadataError(
      'token_endpoint_auth_method: only "none" (public clients with PKCE) is supported',
    );
  }
  const name = optionalString(m.client_name, "client_name", 200);
  let scope: string;
  try {
    scope = parseScope(optionalString(m.scope, "scope", 500));
  } catch (err) {
    throw metadataError((err as OAuthError).description);
  }
  const extra: Record<string, string> = {};
  for (const key of OPTIONAL_STRINGS) {
    const v = optionalString(m[key], key, 500);
    if (v !== null) extra[key] = v;
  }
  const id = newId("oc");
  await insertClient(
    db,
    { id, name, redirectUris, metadata: { ...extra, grant_types: grantTypes, scope } },
    { registeredFrom: options.from, now: options.now },
  );
  return {
    client_id: id,
    client_id_issued_at: Math.floor(options.now.getTime() / 1000),
    ...(name === null ? {} : { client_name: name }),
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    response_types: responseTypes,
    token_endpoint_auth_method: "none",
    scope,
  };
}

/** RFC 7591 §3.2.2 `invalid_client_metadata`. */
export function metadataError(description: string): OAuthError {
  return new OAuthError("invalid_client_metadata", description);
}

function stringList(v: unknown, field: string, fallback: string[]): string[] {
  if (v === undefined) return fallback;
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "string")) {
    throw metadataError(`${field}: must be a non-empty array of strings`);
  }
  return [...new Set(v as string[])];
}

function optionalString(v: unknown, field: string, max: number): string | null {
  if (v === undefined || v === null) return null;
  // deno-lint-ignore no-control-regex
  if (typeof v !== "string" || v.length > max || /[\u0000-\u001f\u007f]/.test(v)) {
    throw metadataError(`${field}: must be a string of at most ${max} printable characters`);
  }
  return v;
}
