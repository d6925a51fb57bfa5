/**
 * Buyer passwords and sessions (issue 12 part 2): sign-in by password or by key with one 401 for
 * every failure, the throttle, the cookie and its CSRF token, sign-out, password changes, and what
 * a key rotation does to sessions.
 */
import assert from "node:assert/strict";
import { SIGN_IN } from "../server/platform/throttle.ts";
import {
  accountSchema,
  sessionCreatedSchema,
  sessionSchema,
} from "../server/surfaces/marketplace/schemas.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { apiSignup, type BuyerSession, signIn } from "./buyer_helpers.ts";

type Obj = Record<string, unknown>;

function send(
  folio: TestFolio,
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; csrf?: string; key?: string } = {},
) {
  const headers = new Headers();
  if (options.body !== undefined) headers.set("content-type", "application/json");
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.csrf !== undefined) headers.set("x-csrf-token", options.csrf);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  return folio.request(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = await json<{ error: { code: string; message: string } }>(res);
  return { status: res.status, ...body.error };
}

const asSession = (s: BuyerSession) => ({ cookie: s.cookie, csrf: s.csrfToken });

Deno.test("a buyer signs in with email and password, or with the key; the cookie is HttpOnly, Lax, and Secure only on https", async () => {
  await using folio = await testFolio();
  const { buyerId, apiKey } = await apiSignup(folio, {
    email: "Ops@Acme.test",
    password: PASSWORD,
  });

  const byPassword = await send(folio, "POST", "/api/marketplace/session", {
    body: { email: "ops@acme.TEST", password: PASSWORD },
  });
  assert.equal(byPassword.status, 201);
  const cookie = byPassword.headers.get("set-cookie")!;
  assert.match(cookie, /^folio_buyer_session=bs_[0-9A-Za-z]{38};/);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.match(cookie, /Path=\//);
  assert.match(cookie, /Max-Age=604800/);
  assert.doesNotMatch(cookie, /Secure/);
  assert.equal(byPassword.headers.get("cache-control"), "no-store");
  assert.equal(byPassword.headers.get("access-control-allow-origin"), null);
  const body = await json<Obj>(byPassword);
  assert.deepEqual(Object.keys(body).sort(), ["buyerId", "csrfToken", "expiresAt", "name"]);
  assert.deepEqual(sessionCreatedSchema.parse(body), body, "the answer the document describes");
  assert.equal(body.buyerId, buyerId);
  assert.equal(body.expiresAt, "2026-11-22T12:00:00.000Z", "7 days, absolute");

  // Only the hash of the token is stored.
  const token = cookie.split(";")[0].split("=")[1];
  const stored = await folio.store.db.execute("SELECT token_hash, via FROM buyer_sessions");
  assert.equal(stored.rows.length, 1);
  assert.notEqual(String(stored.rows[0].token_hash), token);
  assert.equal(stored.rows[0].via, "password");

  const session = await send(folio, "GET", "/api/marketplace/session", {
    cookie: cookie.split(";")[0],
  });
  const who = await json(session);
  assert.deepEqual(sessionSchema.parse(who), who);
  assert.deepEqual(who, {
    buyerId,
    name: "Acme AI",
    email: "Ops@Acme.test",
    csrfToken: body.csrfToken,
    expiresAt: body.expiresAt,
  });
  assert.equal(session.headers.get("access-control-allow-origin"), null, "never CORS-open");

  const byKey = await signIn(folio, { apiKey });
  assert.equal(byKey.buyerId, buyerId);
  const account = await json(
    await send(folio, "GET", "/api/marketplace/account", { cookie: byKey.cookie }),
  );
  assert.deepEqual(accountSchema.parse(account), account);
  assert.deepEqual(account, {
    buyerId,
    name: "Acme AI",
    email: "Ops@Acme.test",
    createdAt: "2026-11-15T12:00:00.000Z",
    hasPassword: true,
    keyHint: `mk_…${apiKey.slice(-4)}`,
  });

  // With the key instead of a session there is no CSRF token and no expiry.
  const viaKey = await json<Obj>(
    await send(folio, "GET", "/api/marketplace/session", { key: apiKey }),
  );
  assert.equal(viaKey.csrfToken, null);
  assert.equal(viaKey.expiresAt, null);

  await using secure = await testFolio({ env: { FOLIO_BASE_URL: "https://folio.example" } });
  await apiSignup(secure, { password: PASSWORD });
  const onHttps = await send(secure, "POST", "/api/marketplace/session", {
    body: { email: "ops@acme.test", password: PASSWORD },
  });
  assert.equal(onHttps.status, 201);
  assert.match(onHttps.headers.get("set-cookie")!, /; Secure/);
  await onHttps.body?.cancel();
});

Deno.test("a wrong password, an unknown email, an account without a password and a bad key all get the same 401", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { email: "ops@acme.test", password: PASSWORD });
  await apiSignup(folio, { email: "nopass@acme.test" });
  const revoked = apiKey;
  const rotated = await send(folio, "POST", "/api/marketplace/rotate-key", { key: apiKey });
  assert.equal(rotated.status, 200);
  await rotated.body?.cancel();
  const attempts: Obj[] = [
    { email: "ops@acme.test", password: "not the password" },
    { email: "nobody@acme.test", password: PASSWORD },
    { email: "nopass@acme.test", password: PASSWORD },
    { email: "nopass@acme.test", password: "" },
    { apiKey: revoked },
    { apiKey: "mk_malformed" },
    { apiKey: "" },
  ];
  for (const attempt of attempts) {
    const res = await send(folio, "POST", "/api/marketplace/session", { body: attempt });
    assert.deepEqual(await errorOf(res), {
      status: 401,
      code: "invalid_credentials",
      message: "The email or password is incorrect",
    }, JSON.stringify(attempt));
    assert.equal(res.headers.get("set-cookie"), null);
  }
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyer_sessions");
  assert.equal(Number(rs.rows[0].n), 0);

  // Not credentials at all: a 400 naming the shape, and a form post is refused outright.
  const shapeless = await send(folio, "POST", "/api/marketplace/session", {
    body: { email: "ops@acme.test" },
  });
  assert.deepEqual(await errorOf(shapeless), {
    status: 400,
    code: "invalid_request",
    message: "body: must be {email, password} or {apiKey}",
  });
  const form = await folio.request("/api/marketplace/session", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify({ apiKey: revoked }),
  });
  assert.equal(form.status, 415);
  await form.body?.cancel();
});

Deno.test("sign-in is slowed per address and email, bounded per address, never locked for other addresses", async () => {
  await using folio = await testFolio();
  await apiSignup(folio, { email: "ops@acme.test", password: PASSWORD });
  const { free } = SIGN_IN.perAccount;
  const attempt = (email: string, password = "wrong guess!", from?: string) =>
    folio.request("/api/marketplace/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
      from,
    });
  // The free failures and the first one that starts the delay are checked; the next waits.
  for (let i = 0; i <= free; i++) {
    const res = await attempt(i % 2 ? "OPS@acme.test" : "ops@acme.test");
    assert.equal(res.status, 401, `attempt ${i + 1}`);
    await res.body?.cancel();
  }
  const limited = await attempt("ops@acme.test");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "1");
  assert.equal((await errorOf(limited)).code, "rate_limited");
  // The right password waits too from this address, but not from another one.
  const right = await attempt("ops@acme.test", PASSWORD);
  assert.equal(right.status, 429);
  await right.body?.cancel();
  const elsewhere = await attempt("ops@acme.test", PASSWORD, "192.0.2.7");
  assert.equal(elsewhere.status, 201);
  await elsewhere.body?.cancel();
  // The publisher sign-in of the same email has its own budget.
  const publisher = await send(folio, "POST", "/api/publishers/login", {
    body: { email: "ops@acme.test", password: PASSWORD },
  });
  assert.equal(publisher.status, 401);
  await publisher.body?.cancel();

  // Per address: keys and other emails count against the same budget.
  for (let i = free + 3; i < SIGN_IN.perAddress.limit; i++) {
    const res = await send(folio, "POST", "/api/marketplace/session", {
      body: { apiKey: `mk_guess${i}` },
    });
    assert.equal(res.status, 401);
    await res.body?.cancel();
  }
  const byIp = await attempt("other@acme.test");
  assert.equal(byIp.status, 429);
  await byIp.body?.cancel();
  folio.clock.advance(SIGN_IN.perAddress.windowMs);
  const later = await attempt("ops@acme.test", PASSWORD);
  assert.equal(later.status, 201);
  await later.body?.cancel();
});

Deno.test("a cookie request that changes anything needs the session's CSRF token: missing or wrong is 403 and nothing changes", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { password: PASSWORD });
  const s = await signIn(folio, { email: "ops@acme.test", password: PASSWORD });
  const changes: [string, string, unknown][] = [
    ["POST", "/api/marketplace/rotate-key", undefined],
    ["PUT", "/api/marketplace/password", {
      password: "a new password!",
      currentPassword: PASSWORD,
    }],
    ["POST", "/api/marketplace/licenses", { publisherId: "pub_demo", useCases: ["display"] }],
    ["DELETE", "/api/marketplace/session", undefined],
  ];
  for (const [method, path, body] of changes) {
    for (const csrf of [undefined, "", "x".repeat(32), s.csrfToken.slice(1)]) {
      const res = await send(folio, method, path, { body, cookie: s.cookie, csrf });
      assert.deepEqual(await errorOf(res), {
        status: 403,
        code: "csrf_failed",
        message: "X-CSRF-Token is missing or does not match the session",
      }, `${method} ${path} csrf=${csrf}`);
    }
  }
  const db = folio.store.db;
  const count = async (sql: string) => Number((await db.execute(sql)).rows[0].n);
  assert.equal(await count("SELECT COUNT(*) AS n FROM licenses"), 0);
  assert.equal(await count("SELECT COUNT(*) AS n FROM buyer_keys WHERE revoked_at IS NULL"), 1);
  assert.equal(await count("SELECT COUNT(*) AS n FROM buyer_sessions"), 1);
  // The old key still works, the password did not change.
  const usage = await send(folio, "GET", "/api/marketplace/usage", { key: apiKey });
  assert.equal(usage.status, 200);
  await usage.body?.cancel();
  await signIn(folio, { email: "ops@acme.test", password: PASSWORD });

  // Reads need no token; with it, the same cookie changes things.
  const reads = await send(folio, "GET", "/api/marketplace/licenses", { cookie: s.cookie });
  assert.equal(reads.status, 200);
  assert.equal(reads.headers.get("access-control-allow-origin"), null);
  await reads.body?.cancel();
  const licensed = await send(folio, "POST", "/api/marketplace/licenses", {
    body: { publisherId: "pub_demo", useCases: ["display"] },
    ...asSession(s),
  });
  assert.equal(licensed.status, 201);
  await licensed.body?.cancel();
  // The Authorization header wins over the cookie, and needs no CSRF token.
  const both = await send(folio, "POST", "/api/marketplace/clients", {
    body: {},
    cookie: s.cookie,
    key: apiKey,
  });
  assert.equal(both.status, 400);
  await both.body?.cancel();
});

Deno.test("signing out ends the session on every node; an unknown or expired cookie gets the one 401", async () => {
  await using folio = await testFolio();
  await apiSignup(folio, { password: PASSWORD });
  const s = await signIn(folio, { email: "ops@acme.test", password: PASSWORD });
  const out = await send(folio, "DELETE", "/api/marketplace/session", asSession(s));
  assert.equal(out.status, 204);
  assert.match(out.headers.get("set-cookie")!, /^folio_buyer_session=; Max-Age=0/);
  for (const cookie of [s.cookie, "folio_buyer_session=bs_nonsense"]) {
    const res = await send(folio, "GET", "/api/marketplace/account", { cookie });
    assert.deepEqual(await errorOf(res), {
      status: 401,
      code: "invalid_api_key",
      message: "The API key is missing, malformed, unknown or revoked",
    });
  }
  // Signing out again, or without a session, is harmless.
  const again = await send(folio, "DELETE", "/api/marketplace/session", { cookie: s.cookie });
  assert.equal(again.status, 204);

  const t = await signIn(folio, { email: "ops@acme.test", password: PASSWORD });
  folio.clock.advance(7 * 86_400_000);
  const expired = await send(folio, "GET", "/api/marketplace/session", { cookie: t.cookie });
  assert.equal(expired.status, 401);
  await expired.body?.cancel();
});

Deno.test("setting a password needs no current one; changing it needs the current one and ends the other sessions", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { email: "ops@acme.test" });
  const put = (body: unknown, auth: { key?: string; cookie?: string; csrf?: string }) =>
    send(folio, "PUT", "/api/marketplace/password", { body, ...auth });

  const short = await put({ password: "short" }, { key: apiKey });
  assert.deepEqual(await errorOf(short), {
    status: 400,
    code: "invalid_request",
    message: "password: must be at least 10 characters",
    param: "password",
  });
  const set = await put({ password: PASSWORD }, { key: apiKey });
  assert.equal(set.status, 204);
  const first = await signIn(folio, { email: "ops@acme.test", password: PASSWORD });
  const second = await signIn(folio, { apiKey });

  const missing = await put({ password: "a brand new password" }, asSession(first));
  assert.deepEqual(await errorOf(missing), {
    status: 400,
    code: "invalid_request",
    message: "currentPassword: is required to change a password that is set",
    param: "currentPassword",
  });
  const wrong = await put(
    { password: "a brand new password", currentPassword: "not the password" },
    asSession(first),
  );
  assert.deepEqual(await errorOf(wrong), {
    status: 401,
    code: "invalid_credentials",
    message: "currentPassword: is incorrect",
    param: "currentPassword",
  });
  const changed = await put(
    { password: "a brand new password", currentPassword: PASSWORD },
    asSession(first),
  );
  assert.equal(changed.status, 204);

  const stays = await send(folio, "GET", "/api/marketplace/account", { cookie: first.cookie });
  assert.equal((await json(stays)).hasPassword, true, "the session that changed it stays");
  const ended = await send(folio, "GET", "/api/marketplace/account", { cookie: second.cookie });
  assert.equal(ended.status, 401, "every other session ends");
  await ended.body?.cancel();
  const old = await send(folio, "POST", "/api/marketplace/session", {
    body: { email: "ops@acme.test", password: PASSWORD },
  });
  assert.equal(old.status, 401);
  await old.body?.cancel();
  await signIn(folio, { email: "ops@acme.test", password: "a brand new password" });
});

Deno.test("sessions belong to the account: rotating the key keeps the session that rotated it and password sessions, and ends other sessions a key opened", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio, { password: PASSWORD });
  const mine = await signIn(folio, { apiKey });
  const leaked = await signIn(folio, { apiKey });
  const byPassword = await signIn(folio, { email: "ops@acme.test", password: PASSWORD });

  const rotated = await send(folio, "POST", "/api/marketplace/rotate-key", asSession(mine));
  assert.equal(rotated.status, 200);
  const { apiKey: newKey } = await json<{ apiKey: string }>(rotated);

  const status = async (s: BuyerSession) => {
    const res = await send(folio, "GET", "/api/marketplace/account", { cookie: s.cookie });
    await res.body?.cancel();
    return res.status;
  };
  assert.equal(await status(mine), 200, "the session of the rotated key still works");
  assert.equal(await status(byPassword), 200);
  assert.equal(await status(leaked), 401, "another session opened with the old key ends");
  const account = await json<Obj>(
    await send(folio, "GET", "/api/marketplace/account", { cookie: mine.cookie }),
  );
  assert.equal(account.keyHint, `mk_…${newKey.slice(-4)}`);

  // Rotating with the key itself ends every session a key opened; password sessions stay.
  const again = await signIn(folio, { apiKey: newKey });
  const res = await send(folio, "POST", "/api/marketplace/rotate-key", { key: newKey });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(await status(again), 401);
  assert.equal(await status(mine), 401);
  assert.equal(await status(byPassword), 200);
});

Deno.test("signup takes an optional password of 10 to 200 characters and keeps its answer", async () => {
  await using folio = await testFolio();
  const post = (body: Obj) => send(folio, "POST", "/api/marketplace/signup", { body });
  const long = await post({ name: "A", email: "a@acme.test", password: "x".repeat(201) });
  assert.deepEqual(await errorOf(long), {
    status: 400,
    code: "invalid_request",
    message: "password: must be at most 200 characters",
    param: "password",
  });
  const notString = await post({ name: "A", email: "a@acme.test", password: 1234567890 });
  assert.equal(notString.status, 400);
  await notString.body?.cancel();
  const rs = await folio.store.db.execute("SELECT COUNT(*) AS n FROM buyers");
  assert.equal(Number(rs.rows[0].n), 0);

  const ok = await post({ name: "A", email: "a@acme.test", password: PASSWORD });
  assert.equal(ok.status, 201);
  const body = await json<Obj>(ok);
  assert.deepEqual(Object.keys(body).sort(), ["apiKey", "buyerId", "clientId", "note"]);
  assert.equal(JSON.stringify(body).includes(PASSWORD), false);
  const stored = await folio.store.db.execute("SELECT password_hash FROM buyers");
  assert.match(String(stored.rows[0].password_hash), /^pbkdf2-sha256\$600000\$/);
});
