/**
 * Issue 38 part 1: the operator API. Sign-in in two steps (password, then TOTP or a recovery
 * code; enrolment the first time), operator keys, and the guard in front of every operator route:
 * publisher and buyer credentials are refused, a cookie change without CSRF is refused, a wrong
 * or replayed code is refused.
 */
import assert from "node:assert/strict";
import { createApp } from "../server/app.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { json, testFolio } from "./helpers.ts";
import { logIn, signUp } from "./manage_helpers.ts";
import {
  codeAt,
  makeOperator,
  operatorKey,
  operatorRequest,
  passwordStep,
  signedInOperator,
} from "./operator_helpers.ts";

/** Routes that take no operator yet (the sign-in steps check their own session). */
const SIGN_IN = new Set([
  "POST /api/operator/login",
  "GET /api/operator/login",
  "POST /api/operator/login/second-factor",
  "POST /api/operator/enrolment",
  "POST /api/operator/enrolment/confirm",
  "POST /api/operator/logout",
  "POST /api/operator/password-reset",
  "POST /api/operator/password-reset/confirm",
]);

Deno.test("the first sign-in enrols an authenticator, then every request works with the session and CSRF", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  assert.equal(op.recoveryCodes.length, 10);
  assert.equal(new Set(op.recoveryCodes).size, 10);
  const session = await operatorRequest(folio, "GET", "/api/operator/session", op);
  const who = await session.json();
  assert.equal(session.status, 200);
  assert.equal(who.operatorId, op.operatorId);
  assert.equal(who.via, "session");
  assert.equal(who.recoveryCodesLeft, 10);
  // The secret is never shown again once confirmed.
  const again = await operatorRequest(folio, "POST", "/api/operator/enrolment", op);
  assert.equal(again.status, 409);
  await again.body?.cancel();
});

Deno.test("the second sign-in needs the code; a wrong code and a replayed one are refused", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const step = await passwordStep(folio, op.email);
  assert.equal(step.next, "second_factor");
  // The password step alone opens nothing.
  const early = await operatorRequest(folio, "GET", "/api/operator/session", step);
  assert.equal(early.status, 401);
  await early.body?.cancel();
  const wrong = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    code: codeAt(folio, op.secret, 5),
  });
  assert.equal(wrong.status, 401);
  assert.equal((await wrong.json()).error.code, "invalid_credentials");
  const code = codeAt(folio, op.secret);
  const ok = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    code,
  });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  assert.equal((await operatorRequest(folio, "GET", "/api/operator/session", step)).status, 200);
  // The same code, within its window, from another sign-in: refused.
  const other = await passwordStep(folio, op.email);
  const replay = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", other, {
    code,
  });
  assert.equal(replay.status, 401);
  await replay.body?.cancel();
  // The next step's code works.
  folio.clock.advance(30_000);
  const next = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", other, {
    code: codeAt(folio, op.secret),
  });
  assert.equal(next.status, 200);
  await next.body?.cancel();
});

Deno.test("a recovery code signs in once, and is audited", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const [first] = op.recoveryCodes;
  const step = await passwordStep(folio, op.email);
  const used = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    recoveryCode: first.toUpperCase().replace(/-/g, " "),
  });
  assert.equal(used.status, 200);
  await used.body?.cancel();
  const who = await json(await operatorRequest(folio, "GET", "/api/operator/session", step));
  assert.equal(who.recoveryCodesLeft, 9);
  const other = await passwordStep(folio, op.email);
  const twice = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", other, {
    recoveryCode: first,
  });
  assert.equal(twice.status, 401);
  await twice.body?.cancel();
  const log = await json<{ entries: { action: string }[] }>(
    await operatorRequest(
      folio,
      "GET",
      "/api/operator/audit?action=operator.recovery_code_used",
      step,
    ),
  );
  assert.equal(log.entries.length, 1);
});

Deno.test("wrong codes are slowed: past the free attempts the answer is 429 with Retry-After", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const step = await passwordStep(folio, op.email);
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
      code: "000000",
    });
    statuses.push(res.status);
    if (res.status === 429) assert.ok(Number(res.headers.get("retry-after")) >= 1);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses.slice(0, 5), [401, 401, 401, 401, 401]);
  assert.equal(statuses.at(-1), 429);
  // Even the right code waits while the pair is slowed.
  const right = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    code: codeAt(folio, op.secret),
  });
  assert.equal(right.status, 429);
  await right.body?.cancel();
});

Deno.test("a wrong password is the same 401 for known and unknown emails", async () => {
  await using folio = await testFolio();
  const op = await makeOperator(folio);
  for (const email of [op.email, "nobody@example.test"]) {
    const res = await operatorRequest(folio, "POST", "/api/operator/login", {}, {
      email,
      password: "not the password",
    });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error.message, "The email or password is incorrect");
  }
});

Deno.test("publisher and buyer credentials are refused on every operator route", async () => {
  await using folio = await testFolio();
  const publisher = await signUp(folio);
  const publisherSession = await logIn(folio, publisher.email);
  const buyer = await createBuyer(folio.deps.store.db, { name: "B", email: "b@example.test" }, {
    now: folio.clock.now(),
  });
  const routes = createApp(folio.deps).routes
    .filter((r) => r.path.startsWith("/api/operator/") && r.method !== "ALL")
    .map((r) => ({ method: r.method, path: r.path.replace(/:\w+/g, "opkey_x") }))
    .filter((r) => !SIGN_IN.has(`${r.method} ${r.path}`));
  assert.ok(routes.length >= 8, `${routes.length} guarded routes`);
  const credentials = [
    { key: publisher.apiKey },
    { key: buyer.apiKey },
    { cookie: publisherSession.cookie, csrfToken: publisherSession.csrfToken },
    { cookie: "folio_buyer_session=x" },
    {},
    { key: "opk_notarealkey" },
  ];
  for (const r of routes) {
    for (const auth of credentials) {
      const res = await operatorRequest(
        folio,
        r.method,
        r.path,
        auth,
        r.method === "GET" ? undefined : {},
      );
      const body = await res.json();
      assert.ok(
        [401, 403].includes(res.status),
        `${r.method} ${r.path} ${JSON.stringify(auth)}: ${res.status}`,
      );
      assert.ok(body.error.code, "the platform's error form");
    }
  }
  const refused = await operatorRequest(folio, "GET", "/api/operator/session", {
    key: publisher.apiKey,
  });
  assert.equal(refused.status, 403);
  assert.match((await refused.json()).error.message, /publisher or buyer credential/);
});

Deno.test("a cookie change without the CSRF token is refused and changes nothing", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const res = await operatorRequest(folio, "POST", "/api/operator/keys", { cookie: op.cookie }, {
    name: "forged",
  });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).error.code, "csrf_failed");
  const keys = await json<{ keys: unknown[] }>(
    await operatorRequest(folio, "GET", "/api/operator/keys", op),
  );
  assert.equal(keys.keys.length, 0);
});

Deno.test("an operator key is shown once, works as its operator, and stops at once when revoked", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const { key, apiKey } = await operatorKey(folio, op, "month end");
  assert.match(apiKey, /^opk_/);
  const listed = await json<{ keys: { id: string; hint: string }[] }>(
    await operatorRequest(folio, "GET", "/api/operator/keys", op),
  );
  assert.equal(listed.keys[0].id, key.id);
  assert.ok(!JSON.stringify(listed).includes(apiKey), "the list never has the key");
  // docs/TEST-PLAN.md 5.1's rule for keys: only the hash and the hint are kept, in the store,
  // the audit log and the app's log alike.
  const audited = await folio.deps.store.db.execute("SELECT after_json FROM audit_log");
  assert.ok(audited.rows.every((r) => !String(r.after_json).includes(apiKey)));
  assert.ok(!folio.logLines.some((line) => line.includes(apiKey)));
  const stored = await folio.deps.store.db.execute("SELECT key_hash FROM operator_keys");
  assert.notEqual(String(stored.rows[0].key_hash), apiKey);
  const who = await json(
    await operatorRequest(folio, "GET", "/api/operator/session", { key: apiKey }),
  );
  assert.equal(who.operatorId, op.operatorId);
  assert.equal(who.via, "key");
  // A key needs no CSRF token: it is not sent by browsers on their own.
  const revoke = await operatorRequest(folio, "DELETE", `/api/operator/keys/${key.id}`, {
    key: apiKey,
  });
  assert.equal(revoke.status, 200);
  assert.ok((await revoke.json()).revokedAt);
  const after = await operatorRequest(folio, "GET", "/api/operator/session", { key: apiKey });
  assert.equal(after.status, 401);
  await after.body?.cancel();
  const twice = await operatorRequest(folio, "DELETE", `/api/operator/keys/${key.id}`, op);
  assert.equal(twice.status, 409);
  await twice.body?.cancel();
  const log = await json<{ entries: { action: string; actor: { id: string } }[] }>(
    await operatorRequest(folio, "GET", "/api/operator/audit?action=operator_key.", op),
  );
  assert.deepEqual(log.entries.map((e) => e.action), [
    "operator_key.revoked",
    "operator_key.created",
  ]);
  assert.ok(log.entries.every((e) => e.actor.id === op.operatorId));
});

Deno.test("new recovery codes replace the old ones and are revealed once to the session", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  // Enrolment's codes are kept for one showing on the console's next page.
  const shown = await json(
    await operatorRequest(folio, "POST", "/api/operator/recovery-codes/reveal", op),
  );
  assert.deepEqual(shown.recoveryCodes, op.recoveryCodes);
  const gone = await operatorRequest(folio, "POST", "/api/operator/recovery-codes/reveal", op);
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  const made = await operatorRequest(folio, "POST", "/api/operator/recovery-codes", op);
  assert.equal(made.status, 201);
  const fresh = (await made.json()).recoveryCodes as string[];
  assert.equal(fresh.length, 10);
  const step = await passwordStep(folio, op.email);
  const old = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    recoveryCode: op.recoveryCodes[0],
  });
  assert.equal(old.status, 401);
  await old.body?.cancel();
  const now = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    recoveryCode: fresh[0],
  });
  assert.equal(now.status, 200);
  await now.body?.cancel();
  // Stored as hashes only.
  const rows = await folio.deps.store.db.execute("SELECT code_hash FROM operator_recovery_codes");
  assert.ok(rows.rows.every((r) => !fresh.includes(String(r.code_hash))));
});

Deno.test("signing out ends the session", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const out = await operatorRequest(folio, "POST", "/api/operator/logout", op);
  assert.equal(out.status, 204);
  const after = await operatorRequest(folio, "GET", "/api/operator/session", op);
  assert.equal(after.status, 401);
  await after.body?.cancel();
});

Deno.test("one code, or one recovery code, sent by two sign-ins at once passes only one", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const a = await passwordStep(folio, op.email);
  const b = await passwordStep(folio, op.email);
  const code = codeAt(folio, op.secret);
  const both = await Promise.all(
    [a, b].map((s) =>
      operatorRequest(folio, "POST", "/api/operator/login/second-factor", s, { code })
    ),
  );
  assert.deepEqual(both.map((r) => r.status).sort(), [200, 401]);
  await Promise.all(both.map((r) => r.body?.cancel()));
  const c = await passwordStep(folio, op.email);
  const d = await passwordStep(folio, op.email);
  const recoveryCode = op.recoveryCodes[3];
  const twice = await Promise.all(
    [c, d].map((s) =>
      operatorRequest(folio, "POST", "/api/operator/login/second-factor", s, { recoveryCode })
    ),
  );
  assert.deepEqual(twice.map((r) => r.status).sort(), [200, 401]);
  await Promise.all(twice.map((r) => r.body?.cancel()));
});

Deno.test("the password step's session expires after 10 minutes unfinished", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const step = await passwordStep(folio, op.email);
  folio.clock.advance(10 * 60_000 + 1);
  const late = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
    code: codeAt(folio, op.secret),
  });
  assert.equal(late.status, 401);
  assert.match((await late.json()).error.message, /expired/);
});
