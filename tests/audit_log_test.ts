/**
 * Issue 38: the audit log. `audit()` writes inside the caller's transaction (rolled back with
 * it), the store refuses UPDATE and DELETE of its rows, and GET /api/operator/audit filters,
 * pages and exports them as CSV; the operator's own actions are in it.
 */
import assert from "node:assert/strict";
import { audit, SYSTEM } from "../server/domain/audit/audit.ts";
import { inWriteTx } from "../store/db.ts";
import { json, testFolio } from "./helpers.ts";
import { operatorRequest, signedInOperator } from "./operator_helpers.ts";

Deno.test("audit rows cannot be updated or deleted, by any statement", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  await audit(db, {
    actor: SYSTEM,
    action: "invoice.marked_paid",
    subject: { kind: "invoice", id: "inv_1" },
    before: { state: "open" },
    after: { state: "paid" },
    now: folio.clock.now(),
  });
  await assert.rejects(db.execute("UPDATE audit_log SET action = 'x.y'"), /append-only/);
  await assert.rejects(db.execute("DELETE FROM audit_log"), /append-only/);
  await assert.rejects(
    db.execute(
      "INSERT OR REPLACE INTO audit_log (seq, at, actor_kind, actor_id, action, subject_kind, subject_id) SELECT seq, 0, 'system', 'x', 'a.b', 'k', 'i' FROM audit_log",
    ),
    /append-only/,
  );
  const rows = await db.execute(
    "SELECT action, after_json FROM audit_log WHERE subject_id = 'inv_1'",
  );
  assert.equal(rows.rows.length, 1);
  assert.equal(rows.rows[0].action, "invoice.marked_paid");
});

Deno.test("an audit entry rolls back with the caller's transaction", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  await assert.rejects(
    inWriteTx(db, async (tx) => {
      await audit(tx, {
        actor: SYSTEM,
        action: "payout.paid",
        subject: { kind: "payout", id: "po_1" },
        now: folio.clock.now(),
      });
      throw new Error("the change failed");
    }),
    /the change failed/,
  );
  const rows = await db.execute("SELECT COUNT(*) AS n FROM audit_log WHERE subject_id = 'po_1'");
  assert.equal(Number(rows.rows[0].n), 0);
  await assert.rejects(
    audit(db, {
      actor: SYSTEM,
      action: "Not An Action",
      subject: { kind: "k", id: "i" },
      now: folio.clock.now(),
    }),
    /not <subject>\.<verb>/,
  );
});

Deno.test("the audit API filters by actor, action, subject and day, pages by cursor, and exports CSV", async () => {
  await using folio = await testFolio();
  const op = await signedInOperator(folio);
  const db = folio.deps.store.db;
  for (let i = 0; i < 5; i++) {
    await audit(db, {
      actor: { kind: "publisher", id: "pub_x" },
      action: "dispute.decided",
      subject: { kind: "dispute", id: `dsp_${i}` },
      before: { state: "open" },
      after: { state: "accepted", creditMicros: 1000 * i },
      reason: i === 0 ? '=HYPERLINK("x")' : null,
      now: new Date(Date.parse("2026-11-10T10:00:00Z") + i * 86_400_000),
    });
  }
  const get = (q: string) => operatorRequest(folio, "GET", `/api/operator/audit${q}`, op);
  const page1 = await json<
    { entries: { subject: { id: string }; after: { state: string } }[]; nextCursor: string }
  >(
    await get("?actorKind=publisher&limit=2"),
  );
  assert.deepEqual(page1.entries.map((e) => e.subject.id), ["dsp_4", "dsp_3"]);
  assert.equal(page1.entries[0].after.state, "accepted");
  const page2 = await json<{ entries: { subject: { id: string } }[]; nextCursor: string | null }>(
    await get(`?actorKind=publisher&limit=2&cursor=${page1.nextCursor}`),
  );
  assert.deepEqual(page2.entries.map((e) => e.subject.id), ["dsp_2", "dsp_1"]);
  const days = await json<{ entries: unknown[] }>(await get("?from=2026-11-11&to=2026-11-12"));
  assert.equal(days.entries.length, 2);
  const one = await json<{ entries: unknown[] }>(await get("?subjectKind=dispute&subjectId=dsp_3"));
  assert.equal(one.entries.length, 1);
  const mine = await json<{ entries: { action: string }[] }>(
    await get(`?actorKind=operator&actorId=${op.operatorId}`),
  );
  assert.deepEqual(mine.entries.map((e) => e.action).sort(), [
    "operator.signed_in",
    "operator.totp_enrolled",
  ]);
  const created = await json<{ entries: { actor: { kind: string; id: string } }[] }>(
    await get("?action=operator.created"),
  );
  assert.deepEqual(created.entries[0].actor, { kind: "system", id: "cli" });
  const bad = await get("?from=2026-11-12&to=2026-11-11");
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).error.param, "to");

  const csv = await operatorRequest(
    folio,
    "GET",
    "/api/operator/audit/csv?subjectKind=dispute",
    op,
  );
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get("content-type") ?? "", /text\/csv/);
  const text = await csv.text();
  const lines = text.trim().split("\r\n");
  assert.equal(lines.length, 6);
  assert.match(lines[0], /"seq","at","actor_kind"/);
  assert.match(text, /"'=HYPERLINK/, "formulas are defused");
});
