/**
 * Fixtures for the operator tests (issue 38): an operator made as the CLI makes one, signed in
 * through the API's two steps with codes from a real TOTP generator (otpauth) at the test clock's
 * time, and requests as that operator (session cookie plus CSRF, or an operator key).
 */
import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";
import { CLI, createOperator } from "../server/domain/operators/accounts.ts";
import type { TestFolio } from "./helpers.ts";

/** The password the fixtures give operators. */
export const OPERATOR_PASSWORD = "operator passphrase 1";

/** The TOTP code of `secret` at the test clock's time, `stepsAhead` steps later. */
export function codeAt(folio: TestFolio, secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: folio.clock.now().getTime() + stepsAhead * 30_000 });
}

/** An operator signed in with a full session. */
export interface SignedInOperator {
  operatorId: string;
  email: string;
  cookie: string;
  csrfToken: string;
  secret: string;
  recoveryCodes: string[];
}

/** Makes an operator as `deno task folio create-operator` does. */
export async function makeOperator(
  folio: TestFolio,
  email = `op-${crypto.randomUUID().slice(0, 8)}@example.test`,
) {
  const { operator } = await createOperator(folio.deps.store.db, {
    email,
    password: OPERATOR_PASSWORD,
  }, { now: folio.clock.now(), actor: CLI });
  return operator;
}

/** Sends JSON (or nothing) with a cookie and CSRF token or a bearer key; the caller reads it. */
export function operatorRequest(
  folio: TestFolio,
  method: string,
  path: string,
  auth: { cookie?: string; csrfToken?: string; key?: string },
  body?: unknown,
  from?: string,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.csrfToken) headers["x-csrf-token"] = auth.csrfToken;
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  return folio.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    from,
  });
}

/** The password step: the session cookie (name=value) and its CSRF token. */
export async function passwordStep(folio: TestFolio, email: string, password = OPERATOR_PASSWORD) {
  const res = await operatorRequest(folio, "POST", "/api/operator/login", {}, { email, password });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  return { cookie, csrfToken: body.csrfToken as string, next: body.next as string };
}

/** A new operator, enrolled and signed in (the first sign-in's whole path). */
export async function signedInOperator(folio: TestFolio): Promise<SignedInOperator> {
  const operator = await makeOperator(folio);
  const step = await passwordStep(folio, operator.email);
  assert.equal(step.next, "enrol");
  const enrol = await operatorRequest(folio, "POST", "/api/operator/enrolment", step);
  const { secret } = await enrol.json();
  assert.equal(enrol.status, 200);
  const confirm = await operatorRequest(folio, "POST", "/api/operator/enrolment/confirm", step, {
    code: codeAt(folio, secret),
  });
  const body = await confirm.json();
  assert.equal(confirm.status, 200, JSON.stringify(body));
  // The next sign-in's code must be of a later step than the one enrolment used.
  folio.clock.advance(30_000);
  return {
    operatorId: operator.id,
    email: operator.email,
    cookie: step.cookie,
    csrfToken: step.csrfToken,
    secret,
    recoveryCodes: body.recoveryCodes,
  };
}

/** Makes an operator key through the API. */
export async function operatorKey(folio: TestFolio, op: SignedInOperator, name = "script") {
  const res = await operatorRequest(folio, "POST", "/api/operator/keys", op, { name });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body as { key: { id: string; hint: string }; apiKey: string };
}
