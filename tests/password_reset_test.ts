/**
 * "Forgot password" (issue 38 part 7, docs/decisions/email.md) against a real SMTP server: the
 * console's pages end to end without JavaScript (request, email, link, new password, sign in),
 * the buyer's by the API; reused and expired links refused; unknown emails answered identically
 * and sent nothing; throttles; the new password checked like sign-up's; email off said plainly.
 */
import assert from "node:assert/strict";
import { RESET_TTL_MS } from "../server/domain/accounts/password_reset.ts";
import { drainMail, smtpTransport } from "../server/domain/notifications/sender.ts";
import { apiSignup, signIn } from "./buyer_helpers.ts";
import { consoleSignUp, hidden, textOf, Visitor } from "./console_helpers.ts";
import { smtpMissing, type SmtpSink, startSmtpSink } from "./fixtures/smtp.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { mailTo } from "../store/email_outbox.ts";

const skip = smtpMissing();
const NEW_PASSWORD = "a brand new passphrase";

function mailingFolio(sink: SmtpSink) {
  return testFolio({ env: { FOLIO_SMTP_URL: sink.url } });
}

async function drain(folio: TestFolio): Promise<number> {
  const transport = smtpTransport(folio.deps.config.mail!);
  try {
    return await drainMail(folio.deps, { holder: "test", transport });
  } finally {
    transport.close();
  }
}

/** The reset link of the last email to `to`, as a path with its query. */
async function linkFor(sink: SmtpSink, to: string, n = 1): Promise<string> {
  const got = await sink.waitFor(to, n);
  const m = /(http:\/\/localhost:8080(\/\w+\/reset\?token=fpr_[0-9A-Za-z]+))/.exec(
    got.at(-1)!.text!,
  );
  assert.ok(m, got.at(-1)!.text!);
  assert.ok(got.at(-1)!.html!.includes(`href="${m[1]}"`), "the HTML part links to it too");
  return m[2];
}

function post(folio: TestFolio, path: string, body: unknown, from?: string) {
  return folio.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    from,
  });
}

Deno.test({
  name: "console: forgot password → email → link → new password → sign in; the link works once",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    const { visitor: signedIn, email } = await consoleSignUp(folio);
    const guest = new Visitor(folio);

    const login = await guest.get("/publisher/login");
    assert.match(login.html, /<a href="\/publisher\/forgot">Forgot password\?<\/a>/);
    const form = await guest.get("/publisher/forgot");
    assert.equal(form.status, 200);
    // Without the form's token nothing is sent (login CSRF's cousin: a mail cannon).
    const forged = await guest.post("/publisher/forgot", { _csrf: "x".repeat(32), email });
    assert.equal(forged.status, 403);
    const typo = await guest.post("/publisher/forgot", { _csrf: hidden(form.html), email: "nope" });
    assert.equal(typo.status, 400);
    assert.match(textOf(typo.html), /Email: is not an email address/);
    const asked = await guest.post("/publisher/forgot", { _csrf: hidden(form.html), email });
    assert.equal(asked.status, 200);
    assert.match(
      textOf(asked.html),
      /If an account uses this email, a link to choose a new password is on its way/,
    );
    assert.equal(await drain(folio), 1);
    const [mail] = await sink.waitFor(email);
    assert.equal(mail.subject, "Reset your Folio password");
    assert.match(mail.text!, /Folio publisher console account/);
    const link = await linkFor(sink, email);
    assert.ok(link.startsWith("/publisher/reset?token="));
    // Once sent, the outbox keeps no copy of the link.
    const [row] = await mailTo(folio.store.db, email);
    assert.equal(row.state, "sent");
    const stored = await folio.store.db.execute({
      sql: "SELECT data FROM email_outbox WHERE id = ?",
      args: [row.id],
    });
    assert.equal(stored.rows[0].data, "{}");
    const token = new URL(link, "http://x").searchParams.get("token")!;
    const hashes = await folio.store.db.execute("SELECT token_hash FROM password_resets");
    assert.equal(hashes.rows.length, 1);
    assert.notEqual(hashes.rows[0].token_hash, token, "only the hash is stored");

    const page = await guest.get(link);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.equal(hidden(page.html, "token"), token);
    // Checked like sign-up's: too short is refused beside the field and changes nothing.
    const short = await guest.post("/publisher/reset", {
      _csrf: hidden(page.html),
      token,
      password: "short",
    });
    assert.equal(short.status, 400);
    assert.match(textOf(short.html), /New password: must be at least 10 characters/);
    const done = await guest.post("/publisher/reset", {
      _csrf: hidden(page.html),
      token,
      password: NEW_PASSWORD,
    });
    assert.equal(done.status, 200);
    assert.match(done.url, /^\/publisher\/login\?done=password-reset/);
    assert.match(textOf(done.html), /Your password is changed and every session is signed out/);

    // Every session of the account ended, the old password is refused, the new one works.
    const kicked = await signedIn.get("/publisher/account");
    assert.match(kicked.url, /^\/publisher\/login/);
    const old = await post(folio, "/api/publishers/login", { email, password: PASSWORD });
    assert.equal(old.status, 401);
    await old.body?.cancel();
    const fresh = await post(folio, "/api/publishers/login", { email, password: NEW_PASSWORD });
    assert.equal(fresh.status, 200);
    await fresh.body?.cancel();

    // The link is spent: the page says so and offers a new one; the password stays.
    const again = await guest.post("/publisher/reset", {
      _csrf: hidden(page.html),
      token,
      password: "yet another passphrase",
    });
    assert.equal(again.status, 400);
    assert.match(textOf(again.html), /This reset link is not valid any more/);
    assert.doesNotMatch(again.html, /name="token"/);
    const still = await post(folio, "/api/publishers/login", { email, password: NEW_PASSWORD });
    assert.equal(still.status, 200);
    await still.body?.cancel();
  },
});

Deno.test({
  name: "buyer API: unknown emails get the same answer and no email; expired links are refused",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    await apiSignup(folio, { email: "ops@acme.test", password: PASSWORD });
    const session = await signIn(folio, { email: "ops@acme.test", password: PASSWORD });

    const known = await post(folio, "/api/marketplace/password-reset", { email: "OPS@acme.test" });
    const unknown = await post(folio, "/api/marketplace/password-reset", {
      email: "who@acme.test",
    });
    assert.equal(known.status, 202);
    assert.equal(unknown.status, known.status);
    assert.deepEqual(await known.json(), await unknown.json());
    assert.deepEqual(
      [...known.headers].filter(([k]) => k !== "x-request-id" && k !== "date"),
      [...unknown.headers].filter(([k]) => k !== "x-request-id" && k !== "date"),
    );
    assert.equal(await drain(folio), 1, "only the known email is sent");
    assert.equal(sink.messages().length, 1);
    assert.equal(sink.messages()[0].rcptTos[0], "ops@acme.test");
    assert.deepEqual(await mailTo(folio.store.db, "who@acme.test"), []);
    const link = await linkFor(sink, "ops@acme.test");
    assert.ok(link.startsWith("/buyer/reset?token="));
    const token = new URL(link, "http://x").searchParams.get("token")!;

    // A publisher's reset operation does not take a buyer's link.
    const wrongKind = await post(folio, "/api/publishers/password-reset/confirm", {
      token,
      password: NEW_PASSWORD,
    });
    assert.equal(wrongKind.status, 400);
    assert.equal(
      (await json<{ error: { code: string } }>(wrongKind)).error.code,
      "invalid_reset_link",
    );

    // An hour later the link is dead, and nothing changed.
    folio.clock.advance(RESET_TTL_MS);
    const late = await post(folio, "/api/marketplace/password-reset/confirm", {
      token,
      password: NEW_PASSWORD,
    });
    assert.equal(late.status, 400);
    assert.deepEqual(await late.json(), {
      error: {
        code: "invalid_reset_link",
        message:
          "token: this reset link is not valid any more (used, expired or mistyped); ask for a new one",
        param: "token",
      },
    });
    const stillOld = await post(folio, "/api/marketplace/session", {
      email: "ops@acme.test",
      password: PASSWORD,
    });
    assert.equal(stillOld.status, 201);
    await stillOld.body?.cancel();

    // A new link, used in time: every session ends, the new password works.
    const renewed = await post(folio, "/api/marketplace/password-reset", {
      email: "ops@acme.test",
    });
    assert.equal(renewed.status, 202);
    await renewed.body?.cancel();
    await drain(folio);
    const fresh = new URL(await linkFor(sink, "ops@acme.test", 2), "http://x");
    const ok = await post(folio, "/api/marketplace/password-reset/confirm", {
      token: fresh.searchParams.get("token"),
      password: NEW_PASSWORD,
    });
    assert.equal(ok.status, 204);
    const who = await folio.request("/api/marketplace/session", {
      headers: { cookie: session.cookie },
    });
    assert.equal(who.status, 401, "the old session ended");
    await who.body?.cancel();
    const signedIn = await post(folio, "/api/marketplace/session", {
      email: "ops@acme.test",
      password: NEW_PASSWORD,
    });
    assert.equal(signedIn.status, 201);
    await signedIn.body?.cancel();

    // Malformed input is refused clearly and sends nothing.
    const bad = await post(folio, "/api/marketplace/password-reset", { email: "not-an-email" });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    const junk = await post(folio, "/api/marketplace/password-reset/confirm", {
      token: "fpr_nonsense",
      password: NEW_PASSWORD,
    });
    assert.equal(junk.status, 400);
    await junk.body?.cancel();
  },
});

Deno.test({
  name: "reset requests are limited per email and per address, the same for unknown emails",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    for (const email of ["ops@acme.test", "nobody@acme.test"]) {
      if (email === "ops@acme.test") await apiSignup(folio, { email, password: PASSWORD });
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const res = await post(folio, "/api/marketplace/password-reset", { email }, `10.0.0.${i}`);
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.deepEqual(statuses, [202, 202, 202, 429], email);
    }
    const statuses = [];
    for (let i = 0; i < 21; i++) {
      const res = await post(folio, "/api/marketplace/password-reset", {
        email: `n${i}@acme.test`,
      }, "10.9.9.9");
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.equal(statuses.filter((s) => s === 202).length, 20);
    assert.equal(statuses.at(-1), 429);
    assert.equal(await drain(folio), 3, "three links for the one known email, no more");
  },
});

Deno.test("with email off the forgot pages say so and the API sends nothing, for any email", async () => {
  await using folio = await testFolio();
  assert.equal(folio.deps.config.mail, null);
  for (const home of ["/publisher", "/buyer"]) {
    const page = await new Visitor(folio).get(`${home}/forgot`);
    assert.equal(page.status, 200);
    assert.match(textOf(page.html), /Email is off on this node/);
    assert.doesNotMatch(page.html, /<form method="post" action="[^"]*\/forgot"/);
  }
  await apiSignup(folio, { email: "ops@acme.test", password: PASSWORD });
  for (const email of ["ops@acme.test", "nobody@acme.test"]) {
    const res = await post(folio, "/api/marketplace/password-reset", { email });
    assert.equal(res.status, 503);
    assert.equal((await json<{ error: { code: string } }>(res)).error.code, "email_off");
  }
  const rows = await folio.store.db.execute("SELECT COUNT(*) AS n FROM password_resets");
  assert.equal(rows.rows[0].n, 0);
});
