/**
 * Publisher payout statements (issue 29 item 5): per-read and subscription earnings, platform fees
 * apart, net and payout state, in the management API, as CSV and on the console's Payouts page;
 * lines add up to their items to the micro-dollar.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { closeMonth } from "../server/domain/billing/close.ts";
import { formatCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { demoVisitor, textOf } from "./console_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { signUp } from "./manage_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function manage(folio: TestFolio, path: string, key = folio.seeded!.apiKey) {
  return folio.request(path, { headers: { authorization: `Bearer ${key}` } });
}

/** Charges for the demo publisher's content: reads, an agent payment, a license fee. */
async function earn(folio: TestFolio) {
  const { apiKey } = await signup(folio, "payer");
  const ids = await paywalled(folio, 3);
  for (const id of ids) assert.equal((await read(folio, apiKey, id)).status, 200);
  const site = await folio.deps.store.db.execute({
    sql: "SELECT site_path FROM articles WHERE id = ?",
    args: [ids[0]],
  });
  const landing = await folio.request(String(site.rows[0].site_path), {
    host: HOST,
    headers: {
      authorization: `Bearer ${apiKey}`,
      "user-agent": GPTBOT,
      "crawler-max-price": formatCrawlerPrice(1_000_000),
    },
  });
  await landing.body?.cancel();
  const lic = await folio.request("/api/marketplace/licenses", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["rag"] }),
  });
  await lic.body?.cancel();
  assert.equal(lic.status, 201);
  return { apiKey };
}

Deno.test("payout statement: gross, fees apart, net, state; lines sum to their items", async () => {
  await using folio = await testFolio();
  await earn(folio);
  const s: Any = await json(await manage(folio, "/api/publisher/payouts"));
  assert.equal(s.month, "2026-11");
  assert.equal(s.state, "open");
  assert.deepEqual(s.lines.map((l: Any) => l.kind), ["metered", "landing", "subscription"]);
  assert.equal(s.perRead.count, 4);
  assert.equal(s.subscriptions.count, 1);
  const landing = s.lines.find((l: Any) => l.kind === "landing");
  assert.ok(landing.platformFeesUsdMicros > 0);
  assert.equal(landing.netUsdMicros, landing.grossUsdMicros - landing.platformFeesUsdMicros);
  assert.equal(s.totals.netUsdMicros, s.totals.grossUsdMicros - s.totals.platformFeesUsdMicros);
  assert.equal(
    s.totals.grossUsdMicros,
    s.perRead.grossUsdMicros + s.subscriptions.grossUsdMicros,
  );
  assert.deepEqual(s.payout, { state: "accruing", amountUsdMicros: s.totals.netUsdMicros });
  for (const line of s.lines) {
    const items: Any = await json(await manage(folio, line.itemsUrl));
    assert.equal(items.items.length, line.count);
    assert.equal(items.matching.amountUsdMicros, line.grossUsdMicros, line.kind);
    assert.equal(items.matching.priceUsdMicros, line.netUsdMicros, line.kind);
    assert.ok(items.items.every((i: Any) => i.idempotencyKey === null), "not the buyer's key");
  }

  // After the close, the payout is computed and pending, for the same net.
  folio.clock.set(new Date("2026-12-01T01:00:00Z"));
  await closeMonth(folio.store.db, { month: "2026-11", now: folio.clock.now() });
  const closed: Any = await json(await manage(folio, "/api/publisher/payouts?month=2026-11"));
  assert.equal(closed.state, "closed");
  assert.deepEqual(closed.payout, { state: "pending", amountUsdMicros: s.totals.netUsdMicros });

  // Another publisher's statement has none of it.
  const other = await signUp(folio);
  const theirs: Any = await json(
    await manage(folio, "/api/publisher/payouts?month=2026-11", other.apiKey),
  );
  assert.deepEqual(theirs.lines, []);
  assert.equal(theirs.totals.netUsdMicros, 0);
  const bad = await manage(folio, "/api/publisher/payouts?month=2026-13");
  const body: Any = await json(bad);
  assert.equal(bad.status, 400);
  assert.equal(body.error.param, "month");
});

Deno.test("payout CSV and the console's Payouts page", async () => {
  await using folio = await testFolio();
  await earn(folio);
  const res = await manage(folio, "/api/publisher/payouts/csv?month=2026-11");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-disposition")!, /folio-payout-2026-11\.csv/);
  const rows: string[][] = parse(await res.text());
  assert.deepEqual(rows[0].slice(0, 4), ["month", "line", "description", "count"]);
  const net = rows[0].indexOf("net_usd_micros");
  const total = rows[rows.length - 1];
  assert.equal(total[1], "total");
  assert.equal(
    rows.slice(1, -1).reduce((t, r) => t + Number(r[net]), 0),
    Number(total[net]),
  );

  const visitor = await demoVisitor(folio);
  const page = await visitor.get("/publisher/payouts");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(text, /Payout statement for November 2026/);
  assert.match(text, /Metered reads \(REST, MCP, A2A\) 3/);
  assert.match(text, /accruing: the month is in progress/);
  assert.match(page.html, /href="\/publisher\/payouts\/2026-11\.csv" download/);
  const csv = await visitor.get("/publisher/payouts/2026-11-items.csv");
  assert.equal(csv.status, 200);
  assert.equal(parse(csv.html).length, 1 + 5);
  const refused = await visitor.get("/publisher/payouts?month=nope");
  assert.equal(refused.status, 400);
  assert.match(textOf(refused.html), /month: must be a month written YYYY-MM/);
});
