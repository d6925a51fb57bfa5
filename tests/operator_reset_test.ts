/**
 * Issue 38: "Forgot password" on the operator sign-in (w6-email's reset module), against a real
 * SMTP server: the link arrives, sets a new password once, ends every session, is audited; the
 * second factor is still asked for afterwards. Unknown emails get the same answer and no email.
 */
import assert from "node:assert/strict";
import { drainMail, smtpTransport } from "../server/domain/notifications/sender.ts";
import { hidden, textOf, Visitor } from "./console_helpers.ts";
import { smtpMissing, type SmtpSink, startSmtpSink } from "./fixtures/smtp.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { codeAt, operatorRequest, passwordStep, signedInOperator } from "./operator_helpers.ts";

const skip = smtpMissing();
const NEW_PASSWORD = "a new operator passphrase";

async function drain(folio: TestFolio): Promise<number> {
  const transport = smtpTransport(folio.deps.config.mail!);
  try {
    return await drainMail(folio.deps, { holder: "test", transport });
  } finally {
    transport.close();
  }
}

async function linkFor(sink: SmtpSink, to: string): Promise<string> {
  const got = await sink.waitFor(to);
  const m = /http:\/\/localhost:8080(\/operator\/reset\?token=fpr_[0-9A-Za-z]+)/.exec(
    got.at(-1)!.text!,
  );
  assert.ok(m, got.at(-1)!.text!);
  return m[1];
}

Deno.test({
  name: "operator: forgot password → email → link → new password once; the code is still asked",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await testFolio({ env: { FOLIO_SMTP_URL: sink.url } });
    const op = await signedInOperator(folio);
    const guest = new Visitor(folio);
    const login = await guest.get("/operator/login");
    assert.match(login.html, /<a href="\/operator\/forgot">Forgot password\?<\/a>/);
    const form = await guest.get("/operator/forgot");
    const asked = await guest.post("/operator/forgot", {
      _csrf: hidden(form.html),
      email: op.email,
    });
    assert.equal(asked.status, 200);
    const unknown = await guest.post("/operator/forgot", {
      _csrf: hidden(form.html),
      email: "nobody@example.test",
    });
    assert.equal(textOf(unknown.html), textOf(asked.html).replace(op.email, "nobody@example.test"));
    assert.equal(await drain(folio), 1, "one email: none for the unknown address");
    const [mail] = await sink.waitFor(op.email);
    assert.match(mail.text!, /Folio operator console/);
    const link = await linkFor(sink, op.email);

    const page = await guest.get(link);
    assert.equal(page.status, 200);
    const token = new URL(link, "http://x").searchParams.get("token")!;
    const done = await guest.post("/operator/reset", {
      _csrf: hidden(page.html),
      token,
      password: NEW_PASSWORD,
    });
    assert.equal(done.url, "/operator/login?done=password-reset");
    assert.match(textOf(done.html), /Your password is changed/);
    // The session that was open is over.
    const old = await operatorRequest(folio, "GET", "/api/operator/session", op);
    assert.equal(old.status, 401);
    await old.body?.cancel();
    // The link works once.
    const again = await guest.post("/operator/reset", {
      _csrf: hidden(page.html),
      token,
      password: "yet another passphrase",
    });
    assert.equal(again.status, 400);
    assert.match(textOf(again.html), /not valid any more/);
    // The new password opens only the first step: the code is still needed.
    const step = await passwordStep(folio, op.email, NEW_PASSWORD);
    assert.equal(step.next, "second_factor");
    const full = await operatorRequest(folio, "POST", "/api/operator/login/second-factor", step, {
      code: codeAt(folio, op.secret),
    });
    assert.equal(full.status, 200);
    await full.body?.cancel();
    const log = await json<{ entries: { actor: { id: string }; after: { via: string } }[] }>(
      await operatorRequest(
        folio,
        "GET",
        "/api/operator/audit?action=operator.password_reset",
        step,
      ),
    );
    assert.equal(log.entries.length, 1);
    assert.equal(log.entries[0].after.via, "reset_link");
    assert.equal(log.entries[0].actor.id, op.operatorId);
    // A publisher's reset link is not an operator's: kinds never cross.
    const crossed = await operatorRequest(
      folio,
      "POST",
      "/api/operator/password-reset/confirm",
      {},
      {
        token,
        password: NEW_PASSWORD,
      },
    );
    assert.equal(crossed.status, 400);
    await crossed.body?.cancel();
  },
});

Deno.test("with email off, the operator's forgot page says so and sends nothing", async () => {
  await using folio = await testFolio();
  const guest = new Visitor(folio);
  const form = await guest.get("/operator/forgot");
  assert.equal(form.status, 200);
  assert.match(textOf(form.html), /[Ee]mail is off/);
  const res = await operatorRequest(folio, "POST", "/api/operator/password-reset", {}, {
    email: "ops@example.test",
  });
  assert.equal(res.status, 503);
  assert.equal((await res.json()).error.code, "email_off");
});
