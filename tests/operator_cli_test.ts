/**
 * Issue 38: operators are made by the admin CLI (`deno task folio create-operator`), which prints
 * the password once; the password signs in on the API, a second email is refused, and the resets
 * work and are audited. The start banner tells a fresh node how to make its first operator.
 */
import assert from "node:assert/strict";
import { openStore } from "../store/db.ts";
import { findOperatorByEmail } from "../store/operators.ts";
import { verifyPassword } from "../server/domain/accounts/passwords.ts";
import { operatorBanner } from "../server/runtime.ts";
import { CLI as CLI_ACTOR, resetOperatorTotp } from "../server/domain/operators/accounts.ts";
import { testFolio } from "./helpers.ts";
import { passwordStep, signedInOperator } from "./operator_helpers.ts";

const CLI = new URL("../scripts/folio.ts", import.meta.url).pathname;

async function folio(dir: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "--allow-all",
      CLI,
      ...args,
    ],
    env: { NO_COLOR: "1", FOLIO_DATA_DIR: dir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("create-operator prints a password once that signs in; a taken or bad email is refused; resets are audited", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = await folio(dir, "create-operator", "--email=Ops@Example.test");
    assert.equal(made.code, 0, made.stderr);
    const password = /password: (\S+)/.exec(made.stdout)?.[1];
    assert.ok(password);
    assert.match(made.stdout, /email: ops@example\.test/);
    assert.match(made.stdout, /\/operator\/login/);

    const again = await folio(dir, "create-operator", "--email=ops@example.test");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /an operator with ops@example\.test exists/);
    const bad = await folio(dir, "create-operator", "--email=not-an-email");
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /email: is not an email address/);
    const none = await folio(dir, "create-operator");
    assert.equal(none.code, 1);
    assert.match(none.stderr, /--email is required/);

    const reset = await folio(dir, "reset-operator-password", "--email=ops@example.test");
    assert.equal(reset.code, 0, reset.stderr);
    const second = /password: (\S+)/.exec(reset.stdout)?.[1]!;
    assert.notEqual(second, password);
    const totp = await folio(dir, "reset-operator-totp", "--email=ops@example.test");
    assert.equal(totp.code, 0, totp.stderr);
    const unknown = await folio(dir, "reset-operator-totp", "--email=nobody@example.test");
    assert.equal(unknown.code, 1);

    const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
    try {
      const op = await findOperatorByEmail(store.db, "ops@example.test");
      assert.ok(op && await verifyPassword(second, op.passwordHash));
      assert.ok(!(await verifyPassword(password, op.passwordHash)));
      assert.notEqual(op.passwordHash, second);
      const log = await store.db.execute(
        "SELECT action, actor_kind, actor_id FROM audit_log ORDER BY seq",
      );
      assert.deepEqual(log.rows.map((r) => `${r.action} ${r.actor_kind}:${r.actor_id}`), [
        "operator.created system:cli",
        "operator.password_reset system:cli",
        "operator.totp_reset system:cli",
      ]);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the start banner tells a fresh node how to make its operator, then points at the console", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const fresh = (await operatorBanner(db, "https://folio.test")).join("\n");
  assert.match(fresh, /none yet/);
  assert.match(fresh, /deno task folio create-operator --email=/);
  const op = await signedInOperator(folio);
  const after = (await operatorBanner(db, "https://folio.test")).join("\n");
  assert.match(after, /https:\/\/folio\.test\/operator \(console; 1 operator\)/);
  // The reset of a lost authenticator sends the next sign-in to enrolment again.
  const operator = (await findOperatorByEmail(db, op.email))!;
  await resetOperatorTotp(db, operator, { now: folio.clock.now(), actor: CLI_ACTOR });
  assert.equal((await passwordStep(folio, op.email)).next, "enrol");
});
