import assert from "node:assert/strict";
import { SIGN_IN } from "../server/platform/throttle.ts";
import { json, testFolio } from "./helpers.ts";
import { assertInvalid, bearer, logIn, PASSWORD, sendJson, signUp } from "./manage_helpers.ts";

Deno.test("signup creates a publisher whose pk_ key manages it, storing only hashes", async () => {
  await using folio = await testFolio();
  const res = await sendJson(folio, "POST", "/api/publishers/signup", {
    name: "Acme News",
    email: "Editor@Acme.test",
    password: PASSWORD,
    slug: "acme",
  });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await json<{ publisherId: string; slug: string; apiKey: string }>(res);
  assert.equal(body.slug, "acme");
  assert.match(body.apiKey, /^pk_[0-9A-Za-z]{38}$/);
  const settings = await folio.request("/api/publisher/settings", { headers: bearer(body.apiKey) });
  assert.equal(settings.status, 200);
  const s = await json(settings);
  assert.equal(s.publisherId, body.publisherId);
  assert.equal(s.name, "Acme News");

  const db = folio.store.db;
  const users = await db.execute({
    sql: "SELECT email, password_hash FROM publisher_users WHERE publisher_id = ?",
    args: [body.publisherId],
  });
  assert.equal(users.rows.length, 1);
  assert.equal(users.rows[0].email, "editor@acme.test");
  const hash = String(users.rows[0].password_hash);
  assert.match(hash, /^pbkdf2-sha256\$600000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.ok(!hash.includes(PASSWORD));
  const keys = await db.execute({
    sql: "SELECT * FROM publisher_keys WHERE publisher_id = ?",
    args: [body.publisherId],
  });
  assert.ok(!JSON.stringify(keys.rows).includes(body.apiKey.slice(3)));
});

Deno.test("signup refuses bad input with the field and the reason, and creates nothing", async () => {
  await using folio = await testFolio();
  const good = { name: "Acme", email: "a@acme.test", password: PASSWORD, slug: "acme" };
  const count = async () =>
    Number((await folio.store.db.execute("SELECT COUNT(*) AS n FROM publishers")).rows[0].n);
  const before = await count();
  const cases: [Record<string, unknown>, string][] = [
    [{ ...good, admin: true }, "admin: is not a known field"],
    [{ ...good, password: "short" }, "password: must have at least 10 characters"],
    [{ ...good, password: "x".repeat(201) }, "password: must have at most 200 characters"],
    [{ ...good, email: "not-an-email" }, "email: is not an email address"],
    [
      { ...good, slug: "Bad Slug" },
      "slug: must be 2 to 40 lower-case letters, digits or inner hyphens",
    ],
    [{ ...good, name: 7 }, "name: expected a string"],
    [{ name: "Acme", email: "a@acme.test", slug: "acme" }, "password: is required"],
  ];
  for (const [input, message] of cases) {
    await assertInvalid(await sendJson(folio, "POST", "/api/publishers/signup", input), message);
  }
  await assertInvalid(
    await sendJson(folio, "POST", "/api/publishers/signup", "{not json"),
    "body: is not valid JSON",
  );
  // Past this address's sign-up budget for the hour: the next window starts afresh.
  folio.clock.advance(3_600_000);
  const taken = await sendJson(folio, "POST", "/api/publishers/signup", { ...good, slug: "demo" });
  assert.equal(taken.status, 409);
  assert.equal((await json<{ error: { code: string } }>(taken)).error.code, "slug_taken");
  await signUp(folio, { slug: "first", email: "same@acme.test" });
  const again = await sendJson(folio, "POST", "/api/publishers/signup", {
    ...good,
    email: "SAME@acme.test",
  });
  assert.equal(again.status, 409);
  assert.equal((await json<{ error: { code: string } }>(again)).error.code, "email_taken");
  assert.equal(await count(), before + 1);
});

Deno.test("login sets an HttpOnly SameSite=Lax session cookie that reads the settings", async () => {
  await using folio = await testFolio();
  const { publisherId, email } = await signUp(folio, { slug: "acme" });
  const session = await logIn(folio, email.toUpperCase());
  assert.match(session.setCookie, /^folio_session=[^;]+;/);
  assert.match(session.setCookie, /HttpOnly/);
  assert.match(session.setCookie, /SameSite=Lax/);
  assert.match(session.setCookie, /Path=\//);
  assert.doesNotMatch(session.setCookie, /Secure/);
  const res = await folio.request("/api/publisher/settings", {
    headers: { cookie: session.cookie },
  });
  assert.equal(res.status, 200);
  assert.equal((await json(res)).publisherId, publisherId);
  // Only the hash of the session token is stored.
  const token = session.cookie.split("=")[1];
  const rows = await folio.store.db.execute("SELECT token_hash FROM dashboard_sessions");
  assert.equal(rows.rows.length, 1);
  assert.notEqual(rows.rows[0].token_hash, token);
  assert.ok(!JSON.stringify(rows.rows).includes(token));
});

Deno.test("the session cookie is Secure when the base URL is https", async () => {
  await using folio = await testFolio({ env: { FOLIO_BASE_URL: "https://folio.test" } });
  const { email } = await signUp(folio, { slug: "acme" });
  const session = await logIn(folio, email);
  assert.match(session.setCookie, /; Secure/);
});

Deno.test("login answers the identical 401 for an unknown email and a wrong password", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio, { slug: "acme" });
  const answers = [];
  for (
    const input of [{ email, password: "wrong password!" }, {
      email: "nobody@x.test",
      password: PASSWORD,
    }, { email: "not an email", password: "" }]
  ) {
    const res = await sendJson(folio, "POST", "/api/publishers/login", input);
    answers.push({
      status: res.status,
      body: await res.text(),
      cookie: res.headers.get("set-cookie"),
    });
  }
  assert.equal(answers[0].status, 401);
  assert.equal(answers[0].cookie, null);
  assert.deepEqual(answers[1], answers[0]);
  assert.deepEqual(answers[2], answers[0]);
});

Deno.test("a cookie-authenticated PATCH without X-CSRF-Token is refused with 403 and changes nothing", async () => {
  await using folio = await testFolio();
  const { email, apiKey } = await signUp(folio, { slug: "acme" });
  const { cookie, csrfToken } = await logIn(folio, email);
  const patch = { toggles: { a2a: true } };
  const attempts: Record<string, string>[] = [{ cookie }, { cookie, "x-csrf-token": "wrong" }];
  for (const headers of attempts) {
    const res = await sendJson(folio, "PATCH", "/api/publisher/settings", patch, headers);
    assert.equal(res.status, 403);
    assert.equal((await json<{ error: { code: string } }>(res)).error.code, "csrf_failed");
  }
  const unchanged = await folio.request("/api/publisher/settings", { headers: bearer(apiKey) });
  assert.equal((await json<{ toggles: { a2a: boolean } }>(unchanged)).toggles.a2a, false);
  const ok = await sendJson(folio, "PATCH", "/api/publisher/settings", patch, {
    cookie,
    "x-csrf-token": csrfToken,
  });
  assert.equal(ok.status, 200);
  assert.equal((await json<{ toggles: { a2a: boolean } }>(ok)).toggles.a2a, true);
});

Deno.test("logout ends the session and expires the cookie", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio, { slug: "acme" });
  const { cookie } = await logIn(folio, email);
  const out = await folio.request("/api/publishers/logout", {
    method: "POST",
    headers: { cookie },
  });
  assert.equal(out.status, 204);
  assert.match(out.headers.get("set-cookie") ?? "", /folio_session=;.*Max-Age=0/);
  await out.body?.cancel();
  const res = await folio.request("/api/publisher/settings", { headers: { cookie } });
  assert.equal(res.status, 401);
  await res.body?.cancel();
  const again = await folio.request("/api/publishers/logout", { method: "POST" });
  assert.equal(again.status, 204);
  await again.body?.cancel();
});

Deno.test("sessions expire after seven days", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio, { slug: "acme" });
  const { cookie } = await logIn(folio, email);
  folio.clock.advance(7 * 24 * 3_600_000 + 1);
  const res = await folio.request("/api/publisher/settings", { headers: { cookie } });
  assert.equal(res.status, 401);
  await res.body?.cancel();
});

Deno.test("wrong passwords slow that address for that email with 429 and Retry-After, then it may try again", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio, { slug: "acme" });
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let i = 0; i < SIGN_IN.perAccount.free + 2; i++) {
    const res = await sendJson(folio, "POST", "/api/publishers/login", {
      email,
      password: `wrong password ${i}`,
    });
    statuses.push(res.status);
    retryAfter = res.headers.get("retry-after");
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [...Array(SIGN_IN.perAccount.free + 1).fill(401), 429]);
  assert.equal(retryAfter, "1");
  // The right password from this address waits for the delay too.
  const blocked = await sendJson(folio, "POST", "/api/publishers/login", {
    email,
    password: PASSWORD,
  });
  assert.equal(blocked.status, 429);
  await blocked.body?.cancel();
  folio.clock.advance(Number(retryAfter) * 1000);
  await logIn(folio, email);
});

Deno.test("signup is rate-limited per address with 429 and Retry-After", async () => {
  await using folio = await testFolio();
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    // Invalid bodies count too: the limit guards the endpoint, not only successful sign-ups.
    const res = await sendJson(folio, "POST", "/api/publishers/signup", { slug: `s${i}` });
    statuses.push(res.status);
    if (res.status === 429) assert.match(res.headers.get("retry-after") ?? "", /^\d+$/);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [...Array(10).fill(400), 429]);
});

Deno.test("management routes send no CORS headers to other origins (docs/TEST-PLAN.md 5.14)", async () => {
  await using folio = await testFolio();
  const key = folio.seeded!.apiKey;
  const origins = [
    "https://evil.test",
    "null",
    "https://localhost.evil.test",
    "https://evil-localhost",
  ];
  for (const origin of origins) {
    const get = await folio.request("/api/publisher/settings", {
      headers: { origin, ...bearer(key) },
    });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("access-control-allow-origin"), null);
    assert.equal(get.headers.get("access-control-allow-credentials"), null);
    await get.body?.cancel();
    const preflight = await folio.request("/api/publisher/settings", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "authorization",
      },
    });
    assert.equal(preflight.headers.get("access-control-allow-origin"), null);
    assert.equal(preflight.headers.get("access-control-allow-headers"), null);
    await preflight.body?.cancel();
  }
  const login = await sendJson(folio, "POST", "/api/publishers/login", {
    email: "x",
    password: "y",
  }, {
    origin: "https://evil.test",
  });
  assert.equal(login.headers.get("access-control-allow-origin"), null);
  await login.body?.cancel();
});

Deno.test("JSON routes refuse other content types, so HTML forms cannot post to them", async () => {
  await using folio = await testFolio();
  const { email } = await signUp(folio, { slug: "acme" });
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
    const res = await folio.request("/api/publishers/login", {
      method: "POST",
      headers: { "content-type": type },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(res.status, 415);
    assert.equal(res.headers.get("set-cookie"), null);
    await res.body?.cancel();
  }
  const big = await sendJson(folio, "PATCH", "/api/publisher/settings", {
    name: "x".repeat(70_000),
  }, bearer(folio.seeded!.apiKey));
  assert.equal(big.status, 413);
  assert.equal((await json<{ error: { code: string } }>(big)).error.code, "payload_too_large");
});

Deno.test("management routes refuse missing, malformed and revoked credentials alike", async () => {
  await using folio = await testFolio();
  const bodies = new Set<string>();
  const attempts: Record<string, string>[] = [
    {},
    { authorization: "Bearer pk_nope" },
    { authorization: "Basic abc" },
    { cookie: "folio_session=fs_forged" },
  ];
  for (const headers of attempts) {
    const res = await folio.request("/api/publisher/rules", { headers });
    assert.equal(res.status, 401);
    bodies.add(await res.text());
  }
  assert.equal(bodies.size, 1);
});

Deno.test("GET /api/openapi.json documents the whole management API as OpenAPI 3.1", async () => {
  await using folio = await testFolio();
  const res = await folio.request("/api/openapi.json");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  // deno-lint-ignore no-explicit-any
  const doc = await json<any>(res);
  assert.equal(doc.openapi, "3.1.0");
  assert.equal(doc.servers[0].url, folio.config.baseUrl);
  const expected: [string, string][] = [
    ["/api/publishers/signup", "post"],
    ["/api/publishers/login", "post"],
    ["/api/publishers/logout", "post"],
    ["/api/publisher/settings", "get"],
    ["/api/publisher/settings", "patch"],
    ["/api/publisher/sources", "post"],
    ["/api/publisher/jobs", "post"],
    ["/api/publisher/jobs/{id}", "get"],
    ["/api/publisher/books", "post"],
    ["/api/publisher/coverage", "get"],
    ["/api/publisher/rules", "get"],
    ["/api/publisher/rules", "post"],
    ["/api/publisher/rules/{id}", "patch"],
    ["/api/publisher/rules/{id}", "delete"],
    ["/api/publisher/articles", "get"],
    ["/api/publisher/articles/{id}", "patch"],
    ["/api/publisher/calls", "get"],
    ["/api/publisher/intents", "get"],
    ["/api/publisher/earnings", "get"],
    ["/api/publisher/license-requests", "get"],
    ["/api/publisher/license-requests/{id}/approve", "post"],
    ["/api/publisher/license-requests/{id}/deny", "post"],
  ];
  for (const [path, method] of expected) {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${path} is documented`);
    assert.ok(op.responses, `${method.toUpperCase()} ${path} has responses`);
  }
  const patch = doc.paths["/api/publisher/settings"].patch.requestBody.content["application/json"]
    .schema;
  assert.equal(patch.additionalProperties, false);
  assert.equal(patch.properties.toggles.properties.publicRest.type, "boolean");
  assert.equal(patch.properties.toggles.additionalProperties, false);
  assert.deepEqual(patch.properties.sponsorTools.items.enum, ["cite_article", "publisher_info"]);
  const signup = doc.paths["/api/publishers/signup"].post.requestBody.content["application/json"]
    .schema;
  assert.deepEqual(signup.required.sort(), ["email", "name", "password", "slug"]);
  assert.equal(signup.properties.password.minLength, 10);
  assert.ok(doc.paths["/api/publisher/rules"].post.security.length > 0);
  // Every $ref resolves.
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of refs) {
    const name = ref.split("/").at(-1)!.replace(/"$/, "");
    assert.ok(doc.components.schemas[name], ref);
  }
});
