/** GET /api/publisher/analytics: calls by surface per day, reads, earnings, top intents. */
import assert from "node:assert/strict";
import { insertCalls } from "../store/call_log.ts";
import { insertIntent } from "../store/intents.ts";
import { call } from "./fixtures/status.ts";
import { testFolio } from "./helpers.ts";
import { signUp } from "./manage_helpers.ts";

const DAY = 86_400_000;

Deno.test("analytics count calls per day and surface, reads, and the month's totals, for this publisher only", async () => {
  await using folio = await testFolio();
  const db = folio.deps.store.db;
  const now = folio.clock.now().getTime();
  const other = await signUp(folio);
  await insertCalls(db, [
    call({
      at: new Date(now - 2 * DAY),
      publisherId: "pub_demo",
      surface: "mcp",
      tool: "get_article",
    }),
    call({
      at: new Date(now - 2 * DAY),
      publisherId: "pub_demo",
      surface: "mcp",
      tool: "_method:initialize",
      status: "trace",
    }),
    call({
      at: new Date(now),
      publisherId: "pub_demo",
      surface: "rest",
      tool: "_rest:get_article",
    }),
    call({
      at: new Date(now),
      publisherId: "pub_demo",
      surface: "rest",
      tool: "_rest:search_articles",
      status: "error",
      httpStatus: 500,
    }),
    call({
      at: new Date(now - 40 * DAY),
      publisherId: "pub_demo",
      surface: "a2a",
      tool: "get_article",
    }),
    call({
      at: new Date(now),
      publisherId: other.publisherId,
      surface: "mcp",
      tool: "get_article",
    }),
  ]);
  for (const prompt of ["Harbor news", "harbor news ", "Night trains"]) {
    await insertIntent(db, "pub_demo", {
      articleId: "a1",
      prompt,
      identity: "ip:1",
      surface: "mcp",
      now: folio.clock.now(),
    });
  }
  const res = await folio.request("/api/publisher/analytics?days=7", {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  assert.equal(res.status, 200);
  const a = await res.json();
  assert.equal(a.days, 7);
  assert.equal(a.daily.length, 7);
  assert.equal(a.to, "2026-11-15");
  assert.deepEqual(a.surfaces, ["mcp", "rest"]);
  assert.deepEqual(a.totals, {
    calls: 3,
    errors: 1,
    reads: 2,
    chargedReads: 0,
    earningsUsdCents: 0,
    platformFeesUsdCents: 0,
  });
  assert.deepEqual(a.daily.at(-1).calls, { rest: 2 });
  assert.deepEqual(a.daily.at(-3).calls, { mcp: 1 });
  assert.equal(a.month.month, "2026-11");
  assert.equal(a.month.calls, 3);
  assert.equal(a.topIntents[0].count, 2, "intents fold case and spacing");
  for (const bad of ["0", "91", "x", "7.5"]) {
    const r = await folio.request(`/api/publisher/analytics?days=${bad}`, {
      headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
    });
    assert.equal(r.status, 400, bad);
    assert.match((await r.json()).error.message, /^days/);
  }
});
