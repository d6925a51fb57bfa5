/**
 * Bulk edits of policy and price, and the defaults new articles get (issue 34): a dry run counts,
 * a change applies to every selected article or none, and new articles take the defaults.
 */
import assert from "node:assert/strict";
import { upsertArticle } from "../store/articles.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson, signUp } from "./manage_helpers.ts";
import { demoIds } from "./fixtures/demo.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

async function bulk(folio: TestFolio, body: unknown, key = folio.seeded!.apiKey) {
  return await sendJson(folio, "POST", "/api/publisher/articles/bulk", body, bearer(key));
}

async function stored(folio: TestFolio, ids: string[]) {
  const rs = await folio.store.db.execute({
    sql: `SELECT id, policy, price_micros FROM articles WHERE id IN (SELECT value FROM json_each(?))
          ORDER BY id`,
    args: [JSON.stringify(ids)],
  });
  return rs.rows.map((r) => [String(r.id), String(r.policy), r.price_micros]);
}

Deno.test("a bulk change counts first, then sets policy and price on every selected article", async () => {
  await using folio = await testFolio();
  const open = (await demoIds(folio, "OBSERVE")).slice(0, 3);
  const [paid] = await demoIds(folio, "PAYWALL");
  const ids = [...open, paid];
  const before = await stored(folio, ids);
  const set = { policy: "PAYWALL", priceUsdCents: 7 };
  const dry = await bulk(folio, { ids, set, dryRun: true });
  assert.deepEqual(await json(dry), { dryRun: true, matched: 4, changed: 4 });
  assert.deepEqual(await stored(folio, ids), before, "a dry run changes nothing");

  const done = await bulk(folio, { ids, set });
  assert.deepEqual(await json(done), { dryRun: false, matched: 4, changed: 4 });
  const after = await stored(folio, ids);
  assert.ok(after.every(([, policy, price]) => policy === "PAYWALL" && price === 70_000));
  const again = await bulk(folio, { ids, set: { policy: "PAYWALL" } });
  assert.deepEqual(await json(again), { dryRun: false, matched: 4, changed: 0 });
  const cleared = await bulk(folio, { ids: open, set: { priceUsdCents: null } });
  assert.equal((await json<Body>(cleared)).changed, 3);
  assert.ok((await stored(folio, open)).every(([, , price]) => price === null));

  // The list shows it: the effective policy follows.
  const listed = await json<Body>(
    await folio.request(`/api/publisher/articles?policy=PAYWALL&limit=200`, {
      headers: bearer(folio.seeded!.apiKey),
    }),
  );
  for (const id of ids) assert.ok(listed.articles.some((a: Body) => a.id === id), id);
});

Deno.test("a bulk change by filter takes what the catalog lists with the same filters", async () => {
  await using folio = await testFolio();
  const key = folio.seeded!.apiKey;
  const list = await json<Body>(
    await folio.request("/api/publisher/articles?q=heat&limit=200", { headers: bearer(key) }),
  );
  assert.ok(list.total > 0);
  const res = await bulk(folio, { filter: { q: "heat" }, set: { policy: "BLOCKED" } });
  const out = await json<Body>(res);
  assert.equal(out.matched, list.total);
  assert.equal(out.changed, list.total);
  const blocked = await json<Body>(
    await folio.request("/api/publisher/articles?storedPolicy=BLOCKED&limit=200", {
      headers: bearer(key),
    }),
  );
  assert.deepEqual(
    blocked.articles.map((a: Body) => a.id).sort(),
    list.articles.map((a: Body) => a.id).sort(),
  );
});

Deno.test("bad bulk input changes nothing and names its field", async () => {
  await using folio = await testFolio();
  const open = (await demoIds(folio, "OBSERVE")).slice(0, 2);
  const before = await stored(folio, open);
  const other = await signUp(folio);
  const cases: [unknown, string, string?][] = [
    [{ ids: [open[0], "nope"], set: { policy: "PAYWALL" } }, "ids[1]"],
    [{ ids: open, filter: {}, set: { policy: "PAYWALL" } }, "ids"],
    [{ set: { policy: "PAYWALL" } }, "ids"],
    [{ ids: open, set: {} }, "set"],
    [{ ids: open, set: { priceUsdCents: -1 } }, "set.priceUsdCents"],
    [{ ids: open, set: { policy: "FREE" } }, "set.policy"],
    [{ ids: [], set: { policy: "PAYWALL" } }, "ids"],
    [{ filter: { kind: "poem" }, set: { policy: "PAYWALL" } }, "filter.kind"],
    [{ ids: open, set: { policy: "PAYWALL" }, extra: 1 }, "extra"],
    [{ ids: open, set: { policy: "PAYWALL" } }, "ids[0]", other.apiKey],
  ];
  for (const [body, param, key] of cases) {
    const res = await bulk(folio, body, key);
    const error = (await json<Body>(res)).error;
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(error.param ?? "body", param, `${JSON.stringify(body)}: ${error.message}`);
  }
  assert.deepEqual(await stored(folio, open), before);
});

Deno.test("new articles get the publisher's default policy and price; existing ones keep theirs", async () => {
  await using folio = await testFolio();
  const { publisherId, apiKey } = await signUp(folio);
  const h = bearer(apiKey);
  const ingest = (url: string, extra: Record<string, unknown> = {}) =>
    upsertArticle(folio.store.db, publisherId, { url, title: "T", body: "B", ...extra }, {
      now: folio.clock.now(),
    });
  const first = await ingest("https://x.example/1");
  const read = await folio.request("/api/publisher/article-defaults", { headers: h });
  assert.deepEqual(await json(read), { policy: "OBSERVE", priceUsdCents: null });

  const put = await sendJson(folio, "PUT", "/api/publisher/article-defaults", {
    policy: "PAYWALL",
    priceUsdCents: 2.5,
  }, h);
  assert.deepEqual(await json(put), { policy: "PAYWALL", priceUsdCents: 2.5 });
  const second = await ingest("https://x.example/2");
  const named = await ingest("https://x.example/3", { policy: "OBSERVE", priceMicros: null });
  await ingest("https://x.example/1", { body: "changed" });
  assert.deepEqual(
    await stored(folio, [first.id, second.id, named.id]),
    [
      [first.id, "OBSERVE", null],
      [second.id, "PAYWALL", 25_000],
      [named.id, "OBSERVE", null],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );

  for (
    const [body, param] of [
      [{ policy: "FREE", priceUsdCents: null }, "policy"],
      [{ policy: "PAYWALL" }, "priceUsdCents"],
      [{ policy: "PAYWALL", priceUsdCents: 100_001 }, "priceUsdCents"],
    ] as const
  ) {
    const res = await sendJson(folio, "PUT", "/api/publisher/article-defaults", body, h);
    assert.equal(res.status, 400);
    assert.equal((await json<Body>(res)).error.param, param);
  }
  const still = await folio.request("/api/publisher/article-defaults", { headers: h });
  assert.deepEqual(await json(still), { policy: "PAYWALL", priceUsdCents: 2.5 });
});

Deno.test("a bulk change takes the documented 10,000 ids, each as long as the schema allows; more is refused", async () => {
  await using folio = await testFolio();
  const open = (await demoIds(folio, "OBSERVE")).slice(0, 2);
  const before = await stored(folio, open);
  // 10,000 real ids (two articles, repeated): the whole request goes through.
  const many = Array.from({ length: 10_000 }, (_, i) => open[i % 2]);
  const done = await bulk(folio, { ids: many, set: { policy: "PAYWALL" }, dryRun: true });
  assert.equal(done.status, 200);
  assert.deepEqual(await json(done), { dryRun: true, matched: 2, changed: 2 });
  // 10,000 ids of 200 characters (about 2 MB) still reach the schema and the store's check.
  const long = [...open, ...Array.from({ length: 9_998 }, (_, i) => `art_${i}`.padEnd(200, "x"))];
  const unknown = await bulk(folio, { ids: long, set: { policy: "PAYWALL" } });
  assert.equal(unknown.status, 400);
  assert.equal((await json<Body>(unknown)).error.param, "ids[2]");
  // 10,001 ids are one too many; a body past the route's limit is a 413.
  const tooMany = await bulk(folio, { ids: [...many, open[0]], set: { policy: "PAYWALL" } });
  assert.equal(tooMany.status, 400);
  assert.equal((await json<Body>(tooMany)).error.param, "ids");
  const huge = await bulk(folio, {
    ids: open,
    set: { policy: "PAYWALL" },
    pad: "x".repeat(3 * 1024 * 1024),
  });
  assert.equal(huge.status, 413);
  assert.equal((await json<Body>(huge)).error.code, "payload_too_large");
  assert.deepEqual(await stored(folio, open), before);
});
