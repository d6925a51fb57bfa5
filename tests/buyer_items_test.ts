/** The buyer portal's Items page: filters, paging, the CSV, the empty state, statement drill-down. */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { textOf } from "./console_helpers.ts";
import { testFolio } from "./helpers.ts";
import { paywalled, read } from "./billing_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";

Deno.test("items page: empty state, then items filtered, paged, exported, reached from a statement line", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const empty = await visitor.get("/buyer/items");
  assert.equal(empty.status, 200);
  assert.match(textOf(empty.html), /No charges yet\./);
  assert.match(textOf(empty.html), /automatic card collection is a future capability/);

  const ids = await paywalled(folio, 3);
  for (const [i, id] of ids.entries()) {
    assert.equal((await read(folio, apiKey, id, `portal-${i}`)).status, 200);
  }
  const page = await visitor.get("/buyer/items");
  const text = textOf(page.html);
  assert.match(text, /3 items match/);
  assert.match(text, /portal-0/);
  assert.match(
    page.html,
    /href="\/api\/marketplace\/items\/chg_[0-9a-z]+" title="rct_[0-9a-z]+"/,
  );
  assert.match(page.html, /href="\/buyer\/items\.csv" download/);

  const none = await visitor.get("/buyer/items?surface=mcp");
  assert.match(textOf(none.html), /No charges match these filters\./);
  assert.match(none.html, /<option value="mcp" selected>/);

  const csv = await visitor.get("/buyer/items.csv?use=display");
  assert.equal(csv.status, 200);
  assert.equal(csv.headers.get("content-disposition"), 'attachment; filename="folio-items.csv"');
  const rows: string[][] = parse(csv.html);
  assert.equal(rows.length, 4);

  const refused = await visitor.get("/buyer/items?from=yesterday");
  assert.equal(refused.status, 400);
  assert.match(textOf(refused.html), /from: must be a day/);

  // The statement line's items link lands on this page with the line's filters.
  const month = await visitor.get("/buyer/statements/2026-11");
  const link = /href="(\/buyer\/items\?[^"]+)"/.exec(month.html)![1].replaceAll("&amp;", "&");
  assert.match(link, /statementMonth=2026-11/);
  const drilled = await visitor.get(link);
  assert.match(textOf(drilled.html), /3 items match/);
  assert.match(textOf(month.html), /automatic card collection is a future capability/);
});

Deno.test("items page: the next-page link follows the cursor without repeating an item", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await portalSignUp(folio);
  const ids = await paywalled(folio, 1);
  for (let i = 0; i < 52; i++) {
    assert.equal((await read(folio, apiKey, ids[0], `many-${i}`)).status, 200);
  }
  const first = await visitor.get("/buyer/items");
  assert.match(textOf(first.html), /52 items match/);
  const next = /href="(\/buyer\/items\?cursor=[^"]+)">Next page/.exec(first.html)![1];
  const second = await visitor.get(next.replaceAll("&amp;", "&"));
  assert.match(textOf(second.html), /2 on this page/);
  assert.match(second.html, /First page/);
  const keys = (html: string) => [...html.matchAll(/<code>(many-\d+)<\/code>/g)].map((m) => m[1]);
  const all = [...keys(first.html), ...keys(second.html)];
  assert.equal(all.length, 52);
  assert.equal(new Set(all).size, 52);
});
