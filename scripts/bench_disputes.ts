/**
 * Dispute figures (issue 38 part 4), each a ratio to a baseline taken in the same run on the same
 * store: deciding a dispute (one write transaction: the decision, a credit note number, the credit
 * row, events, audit) against one charged REST read; and a buyer's items page once half its items
 * are credit notes' (the credit note join) against the same page before. Run:
 * deno run -A scripts/bench_disputes.ts [n]
 */
import { decideDispute, openDispute } from "../server/domain/billing/disputes.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { testFolio } from "../tests/helpers.ts";
import { check, line, tally, type Target, TARGETS } from "./targets.ts";

const N = Number(Deno.args[0] ?? 200);
await using folio = await testFolio({ checkDocumented: false });
const db = folio.deps.store.db;
const buyer = await createBuyer(db, { name: "bench", email: "bench@bench.test" }, {
  now: folio.clock.now(),
});
const [article] = (await db.execute(
  "SELECT id FROM articles WHERE policy = 'PAYWALL' AND price_micros IS NULL LIMIT 1",
)).rows.map((r) => String(r.id));
const auth = { authorization: `Bearer ${buyer.apiKey}` };

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - started) / n;
}

const readMs = await timed(N, async () => {
  const res = await folio.request(`/api/v1/articles/${article}?last_user_prompt=q`, {
    host: "demo.localhost",
    headers: auth,
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`read answered ${res.status}`);
});
const page = () =>
  folio.request("/api/marketplace/items?limit=100", { headers: auth }).then((r) => r.json());
await timed(10, page); // warm-up: the first pages compile the route
const pageBefore = await timed(50, page);

const rules = { db, clock: folio.clock, config: folio.deps.config };
const items = (await db.execute({
  sql: "SELECT id FROM charges WHERE buyer_id = ? ORDER BY id",
  args: [buyer.buyerId],
})).rows.map((r) => String(r.id));
const disputes: string[] = [];
for (const id of items) {
  disputes.push((await openDispute(rules, buyer.buyerId, { itemIds: [id], reason: "bench" })).id);
}
const decideMs = await timed(
  N,
  (i) =>
    decideDispute(rules, disputes[i], { kind: "publisher", id: "pub_demo" }, {
      decision: "accept",
    }),
);
const pageAfter = await timed(50, page);

const ratio = (what: string, ms: number, base: number, target: Target) => {
  const c = check(what, Number((ms / base).toFixed(2)), target);
  console.log(line(c, `${ms.toFixed(2)} ms = ${c.value}× the baseline`));
  return c;
};
console.log(`Baseline: charged REST read ${readMs.toFixed(2)} ms (N=${N})`);
const decided = ratio(
  "Decide a dispute with its credit note",
  decideMs,
  readMs,
  TARGETS.disputeDecide,
);
console.log(`Baseline: items page of 100, no credit notes ${pageBefore.toFixed(2)} ms`);
const paged = ratio(
  "Items page of 100, half of them credit notes'",
  pageAfter,
  pageBefore,
  TARGETS.disputeItemsPage,
);
console.log(tally([decided, paged]));
