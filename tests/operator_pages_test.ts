/**
 * The operator console's pages without JavaScript (issue 38 part 1): every form carries a CSRF
 * token and a forged one changes nothing; the sign-in steps cannot be skipped; a publisher signed
 * in to the console is not an operator here. The browser walks the same pages in
 * tests/operator_browser_test.ts.
 */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, hidden, textOf, Visitor } from "./console_helpers.ts";
import { codeAt, makeOperator, OPERATOR_PASSWORD } from "./operator_helpers.ts";
import type { TestFolio } from "./helpers.ts";

/** A visitor through the first sign-in: signed in, on the desk. */
async function operatorVisitor(folio: TestFolio) {
  const op = await makeOperator(folio);
  const v = new Visitor(folio);
  const login = await v.get("/operator/login");
  const enrol = await v.post("/operator/login", {
    _csrf: hidden(login.html),
    email: op.email,
    password: OPERATOR_PASSWORD,
    next: "/operator/audit",
  });
  assert.equal(enrol.url, "/operator/enrol?next=%2Foperator%2Faudit");
  const secret = /data-copy="([A-Z2-7]{32})"/.exec(enrol.html)![1];
  const codes = await v.post("/operator/enrol", {
    _csrf: hidden(enrol.html),
    code: codeAt(folio, secret),
  });
  assert.equal(codes.url, "/operator/recovery-codes");
  folio.clock.advance(30_000);
  return { v, op, secret };
}

Deno.test("the sign-in form needs its double-submit token, and the steps cannot be skipped", async () => {
  await using folio = await testFolio();
  const op = await makeOperator(folio);
  const v = new Visitor(folio);
  await v.get("/operator/login");
  const forged = await v.post("/operator/login", {
    _csrf: "x".repeat(32),
    email: op.email,
    password: OPERATOR_PASSWORD,
  });
  assert.equal(forged.status, 403);
  assert.match(textOf(forged.html), /The form expired/);
  // Without the password step, the later steps go back to it.
  assert.equal((await v.get("/operator/login/code")).url, "/operator/login");
  assert.equal((await v.get("/operator/enrol")).url, "/operator/login");
  const wrong = await v.post("/operator/login", {
    _csrf: hidden((await v.get("/operator/login")).html),
    email: op.email,
    password: "not it at all",
  });
  assert.equal(wrong.status, 401);
  assert.match(textOf(wrong.html), /The email or password is incorrect/);
  // After the password, the console itself still asks to sign in.
  const step = await v.post("/operator/login", {
    _csrf: hidden(wrong.html),
    email: op.email,
    password: OPERATOR_PASSWORD,
  });
  assert.equal(step.url, "/operator/enrol?next=%2Foperator");
  assert.equal(
    (await v.get("/operator/account")).url,
    "/operator/login?next=%2Foperator%2Faccount",
  );
});

Deno.test("after enrolment a code is needed at the next sign-in, which returns to the page asked for", async () => {
  await using folio = await testFolio();
  const { v, op, secret } = await operatorVisitor(folio);
  const desk = await v.get("/operator");
  assert.equal(desk.status, 200);
  assert.match(textOf(desk.html), /operator\.totp_enrolled/);
  // Enrolment is over: its page sends the operator on.
  assert.equal((await v.get("/operator/enrol")).url, "/operator");
  const other = new Visitor(folio);
  const login = await other.get("/operator/login");
  const code = await other.post("/operator/login", {
    _csrf: hidden(login.html),
    email: op.email,
    password: OPERATOR_PASSWORD,
    next: "/operator/payouts",
  });
  assert.equal(code.url, "/operator/login/code?next=%2Foperator%2Fpayouts");
  const wrong = await other.post("/operator/login/code", {
    _csrf: hidden(code.html),
    next: "/operator/payouts",
    code: "12345",
  });
  assert.equal(wrong.status, 401);
  const done = await other.post("/operator/login/code", {
    _csrf: hidden(wrong.html),
    next: "/operator/payouts",
    code: codeAt(folio, secret),
  });
  assert.equal(done.url, "/operator/payouts");
});

Deno.test("forged forms change nothing: a key, a revocation, new recovery codes", async () => {
  await using folio = await testFolio();
  const { v } = await operatorVisitor(folio);
  const page = await v.get("/operator/account");
  const forged = await v.post("/operator/account/keys", { _csrf: "nope", name: "forged" });
  assert.equal(forged.status, 403);
  // The kit's expired-form page, as on the console and the portal (tests/form_expired_test.ts).
  assert.match(textOf(forged.html), /This form has expired Nothing was changed/);
  assert.match(forged.html, /<a href="\/operator">Back to the form<\/a>/);
  const made = await v.post("/operator/account/keys", { _csrf: hidden(page.html), name: "real" });
  assert.equal(made.status, 200);
  assert.match(made.html, /data-copy="opk_/);
  // Reloading the key's page makes no second key and shows the key no more.
  const reload = await v.get("/operator/account/keys/new");
  assert.equal(reload.status, 200);
  assert.doesNotMatch(reload.html, /data-copy="opk_/);
  const keys = await folio.deps.store.db.execute("SELECT id, name, revoked_at FROM operator_keys");
  assert.deepEqual(keys.rows.map((r) => r.name), ["real"]);
  const id = String(keys.rows[0].id);
  const revoke = await v.post(`/operator/account/keys/${id}/revoke`, { _csrf: "nope" });
  assert.equal(revoke.status, 403);
  const codes = await v.post("/operator/recovery-codes", { _csrf: "nope" });
  assert.equal(codes.status, 403);
  const after = await folio.deps.store.db.execute("SELECT revoked_at FROM operator_keys");
  assert.equal(after.rows[0].revoked_at, null);
  const log = await folio.deps.store.db.execute(
    "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'operator.recovery_codes_regenerated'",
  );
  assert.equal(Number(log.rows[0].n), 0);
  // A name the API refuses is shown beside its field, with what was typed.
  const empty = await v.post("/operator/account/keys", {
    _csrf: hidden(page.html),
    name: "x".repeat(81),
  });
  assert.equal(empty.status, 400);
  assert.match(textOf(empty.html), /What it is for:/);
});

Deno.test("new recovery codes are shown once after their redirect", async () => {
  await using folio = await testFolio();
  const { v } = await operatorVisitor(folio);
  const page = await v.get("/operator/account");
  const shown = await v.post("/operator/recovery-codes", { _csrf: hidden(page.html) });
  assert.equal(shown.url, "/operator/recovery-codes");
  assert.equal((shown.html.match(/<li><code>[0-9a-z]{4}-/g) ?? []).length, 10);
  const reload = await v.get("/operator/recovery-codes");
  assert.match(textOf(reload.html), /Already shown/);
  assert.doesNotMatch(reload.html, /<li><code>/);
});

Deno.test("a publisher signed in to its console is sent to the operator sign-in", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/operator/audit");
  assert.equal(page.url, "/operator/login?next=%2Foperator%2Faudit");
  const csv = await visitor.get("/operator/audit.csv");
  assert.equal(csv.url, "/operator/login?next=%2Foperator%2Faudit.csv");
});
