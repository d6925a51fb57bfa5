/**
 * Email (issue 38 part 7, docs/decisions/email.md) against a real SMTP server (Debian's
 * python3-aiosmtpd, tests/fixtures/smtp.ts): the templates, event emails queued by notify() in
 * the caller's transaction and sent once per recipient, leases shared by two drains, refused
 * addresses and a wrong SMTP password, and email off.
 */
import assert from "node:assert/strict";
import { createLicenseRequest } from "../server/domain/billing/license_requests.ts";
import { drainMail, smtpTransport } from "../server/domain/notifications/sender.ts";
import {
  EVENT_TEMPLATES,
  renderMail,
  RESET_TEMPLATE,
} from "../server/domain/notifications/templates.ts";
import { notify } from "../server/domain/webhooks/events.ts";
import { sweepBudgets } from "../server/domain/webhooks/thresholds.ts";
import { BUYER_EVENTS, PUBLISHER_EVENTS } from "../server/domain/webhooks/events.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";
import { inWriteTx } from "../store/db.ts";
import { mailTo } from "../store/email_outbox.ts";
import { apiSignup } from "./buyer_helpers.ts";
import { smtpMissing, type SmtpSink, startSmtpSink } from "./fixtures/smtp.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

const skip = smtpMissing();
if (skip) console.warn(skip);

/** Folio in process with email on, sending to `sink`. */
function mailingFolio(sink: SmtpSink, env: Record<string, string> = {}) {
  return testFolio({
    env: {
      FOLIO_SMTP_URL: sink.url,
      FOLIO_MAIL_FROM: "Folio Billing <billing@folio.test>",
      ...env,
    },
  });
}

/** One drain of the outbox through a real SMTP transport. */
async function drain(folio: TestFolio, holder = "test"): Promise<number> {
  const transport = smtpTransport(folio.deps.config.mail!);
  try {
    return await drainMail(folio.deps, { holder, transport });
  } finally {
    transport.close();
  }
}

const INVOICE = {
  invoiceNumber: "FOLIO-2026-000042",
  month: "2026-11",
  totalMicros: 12_345_678,
  amountDueMicros: 10_005_000,
  dueAt: "2026-12-31T00:00:00.000Z",
  url: "/buyer/invoices/FOLIO-2026-000042",
};

Deno.test("every event type in the lists that mails has a template, and every template reads its data", () => {
  for (const type of Object.keys(EVENT_TEMPLATES)) {
    assert.ok(
      (PUBLISHER_EVENTS as readonly string[]).includes(type) ||
        (BUYER_EVENTS as readonly string[]).includes(type),
      `${type} is an event type`,
    );
    for (const to of ["publisher", "buyer"] as const) {
      // With no data at all, a template still reads as sentences: no placeholders leak.
      const bare = renderMail(type, {}, { to, baseUrl: "https://folio.example" });
      for (const part of [bare.subject, bare.text, bare.html]) {
        assert.doesNotMatch(part, /undefined|null|NaN|\[object/, `${type} to ${to}: ${part}`);
      }
      assert.match(bare.text, /https:\/\/folio\.example\/(publisher|buyer)/, type);
    }
  }
  const invoice = renderMail("invoice.issued", INVOICE, {
    to: "buyer",
    baseUrl: "https://folio.example",
  });
  assert.equal(invoice.subject, "Invoice FOLIO-2026-000042 for November 2026 is ready");
  assert.match(invoice.text, /Total: \$12\.35\./);
  assert.match(invoice.text, /Amount due: \$10\.01\. It is due on December 31, 2026\./);
  assert.match(invoice.text, /https:\/\/folio\.example\/buyer\/invoices\/FOLIO-2026-000042/);
  const payout = renderMail("payout.paid", {
    payoutId: "pay_1",
    month: "2026-10",
    amountMicros: 95_300_000,
    paidAt: "2026-11-20T10:00:00Z",
    reference: "SEPA-778",
  }, { to: "publisher", baseUrl: "https://folio.example" });
  assert.match(
    payout.text,
    /Your payout for October 2026 of \$95\.30 was paid on November 20, 2026\./,
  );
  assert.match(payout.text, /Reference: SEPA-778\./);
  assert.match(payout.text, /https:\/\/folio\.example\/publisher\/payouts/);
  // What a buyer or an agent typed is escaped in the HTML part.
  const hostile = renderMail("license_request.created", {
    requester: "<script>alert(1)</script>",
    message: 'Hi "there" & <b>you</b>',
  }, { to: "publisher", baseUrl: "https://folio.example" });
  assert.doesNotMatch(hostile.html, /<script>|<b>/);
  assert.match(hostile.html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(hostile.html, /Hi &quot;there&quot; &amp; &lt;b&gt;you&lt;\/b&gt;/);
  const reset = renderMail(RESET_TEMPLATE, {
    portal: "Folio buyer portal",
    link: "https://folio.example/buyer/reset?token=fpr_x",
  }, { to: "buyer", baseUrl: "https://folio.example" });
  assert.match(
    reset.text,
    /Choose a new password: https:\/\/folio\.example\/buyer\/reset\?token=fpr_x/,
  );
  assert.throws(() => renderMail("nope", {}, { to: "buyer", baseUrl: "https://x" }), /template/);
});

Deno.test({
  name: "event emails go out over SMTP once per event and recipient, with or without a webhook",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    const { buyerId } = await apiSignup(folio, { email: "Billing@Acme.test" });
    const now = folio.clock.now();
    // In the caller's transaction: a repeat with the same dedupe key writes nothing.
    for (let i = 0; i < 2; i++) {
      await inWriteTx(
        folio.store.db,
        (tx) =>
          notify(tx, { kind: "buyer", id: buyerId }, "invoice.issued", INVOICE, {
            now,
            dedupe: "invoice:FOLIO-2026-000042:issued",
          }),
      );
    }
    // A transaction rolled back leaves no email behind.
    await assert.rejects(inWriteTx(folio.store.db, async (tx) => {
      await notify(tx, { kind: "buyer", id: buyerId }, "invoice.overdue", INVOICE, { now });
      throw new Error("the caller failed");
    }));
    await createLicenseRequest(folio.store.db, {
      publisherId: "pub_demo",
      identity: "oauth:client-1",
      buyerId: null,
      useCase: "fine_tuning",
      message: "May we train on the archive?",
      contact: "ml@acme.test",
    }, { now });
    assert.equal(sink.messages().length, 0, "nothing is sent by the request itself");

    assert.equal(await drain(folio), 2);
    const [invoice] = await sink.waitFor("billing@acme.test");
    assert.equal(invoice.subject, "Invoice FOLIO-2026-000042 for November 2026 is ready");
    assert.equal(invoice.from, "Folio Billing <billing@folio.test>");
    assert.equal(invoice.mailFrom, "billing@folio.test");
    assert.match(invoice.text!, /Amount due: \$10\.01\. It is due on December 31, 2026\./);
    assert.match(invoice.text!, /See the invoice: http:\/\/localhost:8080\/buyer\/invoices\//);
    assert.match(invoice.html!, /<a href="http:\/\/localhost:8080\/buyer\/invoices\/FOLIO-2026/);
    const [request] = await sink.waitFor(DEMO_CONSOLE_EMAIL);
    assert.equal(request.subject, "oauth:client-1 asked for a license");
    assert.match(request.text!, /Their message: May we train on the archive\?/);
    assert.match(request.text!, /http:\/\/localhost:8080\/publisher\/requests/);

    const rows = await mailTo(folio.store.db, "billing@acme.test");
    assert.deepEqual(rows.map((r) => [r.template, r.state, r.attempts]), [
      ["invoice.issued", "sent", 1],
    ]);
    assert.equal(invoice.messageId, `<${rows[0].id}@localhost>`);
    // Sent rows stay sent: another drain sends nothing again.
    assert.equal(await drain(folio), 0);
    assert.equal(sink.messages().length, 2);
  },
});

Deno.test({
  name: "two nodes draining one store at once send each email once",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    const now = folio.clock.now();
    const buyers = [];
    for (let i = 0; i < 6; i++) {
      buyers.push((await apiSignup(folio, { email: `b${i}@acme.test`, name: `B ${i}` })).buyerId);
    }
    for (const id of buyers) {
      await notify(folio.store.db, { kind: "buyer", id }, "invoice.paid", INVOICE, { now });
    }
    const [a, b] = await Promise.all([drain(folio, "node-a"), drain(folio, "node-b")]);
    assert.equal(a + b, 6, "each row is leased by one node");
    assert.equal(sink.messages().length, 6);
    assert.deepEqual(
      sink.messages().map((m) => m.rcptTos[0]).sort(),
      buyers.map((_, i) => `b${i}@acme.test`),
    );
  },
});

Deno.test({
  name: "a refused address fails at once; a wrong SMTP password is retried later; old rows expire",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    const now = folio.clock.now();
    const { buyerId } = await apiSignup(folio, { email: "nobody@bounce.test" });
    await notify(folio.store.db, { kind: "buyer", id: buyerId }, "invoice.issued", INVOICE, {
      now,
    });
    assert.equal(await drain(folio), 1);
    const [bounced] = await mailTo(folio.store.db, "nobody@bounce.test");
    assert.equal(bounced.state, "failed");
    assert.match(bounced.lastError!, /550/);

    const { buyerId: other } = await apiSignup(folio, { email: "ok@acme.test", name: "Ok" });
    await notify(folio.store.db, { kind: "buyer", id: other }, "invoice.issued", INVOICE, { now });
    const wrong = smtpTransport({
      ...folio.deps.config.mail!,
      smtpUrl: sink.url.replace("sink-secret", "wrong"),
    });
    assert.equal(await drainMail(folio.deps, { holder: "t", transport: wrong }), 1);
    wrong.close();
    let [row] = await mailTo(folio.store.db, "ok@acme.test");
    assert.equal(row.state, "pending");
    assert.equal(row.attempts, 1);
    assert.match(row.lastError!, /auth/i);
    assert.equal(await drain(folio), 0, "not due again before its retry time");
    folio.clock.advance(2 * 60_000);
    assert.equal(await drain(folio), 1);
    [row] = await mailTo(folio.store.db, "ok@acme.test");
    assert.equal(row.state, "sent");
    assert.equal((await sink.waitFor("ok@acme.test")).length, 1);

    // A row no sender took within three days is expired, not sent late.
    await notify(folio.store.db, { kind: "buyer", id: other }, "invoice.overdue", INVOICE, {
      now: folio.clock.now(),
    });
    folio.clock.advance(3 * 86_400_000 + 1);
    assert.equal(await drain(folio), 0);
    const rows = await mailTo(folio.store.db, "ok@acme.test");
    assert.deepEqual(rows.map((r) => r.state), ["sent", "expired"]);
    assert.equal(sink.messages().filter((m) => m.rcptTos[0] === "ok@acme.test").length, 1);
  },
});

Deno.test({
  name: "a budget reaching 80% is emailed once by the sweep, with no webhook endpoint at all",
  ignore: skip !== null,
  async fn() {
    await using sink = await startSmtpSink();
    await using folio = await mailingFolio(sink);
    const { buyerId, apiKey } = await apiSignup(folio, { email: "budget@acme.test" });
    const budget = await folio.request("/api/marketplace/budgets", {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ monthlyUsdCents: 1000 }),
    });
    assert.equal(budget.status, 200);
    await budget.body?.cancel();
    await folio.store.db.execute({
      sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
            VALUES (?, 'pub_demo', '2026-11', 8500000)`,
      args: [buyerId],
    });
    assert.equal(await sweepBudgets(folio.store.db, { now: folio.clock.now() }), 1);
    assert.equal(await sweepBudgets(folio.store.db, { now: folio.clock.now() }), 0);
    assert.equal(await drain(folio), 1);
    const [mail] = await sink.waitFor("budget@acme.test");
    assert.equal(mail.subject, "You have used 80% of your monthly budget");
    assert.match(mail.text!, /Your monthly budget reached 80% \(\$8\.50 of \$10\.00\)\./);
    assert.match(mail.text!, /http:\/\/localhost:8080\/buyer\/budgets/);
  },
});
