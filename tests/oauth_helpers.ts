/** Fixtures for the OAuth tests: PKCE pairs, registration, authorization and token requests. */
import { base64url } from "../server/surfaces/oauth/token.ts";
import { mcpResourceUri } from "../server/platform/resource_metadata.ts";
import { getPublisher, insertPublisher, updatePublisher } from "../store/publishers.ts";
import type { Publisher, Toggles } from "../store/publishers.ts";
import type { TestFolio } from "./helpers.ts";

export const REDIRECT = "https://client.example/cb";

/** A fresh PKCE verifier and its S256 challenge. */
export async function randomPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** The demo publisher's MCP resource URI. */
export function resourceOf(folio: TestFolio, publisherId = "pub_demo"): string {
  return mcpResourceUri(folio.config.baseUrl, publisherId);
}

/** POST /api/oauth/register with a JSON body. */
export function registerRaw(folio: TestFolio, body: unknown): Promise<Response> {
  return folio.request("/api/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Registers a client and returns its id. */
export async function registerClient(
  folio: TestFolio,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await registerRaw(folio, { redirect_uris: [REDIRECT], client_name: "Test", ...body });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(json)}`);
  return json.client_id;
}

/** GET /api/oauth/authorize with these parameters, not following redirects. */
export function authorizeRaw(
  folio: TestFolio,
  params: Record<string, string | string[]>,
): Promise<Response> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  }
  return folio.request(`/api/oauth/authorize?${q}`, { redirect: "manual" });
}

/** The standard parameters of a valid authorization request. */
export function authParams(
  folio: TestFolio,
  clientId: string,
  challenge: string,
  extra: Record<string, string | string[]> = {},
): Record<string, string | string[]> {
  return {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st-123",
    resource: resourceOf(folio),
    ...extra,
  };
}

/** Authorizes and returns the code from the redirect. */
export async function authorizeCode(
  folio: TestFolio,
  clientId: string,
  challenge: string,
  extra: Record<string, string | string[]> = {},
): Promise<string> {
  const res = await authorizeRaw(folio, authParams(folio, clientId, challenge, extra));
  await res.body?.cancel();
  const location = res.headers.get("location");
  const code = location ? new URL(location).searchParams.get("code") : null;
  if (res.status !== 302 || !code) throw new Error(`authorize failed: ${res.status} ${location}`);
  return code;
}

/** POST /api/oauth/token with a form body. */
export function tokenRaw(folio: TestFolio, form: Record<string, string>): Promise<Response> {
  return folio.request("/api/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

/** The JSON body and status of a token request. */
export async function token(
  folio: TestFolio,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await tokenRaw(folio, form);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Registers a client and runs the whole flow to a token pair. */
export async function fullFlow(
  folio: TestFolio,
  options: { publisherId?: string } = {},
): Promise<{ clientId: string; access: string; refresh: string; code: string; verifier: string }> {
  const clientId = await registerClient(folio);
  const { verifier, challenge } = await randomPkce();
  const code = await authorizeCode(folio, clientId, challenge, {
    resource: resourceOf(folio, options.publisherId),
  });
  const res = await token(folio, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
  });
  if (res.status !== 200) throw new Error(`token failed: ${JSON.stringify(res.body)}`);
  return {
    clientId,
    access: String(res.body.access_token),
    refresh: String(res.body.refresh_token),
    code,
    verifier,
  };
}

/** Adds a second publisher, `pub_b`. */
export async function addPublisherB(folio: TestFolio): Promise<Publisher> {
  return await insertPublisher(
    folio.deps.store.db,
    { id: "pub_b", slug: "bee", name: "Bee News" },
    {
      now: folio.clock.now(),
    },
  );
}

/** Changes toggles of a publisher. */
export async function setToggles(
  folio: TestFolio,
  publisherId: string,
  toggles: Partial<Toggles>,
  branding: Partial<Publisher["branding"]> = {},
): Promise<void> {
  const p = (await getPublisher(folio.deps.store.db, publisherId))!;
  await updatePublisher(folio.deps.store.db, {
    ...p,
    toggles: { ...p.toggles, ...toggles },
    branding: { ...p.branding, ...branding },
  }, { now: folio.clock.now() });
}

/** Whether the access token is live for a publisher's resource. */
export async function accessWorks(
  folio: TestFolio,
  access: string,
  publisherId = "pub_demo",
): Promise<boolean> {
  const { verifyAccessToken } = await import("../server/domain/accounts/tokens.ts");
  const grant = await verifyAccessToken(folio.deps.store.db, access, {
    resource: resourceOf(folio, publisherId),
    now: folio.clock.now(),
  });
  return grant !== null;
}
