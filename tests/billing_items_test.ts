/**
 * Itemised charges (issue 29 item 5): every charge is an item the buyer can page, filter and
 * export; each statement line drills down to its items, and they add up to it to the micro-dollar.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { formatCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";

// deno-lint-ignore no-explicit-any
type Page = { items: any[]; nextCursor: string | null; matching: any };

function get(folio: TestFolio, apiKey: string, path: string) {
  return folio.request(path, { headers: { authorization: `Bearer ${apiKey}` } });
}

async function page(folio: TestFolio, apiKey: string, path: string): Promise<Page> {
  const res = await get(folio, apiKey, path);
  assert.equal(res.status, 200, path);
  return await json<Page>(res);
}

/** Every item at `path`, following the cursor `limit` at a time. */
async function all(folio: TestFolio, apiKey: string, path: string, limit = 2) {
  const out: Page["items"] = [];
  let cursor: string | null = null;
  const sep = path.includes("?") ? "&" : "?";
  do {
    const p: Page = await page(
      folio,
      apiKey,
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    assert.ok(p.items.length <= limit);
    out.push(...p.items);
    cursor = p.nextCursor;
  } while (cursor);
  return out;
}

/** A buyer with reads on REST and the landing path, and a subscription fee. */
async function spender(folio: TestFolio) {
  const { buyerId, apiKey } = await signup(folio, "items");
  const ids = await paywalled(folio, 4);
  for (const [i, id] of ids.entries()) {
    const r = await read(folio, apiKey, id, `key-${i}`);
    assert.equal(r.status, 200);
  }
  await read(folio, apiKey, ids[0], "key-0"); // a retry: no new item
  const site = await folio.deps.store.db.execute({
    sql: "SELECT site_path FROM articles WHERE id = ?",
    args: [ids[1]],
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
  assert.equal(landing.status, 200);
  const lic = await folio.request("/api/marketplace/licenses", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ publisherId: "pub_demo", useCases: ["summarization"] }),
  });
  await lic.body?.cancel();
  assert.equal(lic.status, 201);
  return { buyerId, apiKey, ids };
}

Deno.test("items: every charge, paged without gaps, filtered, each with its fields", async () => {
  await using folio = await testFolio();
  const { apiKey, ids } = await spender(folio);
  const items = await all(folio, apiKey, "/api/marketplace/items");
  assert.equal(items.length, 6, "four reads, one landing read, one subscription fee");
  assert.equal(new Set(items.map((i) => i.id)).size, 6, "no item twice across pages");
  const times = items.map((i) => i.at);
  assert.deepEqual(times, [...times].sort().reverse(), "newest first");
  const rest = items.filter((i) => i.surface === "rest");
  assert.equal(rest.length, 4);
  const first = rest.find((i) => i.article.id === ids[0])!;
  assert.equal(first.idempotencyKey, "key-0");
  assert.equal(first.use, "display");
  assert.equal(first.kind, "metered");
  assert.equal(first.publisher.id, "pub_demo");
  assert.match(first.article.url, /^https?:\/\//);
  assert.ok(first.article.title.length > 0);
  assert.equal(first.receiptId, first.id.replace(/^chg_/, "rct_"));
  assert.equal(first.amountUsdMicros, first.priceUsdMicros + first.feeUsdMicros);
  const landing = items.find((i) => i.surface === "landing")!;
  assert.equal(landing.kind, "landing");
  assert.ok(landing.feeUsdMicros > 0, "the landing path's fee is apart");
  const fee = items.find((i) => i.kind === "subscription")!;
  assert.equal(fee.article, null);
  assert.equal(fee.use, null);

  const only = async (q: string) => (await page(folio, apiKey, `/api/marketplace/items?${q}`));
  assert.equal((await only("surface=landing")).items.length, 1);
  assert.equal((await only("kind=subscription")).items.length, 1);
  assert.equal((await only("surface=marketplace")).items[0].kind, "subscription");
  assert.equal((await only("use=display")).matching.count, 5);
  assert.equal((await only("publisherId=pub_other")).items.length, 0);
  assert.equal((await only("from=2026-11-15&to=2026-11-15")).matching.count, 6);
  assert.equal((await only("to=2026-11-14")).matching.count, 0);
  assert.equal((await only("month=2026-11")).matching.count, 6);
  assert.equal((await only("month=2026-10")).matching.count, 0);
  const sum = (await only("")).matching;
  assert.equal(
    sum.amountUsdMicros,
    items.reduce((t, i) => t + i.amountUsdMicros, 0),
    "matching sums every page",
  );

  // The item and its receipt; another buyer sees none of it.
  const one = await json<{ item: { id: string }; receipt: string }>(
    await get(folio, apiKey, `/api/marketplace/items/${first.id}`),
  );
  assert.equal(one.item.id, first.id);
  assert.match(one.receipt, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  const other = await signup(folio, "other");
  assert.equal((await page(folio, other.apiKey, "/api/marketplace/items")).items.length, 0);
  const theirs = await get(folio, other.apiKey, `/api/marketplace/items/${first.id}`);
  await theirs.body?.cancel();
  assert.equal(theirs.status, 404);
});

Deno.test("items: bad filters are refused with the field named", async () => {
  await using folio = await testFolio();
  const { apiKey } = await signup(folio, "bad");
  for (
    const [q, param] of [
      ["from=yesterday", "from"],
      ["to=2026-13-01", "to"],
      ["from=2026-11-20&to=2026-11-10", "to"],
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["limit=ten", "limit"],
      ["use=reading", "use"],
      ["surface=fax", "surface"],
      ["kind=refund", "kind"],
      ["statementMonth=2026-1", "statementMonth"],
      ["cursor=not-a-cursor", "cursor"],
      ["color=blue", "color"],
    ]
  ) {
    const res = await get(folio, apiKey, `/api/marketplace/items?${q}`);
    const body = await json<{ error: { code: string; param: string } }>(res);
    assert.equal(res.status, 400, q);
    assert.equal(body.error.param, param, q);
  }
  const csv = await get(folio, apiKey, "/api/marketplace/items/csv?from=nope");
  await csv.body?.cancel();
  assert.equal(csv.status, 400);
  const anon = await folio.request("/api/marketplace/items");
  await anon.body?.cancel();
  assert.equal(anon.status, 401);
});

Deno.test("statement lines drill down to items that add up to them to the micro-dollar", async () => {
  await using folio = await testFolio();
  const { apiKey } = await spender(folio);
  // deno-lint-ignore no-explicit-any
  const s = await json<any>(await get(folio, apiKey, "/api/marketplace/statement"));
  assert.ok(s.lines.length >= 3);
  let total = 0;
  for (const line of s.lines) {
    const items = await all(folio, apiKey, line.itemsUrl, 3);
    assert.equal(items.length, line.quantity, line.description);
    const sum = items.reduce((t, i) => t + i.amountUsdMicros, 0);
    assert.equal(sum, line.amountUsdMicros, line.description);
    assert.equal(
      items.reduce((t, i) => t + i.feeUsdMicros, 0),
      line.feeUsdMicros,
      `${line.description}: fees`,
    );
    total += sum;
  }
  assert.equal(total, s.totalUsdMicros);
  const month = await page(folio, apiKey, `/api/marketplace/items?statementMonth=${s.month}`);
  assert.equal(month.matching.amountUsdMicros, s.totalUsdMicros);
  assert.match(s.settlementNote, /automatic card collection is a future capability/);
});

Deno.test("items CSV: every matching item, quoted, formulas defused", async () => {
  await using folio = await testFolio();
  const { apiKey, ids } = await spender(folio);
  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET title = ? WHERE id = ?",
    args: ['=HYPERLINK("http://evil.test","click")', ids[2]],
  });
  const res = await get(folio, apiKey, "/api/marketplace/items/csv?surface=rest");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/csv/);
  assert.match(res.headers.get("content-disposition")!, /attachment; filename="folio-items.csv"/);
  const text = await res.text();
  assert.ok(text.endsWith("\r\n"));
  const rows: string[][] = parse(text);
  assert.equal(rows[0][0], "at");
  assert.equal(rows.length, 1 + 4);
  const title = rows[0].indexOf("article_title");
  const evil = rows.find((r) => r[title].includes("HYPERLINK"))!;
  assert.ok(evil[title].startsWith("'="), "a formula is defused with a leading quote");
  assert.ok(text.includes('"\'=HYPERLINK(""http://evil.test"",""click"")"'), "quotes doubled");
  const amount = rows[0].indexOf("amount_usd_micros");
  const sum = rows.slice(1).reduce((t, r) => t + Number(r[amount]), 0);
  const p = await page(folio, apiKey, "/api/marketplace/items?surface=rest");
  assert.equal(sum, p.matching.amountUsdMicros);
});
