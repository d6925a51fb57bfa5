/**
 * Caches stay correct across processes: this test's Folio and a real `deno run main.ts` share one
 * store, each warms its caches, and a price, a rule, a key rotation and an article change made
 * through one must show in the other's very next request (store/config_cache.ts).
 */
import assert from "node:assert/strict";
import { manualClock } from "../server/platform/clock.ts";
import { getPublisher, updatePublisher } from "../store/publishers.ts";
import { insertLicense } from "../store/licenses.ts";
import { insertRule } from "../store/rules.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { secondProcess } from "./processes.ts";

const cents = (res: { headers: Headers }) => res.headers.get("folio-charged-usd-cents");

/** This test's Folio and a real `main.ts` on one store; both stopped and the store removed after. */
async function twoProcesses(
  fn: (a: TestFolio, b: Awaited<ReturnType<typeof secondProcess>>) => Promise<void>,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-cache-2p-" });
  try {
    await using a = await testFolio({ dataDir, clock: manualClock(new Date()) });
    await using b = await secondProcess(dataDir);
    await fn(a, b);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

Deno.test("a price, a rule, a key rotation and an article change reach the other process at once", () =>
  twoProcesses(async (a, b) => {
    // Every vector written first: the background loop's writes would move the catalog version and
    // hide a cache that missed an article change.
    while (await a.deps.search.embedPending({ publisherId: "pub_demo" }) > 0) { /* all */ }
    const { apiKey } = await signup(a, "cache");
    const [first, second, third, fourth] = await paywalled(a, 4);
    const db = a.deps.store.db;
    const publisher = (await getPublisher(db, "pub_demo"))!;

    // Both processes have read the publisher and its rules (warm caches) at the old price.
    const before = await read(b, apiKey, first, "b-1");
    assert.equal(before.status, 200);
    const oldCents = Number(cents(before));
    assert.ok(oldCents > 0);
    assert.equal(cents(await read(a, apiKey, first, "a-1")), String(oldCents));

    // A price changed through this process is charged by the other on its next read.
    await updatePublisher(db, {
      ...publisher,
      pricesMicros: { ...publisher.pricesMicros, display: (oldCents + 7) * 10_000 },
    }, { now: new Date() });
    assert.equal(cents(await read(b, apiKey, second, "b-2")), String(oldCents + 7));

    // So is a rule that prices one path.
    await insertRule(db, "pub_demo", {
      id: "rule_cache_test",
      priority: 1,
      match: {},
      action: { priceMicros: 990_000 },
      now: new Date(),
    });
    assert.equal(cents(await read(b, apiKey, third, "b-3")), "99");

    // A key rotated through the other process stops working here at once.
    const rotated = await b.request("/api/marketplace/rotate-key", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    assert.equal(rotated.status, 200);
    const { apiKey: newKey } = await json<{ apiKey: string }>(rotated);
    assert.equal((await read(a, apiKey, fourth, "a-old")).status, 401);
    assert.equal((await read(a, newKey, fourth, "a-new")).status, 200);

    // An article blocked through this process is refused by the other.
    await db.execute({ sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?", args: [first] });
    const blocked = await read(b, newKey, first, "b-blocked");
    assert.equal(blocked.body.status, "blocked");
    assert.equal(cents(blocked), null);
  }));

Deno.test("a search the other process answered from its result cache changes with the catalog at once", () =>
  twoProcesses(async (a, b) => {
    const demo = { host: "demo.localhost" };
    const ids = async (res: Promise<Response>) => {
      const r = await res;
      assert.equal(r.status, 200);
      const body = await json<{ results: { id: string }[] }>(r);
      return body.results.map((x) => x.id);
    };
    const search = (f: typeof a | typeof b) =>
      ids(f.request("/api/v1/articles/search?q=coral%20reefs&limit=10", demo));
    // Every vector written first, so both processes search the same settled catalog.
    while (await a.deps.search.embedPending({ publisherId: "pub_demo" }) > 0) { /* all */ }
    // Both processes have answered the question once (the second answer comes from the cache).
    const before = await search(b);
    assert.ok(before.length > 0);
    assert.deepEqual(await search(b), before);
    assert.deepEqual(await search(a), before);

    // Unpublished through this process: gone from the other's very next answer.
    const db = a.deps.store.db;
    await db.execute({
      sql: "UPDATE articles SET unpublished_at = ? WHERE id = ?",
      args: [Date.now(), before[0]],
    });
    const after = await search(b);
    assert.ok(after.length > 0);
    assert.ok(!after.includes(before[0]));

    // Retitled through this process: an article the question did not find is found by the other.
    const [other] = (await db.execute({
      sql: `SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'OBSERVE'
            AND unpublished_at IS NULL AND id NOT IN (${before.map(() => "?").join(",")}) LIMIT 1`,
      args: before,
    })).rows.map((r) => String(r.id));
    await db.execute({
      sql: "UPDATE articles SET title = 'Coral reefs: coral reefs of the coral sea' WHERE id = ?",
      args: [other],
    });
    assert.ok((await search(b)).includes(other));
  }));

Deno.test("a license granted or canceled through one process changes the other's next read at once", () =>
  twoProcesses(async (a, b) => {
    const { buyerId, apiKey } = await signup(a, "license");
    const [first, second, third] = await paywalled(a, 3);
    const db = a.deps.store.db;

    // The other process has read with no license (its caches hold none): a charged read.
    const before = await read(b, apiKey, first, "b-1");
    assert.equal(before.status, 200);
    assert.ok(Number(cents(before)) > 0);

    // A subscription granted through this process: the other's next read is covered, not charged.
    await insertLicense(db, buyerId, {
      id: "lic_cache_test",
      publisherId: "pub_demo",
      kind: "subscription",
      useCases: ["display"],
      monthlyFeeMicros: 0,
      state: "active",
      now: new Date(),
    });
    const covered = await read(b, apiKey, second, "b-2");
    assert.equal(covered.status, 200);
    assert.equal(cents(covered), null);

    // Canceled through this process: charged again on the other's next read.
    await db.execute("UPDATE licenses SET state = 'canceled' WHERE id = 'lic_cache_test'");
    assert.ok(Number(cents(await read(b, apiKey, third, "b-3"))) > 0);
  }));
