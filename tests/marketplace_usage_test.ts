/** GET /api/marketplace/usage per day and GET /statements (issue 12 part 5, for the buyer portal). */
import assert from "node:assert/strict";
import { closeMonth } from "../server/domain/billing/close.ts";
import { statementMonthsSchema, usageSchema } from "../server/surfaces/marketplace/schemas.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { apiSignup } from "./buyer_helpers.ts";

interface Day {
  day: string;
  calls: number;
  reads: number;
  spendUsdCents: number;
}

async function charged(folio: TestFolio, key: string, id: string): Promise<void> {
  assert.equal((await read(folio, key, id)).status, 200);
}

Deno.test("usage has a daily series: calls, reads and spend per UTC day across the window, zeros included", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio);
  const [a, b] = await paywalled(folio, 2);
  await charged(folio, apiKey, a); // 2026-11-15, charged 2¢
  folio.clock.advance(2 * 86_400_000);
  await charged(folio, apiKey, b); // 2026-11-17, charged 2¢
  await charged(folio, apiKey, b); // the same article again: another call and read
  const search = await folio.request("/api/v1/articles/search?q=energy", {
    host: "demo.localhost",
    headers: { authorization: `Bearer ${apiKey}` },
  });
  await search.body?.cancel();
  await folio.deps.callLog.flush();

  const usage = await json<{ daily: Day[]; meteredTotalCents: number }>(
    await folio.request("/api/marketplace/usage?days=7", {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  assert.deepEqual(usageSchema.parse(usage), usage, "the answer the document describes");
  assert.equal(usage.daily.length, 8, "the 7 days reach back into an eighth calendar day");
  assert.equal(usage.daily[0].day, "2026-11-10");
  assert.equal(usage.daily.at(-1)!.day, "2026-11-17");
  const byDay = Object.fromEntries(usage.daily.map((d) => [d.day, d]));
  assert.deepEqual(byDay["2026-11-15"], {
    day: "2026-11-15",
    calls: 1,
    reads: 1,
    spendUsdCents: 2,
  });
  assert.deepEqual(byDay["2026-11-16"], {
    day: "2026-11-16",
    calls: 0,
    reads: 0,
    spendUsdCents: 0,
  });
  assert.equal(byDay["2026-11-17"].calls, 3);
  assert.equal(byDay["2026-11-17"].reads, 2);
  const spent = usage.daily.reduce((t, d) => t + d.spendUsdCents, 0);
  assert.equal(spent, usage.meteredTotalCents);

  // A buyer with nothing yet gets the days, all zero.
  const other = await apiSignup(folio, { email: "other@acme.test" });
  const empty = await json<{ daily: Day[] }>(
    await folio.request("/api/marketplace/usage?days=1", {
      headers: { authorization: `Bearer ${other.apiKey}` },
    }),
  );
  assert.deepEqual(empty.daily.map((d) => d.calls + d.reads + d.spendUsdCents), [0, 0]);
});

Deno.test("GET /statements lists the current month and every earlier month with charges, newest first, with state and total", async () => {
  await using folio = await testFolio();
  const { apiKey } = await apiSignup(folio);
  const list = async () => {
    const body = await json<{ months: unknown[] }>(
      await folio.request("/api/marketplace/statements", {
        headers: { authorization: `Bearer ${apiKey}` },
      }),
    );
    assert.deepEqual(statementMonthsSchema.parse(body), body, "the answer the document describes");
    return body.months;
  };
  assert.deepEqual(await list(), [{ month: "2026-11", state: "open", totalUsdCents: 0 }]);

  const [a, b] = await paywalled(folio, 2);
  await charged(folio, apiKey, a);
  await charged(folio, apiKey, b);
  folio.clock.set(new Date("2027-01-03T09:00:00Z"));
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
  const november = await json<{ totalUsdCents: number }>(
    await folio.request("/api/marketplace/statement?month=2026-11", {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  assert.ok(november.totalUsdCents > 0);
  assert.deepEqual(await list(), [
    { month: "2027-01", state: "open", totalUsdCents: 0 },
    { month: "2026-11", state: "closed", totalUsdCents: november.totalUsdCents },
  ]);
  const anonymous = await folio.request("/api/marketplace/statements");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
});

Deno.test("catalog entries name the A2A agent card when A2A is on, and null when it is off", async () => {
  await using folio = await testFolio();
  const catalog = await json<{ publishers: Record<string, unknown>[] }>(
    await folio.request("/api/marketplace/catalog"),
  );
  const demo = catalog.publishers.find((p) => p.publisherId === "pub_demo")!;
  assert.equal(demo.a2aCardUrl, "http://demo.localhost:8080/.well-known/agent-card.json");
  await folio.store.db.execute(
    "UPDATE publishers SET toggles = json_set(toggles, '$.a2a', json('false')) WHERE id = 'pub_demo'",
  );
  const after = await json<{ publishers: Record<string, unknown>[] }>(
    await folio.request("/api/marketplace/catalog"),
  );
  const off = after.publishers.find((p) => p.publisherId === "pub_demo")!;
  assert.equal(off.a2aCardUrl, null);
  assert.equal(off.a2aEndpoint, null);
});
