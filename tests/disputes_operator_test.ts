/**
 * The operator's disputes (issue 38 part 4 with part 1): GET /api/operator/disputes lists every
 * dispute with filters and paging, the operator decides an escalated one, and every decision (the
 * publisher's and the operator's, and the cron's escalation) is in the audit log with before and
 * after. Publisher and buyer credentials are refused.
 */
import assert from "node:assert/strict";
import { escalateDueDisputes } from "../server/domain/billing/disputes.ts";
import { json, testFolio } from "./helpers.ts";
import { type Body, buyerWithItems, call, decide, dispute } from "./dispute_helpers.ts";
import { operatorKey, operatorRequest, signedInOperator } from "./operator_helpers.ts";

Deno.test("operator disputes: listed, filtered and paged; an escalated one decided; every decision audited", async () => {
  await using folio = await testFolio();
  const pub = folio.seeded!.apiKey;
  const op = await signedInOperator(folio);
  const { apiKey: opKey } = await operatorKey(folio, op);
  const b = await buyerWithItems(folio, "op", 3);
  const other = await buyerWithItems(folio, "op-other", 1);
  const ids = [];
  for (const i of b.items) ids.push((await dispute(folio, b.apiKey, [i.id])).id);
  const theirs = await dispute(folio, other.apiKey, [other.items[0].id]);
  const get = async (path: string) => {
    const res = await operatorRequest(folio, "GET", path, { key: opKey });
    return { status: res.status, body: await json<Body>(res) };
  };

  const all = await get("/api/operator/disputes?limit=2");
  assert.equal(all.status, 200);
  assert.equal(all.body.matching, 4);
  assert.equal(all.body.disputes.length, 2);
  const rest = await get(`/api/operator/disputes?limit=2&cursor=${all.body.nextCursor}`);
  assert.equal(rest.body.disputes.length, 2);
  assert.equal(rest.body.nextCursor, null);
  const seen = [...all.body.disputes, ...rest.body.disputes].map((d: Body) => d.id);
  assert.deepEqual(seen.sort(), [...ids, theirs.id].sort());
  const byBuyer = await get(`/api/operator/disputes?buyerId=${other.buyerId}`);
  assert.deepEqual(byBuyer.body.disputes.map((d: Body) => d.id), [theirs.id]);
  assert.equal((await get("/api/operator/disputes?state=bogus")).status, 400);

  // The publisher decides one; the rest go undecided to the operator.
  assert.equal(
    (await decide(folio, pub, ids[0], { decision: "refuse", reason: "Read" })).status,
    200,
  );
  folio.clock.advance(15 * 86_400_000);
  const rules = { db: folio.deps.store.db, clock: folio.clock, config: folio.deps.config };
  assert.equal(await escalateDueDisputes(rules), 3);
  const escalated = await get("/api/operator/disputes?state=escalated");
  assert.equal(escalated.body.matching, 3);

  // Publisher and buyer credentials never reach the operator API.
  for (const key of [pub, b.apiKey]) {
    const refused = await call(folio, key, "POST", `/api/operator/disputes/${ids[1]}/decision`, {
      decision: "accept",
    });
    assert.equal(refused.status, 403);
  }
  const decided = await operatorRequest(
    folio,
    "POST",
    `/api/operator/disputes/${ids[1]}/decision`,
    { key: opKey },
    { decision: "accept", amountUsdMicros: 1, reason: "Goodwill" },
  );
  const body = await json<Body>(decided);
  assert.equal(decided.status, 200, JSON.stringify(body));
  assert.equal(body.dispute.state, "partially_accepted");
  assert.equal(body.dispute.decision.by, "operator");
  const again = await operatorRequest(
    folio,
    "POST",
    `/api/operator/disputes/${ids[1]}/decision`,
    { key: opKey },
    { decision: "refuse", reason: "Changed my mind" },
  );
  assert.equal(again.status, 409);
  await again.body?.cancel();
  const refusal = await operatorRequest(
    folio,
    "POST",
    `/api/operator/disputes/${ids[2]}/decision`,
    { key: opKey },
    { decision: "refuse", reason: "The reads happened" },
  );
  assert.equal(refusal.status, 200);
  await refusal.body?.cancel();

  const log = await get("/api/operator/audit?subjectKind=dispute");
  assert.equal(log.status, 200);
  const entries = log.body.entries as Body[];
  const of = (id: string, action: string) =>
    entries.filter((e) => e.subject.id === id && e.action === action);
  const [byPublisher] = of(ids[0], "dispute.decided");
  assert.equal(byPublisher.actor.kind, "publisher");
  assert.equal(byPublisher.before.state, "open");
  assert.equal(byPublisher.after.state, "refused");
  const [byOperator] = of(ids[1], "dispute.decided");
  assert.deepEqual(byOperator.actor, { kind: "operator", id: op.operatorId });
  assert.equal(byOperator.before.state, "escalated");
  assert.equal(byOperator.after.creditedUsdMicros, 1);
  assert.match(byOperator.after.creditNote, /^FOLIO-CN-\d{6}$/);
  assert.equal(byOperator.reason, "Goodwill");
  assert.equal(of(ids[1], "dispute.escalated")[0].actor.kind, "system");
});
