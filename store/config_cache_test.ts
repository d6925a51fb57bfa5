import assert from "node:assert/strict";
import { cachedCatalog, cachedConfig, readView } from "./config_cache.ts";
import { openStore } from "./db.ts";

async function store() {
  const dir = await Deno.makeTempDir({ prefix: "folio-cache-" });
  const s = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  return Object.assign(s, {
    async [Symbol.asyncDispose]() {
      s.close();
      await Deno.remove(dir, { recursive: true });
    },
  });
}

Deno.test("each space is kept until its own version moves, and values are frozen", async () => {
  await using s = await store();
  let loads = 0;
  const load = () => Promise.resolve({ n: ++loads, nested: { title: "t" } });
  const config = await cachedConfig(s.db, "k", load);
  const catalog = await cachedCatalog(s.db, "k", load);
  assert.notEqual(config, catalog, "the spaces do not share keys");
  assert.equal(await cachedConfig(s.db, "k", load), config);
  assert.equal(await cachedCatalog(s.db, "k", load), catalog);
  assert.throws(() => (catalog.nested as { title: string }).title = "changed", TypeError);

  // A catalog change (here a new book) drops catalog values only.
  await s.db.execute({
    sql:
      "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES ('p', 'p', 'P', 0, 0)",
  });
  const afterPublisher = await cachedConfig(s.db, "k", load);
  assert.notEqual(afterPublisher, config, "a publisher change moves the configuration version");
  assert.equal(await cachedCatalog(s.db, "k", load), catalog, "and leaves the catalog's");
  await s.db.execute(`INSERT INTO books (id, publisher_id, title, author, format, rights_ceiling,
    created_at) VALUES ('b', 'p', 'B', 'A', 'text', '{}', 0)`);
  assert.notEqual(await cachedCatalog(s.db, "k", load), catalog);
  assert.equal(await cachedConfig(s.db, "k", load), afterPublisher);
});

Deno.test("a lookup through the request's read view reads no version; a failed load is not kept", async () => {
  await using s = await store();
  const publisher = await cachedConfig(s.db, "publisher", () => Promise.resolve({ id: "p" }));
  const article = await cachedCatalog(s.db, "a", () => Promise.resolve({ v: 1 }));
  await s.db.execute(`INSERT INTO publishers (id, slug, name, created_at, updated_at)
    VALUES ('p', 'p', 'P', 0, 0)`);
  await s.db.execute(`INSERT INTO books (id, publisher_id, title, author, format, rights_ceiling,
    created_at) VALUES ('b', 'p', 'B', 'A', 'text', '{}', 0)`);
  const again = () => Promise.resolve({ v: 2 });
  // The same request: it read the versions at its start, so its view keeps seeing that catalog.
  const view = readView(s.db, publisher);
  assert.equal(readView(view, publisher), view, "one view per object seen");
  assert.equal(await cachedCatalog(view, "a", again), article);
  // The next request reads the versions first and sees the change.
  assert.deepEqual(await cachedCatalog(s.db, "a", again), { v: 2 });

  let calls = 0;
  const failing = () => Promise.reject(new Error(`load ${++calls}`));
  await assert.rejects(cachedCatalog(view, "x", failing), /load 1/);
  await assert.rejects(cachedCatalog(view, "x", failing), /load 2/);
  // A write through the view reaches the store.
  await view.execute("UPDATE publishers SET name = 'Q' WHERE id = 'p'");
  const rs = await s.db.execute("SELECT name FROM publishers WHERE id = 'p'");
  assert.equal(rs.rows[0].name, "Q");
});

Deno.test("a lookup skips the version read only while nothing was committed; another client's commit is seen", async () => {
  await using s = await store();
  const { createEmbeddedClient } = await import("./embedded.ts");
  const other = createEmbeddedClient(s.path!, { timeoutMs: 2000 });
  try {
    let loads = 0;
    const load = () => Promise.resolve({ n: ++loads });
    let reads = 0;
    const counting = new Proxy(s.db, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key === "execute") return (...a: unknown[]) => (reads++, value.apply(target, a));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const first = await cachedConfig(counting, "k", load);
    assert.equal(reads, 1, "the first lookup reads the versions");
    reads = 0;
    assert.equal(await cachedConfig(counting, "k", load), first);
    assert.equal(reads, 0, "no commit since the last read: no query");
    // A publisher inserted through another client (its own connections, as another process's).
    await other.execute(`INSERT INTO publishers (id, slug, name, created_at, updated_at)
      VALUES ('p', 'p', 'P', 0, 0)`);
    const after = await cachedConfig(counting, "k", load);
    assert.equal(reads, 1, "a commit since: the versions are read again");
    assert.notEqual(after, first, "and the change is seen");
    assert.equal(await cachedConfig(counting, "k", load), after);
    assert.equal(reads, 1);
  } finally {
    other.close();
  }
});
