/**
 * Disputes and credit notes (issue 38 part 4): a buyer disputes items, the publisher (or the
 * operator, once escalated) accepts in full or in part or refuses; an accepted dispute issues a
 * numbered credit note of negative items with receipts, an adjustment on the open statement, and
 * everything still reconciles to the micro-dollar. Every refusal changes nothing.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { compactVerify, createLocalJWKSet } from "jose";
import { closeMonth } from "../server/domain/billing/close.ts";
import { creditBalance } from "../server/domain/billing/credits.ts";
import { decideDispute, escalateDueDisputes } from "../server/domain/billing/disputes.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { type Body, buyerWithItems, call, decide, dispute } from "./dispute_helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";

const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);

async function counts(folio: TestFolio) {
  const rs = await folio.deps.store.db.execute(
    `SELECT (SELECT COUNT(*) FROM disputes) AS d, (SELECT COUNT(*) FROM dispute_items) AS i,
       (SELECT COUNT(*) FROM credit_notes) AS n, (SELECT COUNT(*) FROM charges) AS c`,
  );
  return { ...rs.rows[0] };
}

async function statement(folio: TestFolio, key: string, month: string) {
  const r = await call(folio, key, "GET", `/api/marketplace/statement?month=${month}`);
  assert.equal(r.status, 200);
  return r.body;
}

Deno.test("disputes: accepted in part, a credit note with receipts, an adjustment on the open statement, reconciled", async () => {
  await using folio = await testFolio();
  const pub = folio.seeded!.apiKey;
  const b = await buyerWithItems(folio, "flow", 3);
  const [i1, i2] = b.items;
  const before = await statement(folio, b.apiKey, "2026-11");
  const hook = async (key: string, path: string, events: string[]) =>
    assert.equal(
      (await call(folio, key, "POST", path, { url: "https://example.com/hook", events })).status,
      201,
    );
  await hook(pub, "/api/publisher/webhook-endpoints", ["dispute.opened"]);
  await hook(b.apiKey, "/api/marketplace/webhook-endpoints", [
    "dispute.decided",
    "credit_note.issued",
  ]);

  const opened = await dispute(folio, b.apiKey, [i1.id, i2.id], "Read twice by a retry bug");
  assert.equal(opened.state, "open");
  assert.equal(opened.disputedUsdMicros, i1.amountUsdMicros + i2.amountUsdMicros);
  assert.equal(opened.escalatesAt, "2026-11-29T12:00:00.000Z");
  const listed = await call(folio, pub, "GET", "/api/publisher/disputes?state=open");
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.disputes.map((d: Body) => d.id), [opened.id]);

  // Accepted in part: an odd amount, spread over both items to the micro-dollar.
  const amount = Math.floor(opened.disputedUsdMicros / 2) + 1;
  const decided = await decide(folio, pub, opened.id, {
    decision: "accept",
    amountUsdMicros: amount,
    reason: "One of the two reads was a retry",
  });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  const d = decided.body.dispute;
  assert.equal(d.state, "partially_accepted");
  assert.equal(d.creditedUsdMicros, amount);
  assert.equal(sum(d.items.map((i: Body) => i.creditedUsdMicros)), amount);
  assert.equal(d.decision.by, "publisher");
  assert.match(d.creditNote.number, /^FOLIO-CN-\d{6}$/);
  assert.equal(d.creditNote.appliedTo, "statement");
  assert.equal(d.creditNote.statementMonth, "2026-11");
  const events = await folio.deps.store.db.execute(
    "SELECT owner_kind, type, payload FROM webhook_events ORDER BY rowid",
  );
  const sent = events.rows.map((r) => [r.owner_kind, r.type, JSON.parse(String(r.payload)).data]);
  assert.deepEqual(sent.map(([o, t]) => `${o} ${t}`), [
    "publisher dispute.opened",
    "buyer dispute.decided",
    "buyer credit_note.issued",
  ]);
  assert.deepEqual(sent[1][2], {
    disputeId: d.id,
    state: "partially_accepted",
    decision: "accept",
    creditedMicros: amount,
    reason: "One of the two reads was a retry",
    url: d.url,
  });
  assert.deepEqual(sent[2][2], {
    creditNoteNumber: d.creditNote.number,
    amountMicros: amount,
    url: d.url,
  });

  // A second decision is refused and changes nothing.
  const again = await counts(folio);
  const second = await decide(folio, pub, opened.id, { decision: "refuse", reason: "No" });
  assert.equal(second.status, 409);
  assert.equal(second.body.error.code, "dispute_decided");
  assert.deepEqual(await counts(folio), again);

  // The credit note: negative items naming the originals, each receipt verifying against the JWKS.
  const note = await call(
    folio,
    b.apiKey,
    "GET",
    `/api/marketplace/credit-notes/${d.creditNote.number}`,
  );
  assert.equal(note.status, 200, JSON.stringify(note.body));
  assert.equal(note.body.creditNote.amountUsdMicros, amount);
  assert.equal(note.body.items.length, 2);
  assert.deepEqual(note.body.items.map((x: Body) => x.item.creditOf).sort(), [i1.id, i2.id].sort());
  assert.equal(sum(note.body.items.map((x: Body) => x.item.amountUsdMicros)), -amount);
  const jwks = await json(await folio.request("/.well-known/jwks.json"));
  for (const { item, receipt } of note.body.items) {
    assert.equal(item.kind, "adjustment");
    assert.equal(item.creditNote, d.creditNote.number);
    assert.ok(item.priceUsdMicros <= 0 && item.feeUsdMicros <= 0);
    const { payload } = await compactVerify(receipt, createLocalJWKSet(jwks as never));
    const claims = JSON.parse(new TextDecoder().decode(payload));
    assert.deepEqual(claims.charge, item);
    assert.equal(claims.sub, b.buyerId);
    const checked = await call(folio, b.apiKey, "POST", "/api/marketplace/receipts/verify", {
      receipt,
    });
    assert.equal(checked.body.matchesLedger, true);
  }
  // Another buyer cannot see it.
  const other = await buyerWithItems(folio, "other", 1);
  const hidden = await call(
    folio,
    other.apiKey,
    "GET",
    `/api/marketplace/credit-notes/${d.creditNote.number}`,
  );
  assert.equal(hidden.status, 404);

  // The open statement carries it as an adjustment; items, statement and payout reconcile.
  const after = await statement(folio, b.apiKey, "2026-11");
  const adjustment = after.lines.find((l: Body) => l.kind === "adjustment");
  assert.equal(adjustment.amountUsdMicros, -amount);
  assert.equal(after.totalUsdMicros, before.totalUsdMicros - amount);
  const drill = await call(
    folio,
    b.apiKey,
    "GET",
    adjustment.itemsUrl.replace(/^https?:\/\/[^/]+/, ""),
  );
  assert.equal(drill.body.matching.amountUsdMicros, -amount);
  const items = await call(folio, b.apiKey, "GET", "/api/marketplace/items?statementMonth=2026-11");
  assert.equal(items.body.matching.amountUsdMicros, after.totalUsdMicros);
  assert.equal(items.body.matching.count, 5);
  const csv = await folio.request("/api/marketplace/items/csv", {
    headers: { authorization: `Bearer ${b.apiKey}` },
  });
  const rows: Record<string, string>[] = parse(await csv.text(), { columns: true });
  const credits = rows.filter((r) => r.credit_of !== "");
  assert.deepEqual(credits.map((r) => r.credit_of).sort(), [i1.id, i2.id].sort());
  assert.ok(
    credits.every((r) => Number(r.amount_usd_micros) < 0 && r.credit_note === d.creditNote.number),
  );
  assert.equal(sum(rows.map((r) => Number(r.amount_usd_micros))), after.totalUsdMicros);

  // The publisher's payout shrinks by the price share it credited.
  const priceShare = -sum(note.body.items.map((x: Body) => x.item.priceUsdMicros));
  const mine = await call(folio, pub, "GET", "/api/publisher/items?statementMonth=2026-11&limit=1");
  const payout = await call(folio, pub, "GET", "/api/publisher/payouts?month=2026-11");
  assert.equal(payout.body.totals.netUsdMicros, mine.body.matching.priceUsdMicros);
  const credited = payout.body.lines.find((l: Body) => l.kind === "adjustment");
  assert.equal(credited.netUsdMicros, -priceShare);
  folio.clock.set("2026-12-01T01:00:00Z");
  await closeMonth(folio.deps.store.db, { month: "2026-11", now: folio.clock.now() });
  const row = await folio.deps.store.db.execute(
    "SELECT amount_micros FROM payouts WHERE publisher_id = 'pub_demo' AND month = '2026-11'",
  );
  assert.equal(Number(row.rows[0].amount_micros), mine.body.matching.priceUsdMicros);
  const closed = await statement(folio, b.apiKey, "2026-11");
  assert.equal(closed.state, "closed");
  assert.equal(closed.totalUsdMicros, after.totalUsdMicros);
});

Deno.test("disputes: every refusal to open one is clear and changes nothing", async () => {
  await using folio = await testFolio();
  const b = await buyerWithItems(folio, "neg", 3);
  const other = await buyerWithItems(folio, "neg-other", 1);
  const [i1, i2, i3] = b.items;
  const start = await counts(folio);
  const open = (key: string, body: unknown) =>
    call(folio, key, "POST", "/api/marketplace/disputes", body);

  const theirs = await open(other.apiKey, { itemIds: [i1.id], reason: "Not mine" });
  assert.equal(theirs.status, 404);
  const empty = await open(b.apiKey, { itemIds: [i1.id], reason: "   " });
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.param, "reason");
  const none = await open(b.apiKey, { itemIds: [], reason: "Wrong" });
  assert.equal(none.status, 400);
  const unknown = await open(b.apiKey, { itemIds: [i1.id, "chg_nope"], reason: "Wrong" });
  assert.equal(unknown.status, 404);
  assert.deepEqual(await counts(folio), start);

  const d = await dispute(folio, b.apiKey, [i1.id]);
  const twice = await open(b.apiKey, { itemIds: [i2.id, i1.id], reason: "Again" });
  assert.equal(twice.status, 409);
  assert.equal(twice.body.error.code, "already_disputed");
  const ok = await decide(folio, folio.seeded!.apiKey, d.id, { decision: "accept" });
  assert.equal(ok.body.dispute.state, "accepted");
  const noteItem = (await call(folio, b.apiKey, "GET", "/api/marketplace/items?kind=adjustment"))
    .body.items[0];
  assert.equal(noteItem.creditOf, i1.id);
  const mid = await counts(folio);
  const ofNote = await open(b.apiKey, { itemIds: [noteItem.id], reason: "Credit me twice" });
  assert.equal(ofNote.status, 409);
  assert.equal(ofNote.body.error.code, "credit_note_item");
  const credited = await open(b.apiKey, { itemIds: [i1.id], reason: "Once more" });
  assert.equal(credited.status, 409);

  // Past the window (60 days from the charge, by default): refused; i3 stays disputable until then.
  folio.clock.advance(60 * 86_400_000 + 1);
  const late = await open(b.apiKey, { itemIds: [i3.id], reason: "Late" });
  assert.equal(late.status, 409);
  assert.equal(late.body.error.code, "dispute_window_closed");
  assert.deepEqual(await counts(folio), mid);
});

Deno.test("disputes: decisions refused with a clear error change nothing; a refusal credits nothing", async () => {
  await using folio = await testFolio();
  const pub = folio.seeded!.apiKey;
  const b = await buyerWithItems(folio, "refuse", 2);
  const d = await dispute(folio, b.apiKey, b.items.map((i: Body) => i.id));
  const start = await counts(folio);
  const bad = [
    { decision: "refuse", reason: "" },
    { decision: "accept", amountUsdMicros: d.disputedUsdMicros + 1 },
    { decision: "accept", amountUsdMicros: 0 },
    { decision: "accept", items: [{ itemId: "chg_other", amountUsdMicros: 1 }] },
    {
      decision: "accept",
      items: [{ itemId: b.items[0].id, amountUsdMicros: b.items[0].amountUsdMicros + 1 }],
    },
    { decision: "maybe" },
  ];
  for (const body of bad) {
    const r = await decide(folio, pub, d.id, body);
    assert.equal(r.status, 400, JSON.stringify(body));
  }
  // Another publisher's key: not its dispute.
  const signup = await call(folio, "x", "POST", "/api/publishers/signup", {
    name: "Other",
    email: "other@pub.test",
    password: "correct horse battery staple",
    slug: "other-pub",
  });
  const foreign = await decide(folio, signup.body.apiKey, d.id, { decision: "accept" });
  assert.equal(foreign.status, 404);
  // A buyer key is no publisher's.
  const asBuyer = await decide(folio, b.apiKey, d.id, { decision: "accept" });
  assert.equal(asBuyer.status, 401);
  assert.deepEqual(await counts(folio), start);

  const refused = await decide(folio, pub, d.id, {
    decision: "refuse",
    reason: "Both reads happened",
  });
  assert.equal(refused.status, 200);
  assert.equal(refused.body.dispute.state, "refused");
  assert.equal(refused.body.dispute.creditNote, null);
  assert.equal(refused.body.dispute.decision.reason, "Both reads happened");
  const after = await counts(folio);
  assert.equal(after.n, start.n);
  assert.equal(after.c, start.c);
  const again = await decide(folio, pub, d.id, { decision: "accept" });
  assert.equal(again.status, 409);
  const mine = await call(folio, b.apiKey, "GET", `/api/marketplace/disputes/${d.id}`);
  assert.equal(mine.body.dispute.state, "refused");
});

Deno.test("disputes: undecided past the deadline, escalated to the operator, whom the publisher can no longer pre-empt", async () => {
  await using folio = await testFolio();
  const pub = folio.seeded!.apiKey;
  const b = await buyerWithItems(folio, "esc", 2);
  const d = await dispute(folio, b.apiKey, [b.items[0].id]);
  const later = await dispute(folio, b.apiKey, [b.items[1].id]);
  const rules = { db: folio.deps.store.db, clock: folio.clock, config: folio.deps.config };
  folio.clock.advance(14 * 86_400_000 - 1);
  assert.equal(await escalateDueDisputes(rules), 0);
  folio.clock.advance(2);
  assert.equal(await escalateDueDisputes(rules), 2);
  assert.equal(await escalateDueDisputes(rules), 0, "once only");
  const late = await decide(folio, pub, d.id, { decision: "accept" });
  assert.equal(late.status, 409);
  assert.equal(late.body.error.code, "dispute_escalated");
  const escalated = await call(folio, b.apiKey, "GET", `/api/marketplace/disputes/${later.id}`);
  assert.equal(escalated.body.dispute.state, "escalated");
  const decided = await decideDispute(rules, d.id, { kind: "operator", id: "op_test" }, {
    decision: "accept",
    items: [{ itemId: b.items[0].id, amountUsdMicros: 1 }],
  });
  assert.equal(decided.state, "partially_accepted");
  assert.equal(decided.decision?.by, "operator");
  assert.equal(decided.creditNote?.amountUsdMicros, 1);
});

Deno.test("disputes: a credit note on a closed month is a credit balance for the next invoice, and the publisher's next payout carries it", async () => {
  await using folio = await testFolio();
  const pub = folio.seeded!.apiKey;
  const b = await buyerWithItems(folio, "closed", 2);
  folio.clock.set("2026-12-02T10:00:00Z");
  await closeMonth(folio.deps.store.db, { month: "2026-11", now: folio.clock.now() });
  const november = await statement(folio, b.apiKey, "2026-11");
  assert.equal(november.state, "closed");
  const d = await dispute(folio, b.apiKey, [b.items[0].id, b.items[1].id]);
  const decided = await decide(folio, pub, d.id, {
    decision: "accept",
    items: [{ itemId: b.items[1].id, amountUsdMicros: b.items[1].amountUsdMicros }],
  });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  const note = decided.body.dispute.creditNote;
  assert.equal(note.appliedTo, "balance");
  assert.equal(note.statementMonth, "2026-12");
  assert.equal(note.amountUsdMicros, b.items[1].amountUsdMicros);
  assert.equal(
    await creditBalance(folio.deps.store.db, b.buyerId),
    b.items[1].amountUsdMicros,
  );
  // The closed statement is untouched, December's carries no line for it (the balance does).
  assert.deepEqual(await statement(folio, b.apiKey, "2026-11"), november);
  const december = await statement(folio, b.apiKey, "2026-12");
  assert.equal(december.lines.length, 0);
  assert.equal(december.totalUsdMicros, 0);
  // The item shows, negative, naming the original; the publisher's December payout carries it.
  const items = await call(folio, b.apiKey, "GET", "/api/marketplace/items?kind=adjustment");
  assert.equal(items.body.items[0].creditOf, b.items[1].id);
  assert.equal(items.body.items[0].amountUsdMicros, -b.items[1].amountUsdMicros);
  assert.equal(items.body.items[0].statementMonth, "2026-12");
  const payout = await call(folio, pub, "GET", "/api/publisher/payouts?month=2026-12");
  const line = payout.body.lines.find((l: Body) => l.kind === "adjustment");
  assert.equal(line.netUsdMicros, -b.items[1].priceUsdMicros);
  // Reconciled: every item of the buyer = its statements + the credit granted (negative items).
  const all = await call(folio, b.apiKey, "GET", "/api/marketplace/items");
  assert.equal(
    all.body.matching.amountUsdMicros,
    november.totalUsdMicros + december.totalUsdMicros - note.amountUsdMicros,
  );
  // December's reads are invoiced at its close, and the credit is used by that next invoice.
  for (const id of await paywalled(folio, 3)) {
    assert.equal((await read(folio, b.apiKey, id, `dec-${id}`)).status, 200);
  }
  folio.clock.set("2027-01-02T10:00:00Z");
  await closeMonth(folio.deps.store.db, { month: "2026-12", now: folio.clock.now() });
  const invoices = await call(folio, b.apiKey, "GET", "/api/marketplace/invoices");
  assert.equal(invoices.status, 200, JSON.stringify(invoices.body));
  const next = invoices.body.invoices.find((i: Body) => i.month === "2026-12");
  const used = Math.min(note.amountUsdMicros, next.totalUsdMicros);
  assert.equal(next.creditAppliedUsdMicros, used);
  assert.equal(next.amountDueUsdMicros, next.totalUsdMicros - next.prepaidUsdMicros - used);
  assert.equal(invoices.body.creditBalanceUsdMicros, note.amountUsdMicros - used);
});
