/** Fixtures for buyer tests: sign a buyer up and in through the marketplace API. */
import assert from "node:assert/strict";
import { json, type TestFolio } from "./helpers.ts";

/** A signed-in buyer: the cookie (name=value) and the CSRF token its changes echo. */
export interface BuyerSession {
  buyerId: string;
  cookie: string;
  csrfToken: string;
}

/** Signs a buyer up by the API (optionally with a portal password); returns its id and key. */
export async function apiSignup(
  folio: TestFolio,
  options: { name?: string; email?: string; password?: string } = {},
): Promise<{ buyerId: string; apiKey: string }> {
  const res = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name: options.name ?? "Acme AI",
      email: options.email ?? "ops@acme.test",
      ...(options.password === undefined ? {} : { password: options.password }),
    }),
  });
  const body = await json<{ buyerId: string; apiKey: string }>(res);
  assert.equal(res.status, 201, JSON.stringify(body));
  return body;
}

/** Opens a session with POST /api/marketplace/session. */
export async function signIn(
  folio: TestFolio,
  credentials: { email: string; password: string } | { apiKey: string },
): Promise<BuyerSession> {
  const res = await folio.request("/api/marketplace/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const body = await json<{ buyerId: string; csrfToken: string }>(res);
  assert.equal(res.status, 201, JSON.stringify(body));
  const cookie = res.headers.get("set-cookie")!.split(";")[0];
  return { buyerId: body.buyerId, cookie, csrfToken: body.csrfToken };
}
