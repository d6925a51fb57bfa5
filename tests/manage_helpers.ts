/** Fixtures for the management API tests: sign a publisher up, sign in, send JSON. */
import assert from "node:assert/strict";
import type { TestFolio } from "./helpers.ts";

/** A password that satisfies the rules. */
export const PASSWORD = "correct horse battery staple";

/** Signs a publisher up and returns its id and pk_ key. */
export async function signUp(
  folio: TestFolio,
  options: { slug?: string; email?: string; name?: string } = {},
): Promise<{ publisherId: string; apiKey: string; email: string }> {
  const slug = options.slug ?? `pub-${crypto.randomUUID().slice(0, 8)}`;
  const email = options.email ?? `${slug}@example.test`;
  const res = await sendJson(folio, "POST", "/api/publishers/signup", {
    name: options.name ?? `Publisher ${slug}`,
    email,
    password: PASSWORD,
    slug,
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return { publisherId: body.publisherId, apiKey: body.apiKey, email };
}

/** Signs in and returns the session cookie (name=value) and the CSRF token. */
export async function logIn(
  folio: TestFolio,
  email: string,
  password = PASSWORD,
): Promise<{ cookie: string; csrfToken: string; setCookie: string }> {
  const res = await sendJson(folio, "POST", "/api/publishers/login", { email, password });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  const setCookie = res.headers.get("set-cookie") ?? "";
  return { cookie: setCookie.split(";")[0], csrfToken: body.csrfToken, setCookie };
}

/** Sends a JSON body (or none) with optional extra headers; the caller consumes the response. */
export function sendJson(
  folio: TestFolio,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return folio.request(path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The Authorization header of a publisher key. */
export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

/** Asserts a 400 whose message is exactly `message`, consuming the body. */
export async function assertInvalid(res: Response, message: string): Promise<void> {
  const body = await res.json();
  assert.equal(res.status, 400, JSON.stringify(body));
  assert.deepEqual(body, { error: { code: "invalid_request", message, ...paramOf(message) } });
}

/** The `param` of a 400 whose message is `<field>: <why>`: the field, unless the whole body. */
export function paramOf(message: string): { param?: string } {
  const field = message.slice(0, message.indexOf(": "));
  return field === "body" ? {} : { param: field };
}
