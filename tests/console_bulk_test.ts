/**
 * The Articles page's defaults for new articles and its bulk change of policy and price (issue
 * 34), as a browser without JavaScript uses them: tick articles or take the filters, read how
 * many will change, confirm; a refused form shows its problem beside the field and changes nothing.
 */
import assert from "node:assert/strict";
import { demoVisitor, hidden, textOf, type Visitor } from "./console_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { demoIds } from "./fixtures/demo.ts";

async function stored(folio: TestFolio, ids: string[]) {
  const rs = await folio.store.db.execute({
    sql: `SELECT policy, price_micros FROM articles WHERE id IN (SELECT value FROM json_each(?))`,
    args: [JSON.stringify(ids)],
  });
  return rs.rows.map((r) => `${r.policy} ${r.price_micros}`);
}

async function csrf(visitor: Visitor): Promise<string> {
  return hidden((await visitor.get("/publisher/articles")).html);
}

Deno.test("the defaults for new articles are set from the Articles page; a bad price is named", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const page = await visitor.get("/publisher/articles");
  assert.match(textOf(page.html), /New articles get: OBSERVE/);
  const saved = await visitor.post("/publisher/articles/defaults", {
    _csrf: hidden(page.html),
    policy: "PAYWALL",
    priceUsd: "0.05",
  });
  assert.equal(saved.status, 200);
  const text = textOf(saved.html);
  assert.match(text, /Saved: new articles get this policy and price/);
  assert.match(text, /New articles get: PAYWALL at \$0\.05 per read/);

  const bad = await visitor.post("/publisher/articles/defaults", {
    _csrf: hidden(saved.html),
    policy: "PAYWALL",
    priceUsd: "-1",
  });
  assert.equal(bad.status, 400);
  assert.match(bad.html, /id="priceUsd-error" role="alert">Price per read of new articles: /);
  assert.match(bad.html, /<details class="card defaults" open/);
  assert.match(textOf(bad.html), /New articles get: PAYWALL at \$0\.05/, "nothing changed");
});

Deno.test("ticked articles change only after the visitor confirms how many will", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const [a, b] = await demoIds(folio, "OBSERVE");
  const [paid] = await demoIds(folio, "PAYWALL");
  const list = await visitor.get("/publisher/articles");
  assert.match(list.html, new RegExp(`<input type="checkbox" name="ids" value="${a}" form="bulk"`));
  const before = await stored(folio, [a, b, paid]);
  const review = await visitor.post("/publisher/articles/bulk", {
    _csrf: hidden(list.html),
    back: "/publisher/articles",
    scope: "selected",
    ids: [a, b, paid],
    policy: "PAYWALL",
    priceUsd: "",
  });
  assert.equal(review.status, 200);
  const text = textOf(review.html);
  assert.match(text, /Change 2 articles\?/);
  assert.match(text, /You selected 3 articles\. Setting policy PAYWALL changes 2 of them; 1 have/);
  assert.deepEqual(await stored(folio, [a, b, paid]), before, "nothing changes before confirming");

  const done = await visitor.post("/publisher/articles/bulk", {
    _csrf: hidden(review.html),
    back: "/publisher/articles",
    scope: "selected",
    ids: [a, b, paid],
    policy: "PAYWALL",
    priceUsd: "",
    confirm: "1",
  });
  assert.equal(done.status, 200);
  assert.match(done.url, /n=2&done=bulk/);
  assert.match(textOf(done.html), /Changed the policy or price of 2 articles\./);
  assert.deepEqual((await stored(folio, [a, b])).map((s) => s.split(" ")[0]), [
    "PAYWALL",
    "PAYWALL",
  ]);
});

Deno.test("a bulk change by filter takes every article the filters match", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const list = await visitor.get("/publisher/articles?q=heat");
  const total = Number(/(\d+) match/.exec(textOf(list.html))?.[1]);
  assert.ok(total > 0);
  assert.match(list.html, /<input type="hidden" name="f_q" value="heat"/);
  const review = await visitor.post("/publisher/articles/bulk", {
    _csrf: hidden(list.html),
    back: "/publisher/articles?q=heat",
    scope: "filter",
    f_q: "heat",
    policy: "",
    priceUsd: "0.25",
  });
  assert.match(textOf(review.html), new RegExp(`You selected ${total} articles?\\.`));
  assert.match(textOf(review.html), /price \$0\.25 per read/);
});

Deno.test("a bulk form with nothing ticked or a bad price changes nothing and says why", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const [a] = await demoIds(folio, "OBSERVE");
  const before = await stored(folio, [a]);
  const none = await visitor.post("/publisher/articles/bulk", {
    _csrf: await csrf(visitor),
    back: "/publisher/articles",
    scope: "selected",
    policy: "BLOCKED",
  });
  assert.equal(none.status, 400);
  assert.match(none.html, /id="scope-error" role="alert">Which articles: tick at least one/);
  const price = await visitor.post("/publisher/articles/bulk", {
    _csrf: await csrf(visitor),
    back: "/publisher/articles",
    scope: "selected",
    ids: a,
    priceUsd: "-2",
  });
  assert.equal(price.status, 400);
  assert.match(price.html, /id="priceUsd-error" role="alert">Set price per read: /);
  const nothing = await visitor.post("/publisher/articles/bulk", {
    _csrf: await csrf(visitor),
    back: "/publisher/articles",
    scope: "selected",
    ids: a,
  });
  assert.equal(nothing.status, 400);
  assert.match(nothing.html, /id="policy-error" role="alert">Set policy to: /);
  assert.deepEqual(await stored(folio, [a]), before);
});
