import assert from "node:assert/strict";
import { createCallLog } from "../server/platform/call_log.ts";
import { memoryLogger } from "../server/platform/log.ts";
import { openStore } from "../store/db.ts";
import { recentCalls } from "../store/call_log.ts";
import { listRecent } from "../store/articles.ts";
import { recentIntents } from "../store/intents.ts";
import { findPublisherByDomain, normaliseHost } from "../store/publishers.ts";
import { testFolio } from "./helpers.ts";

Deno.test("the call log batches writes and loses nothing on close", async () => {
  const dir = await Deno.makeTempDir();
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  try {
    const log = createCallLog(store.db, { log: memoryLogger(), intervalMs: 10_000, maxBatch: 400 });
    for (let i = 0; i < 1000; i++) {
      log.record({
        publisherId: "pub_demo",
        at: new Date(Date.UTC(2026, 10, 1, 0, 0, i)),
        surface: "rest",
        tool: `_rest:search_articles`,
        userAgent: "test-agent/1.0",
        latencyMs: i / 10,
        status: "ok",
      });
    }
    // record() never waits for the store: with a long interval, only full batches were written.
    await log.close();
    const rs = await store.db.execute("SELECT COUNT(*) AS n FROM call_log");
    assert.equal(Number(rs.rows[0].n), 1000);
    const recent = await recentCalls(store.db, "pub_demo", { limit: 100 });
    assert.equal(recent.length, 100);
    assert.equal(recent[0].latencyMs, 99.9);
    assert.equal(recent[0].tool, "_rest:search_articles");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a read's reader intent waits in the call log's buffer and is written with its batch", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    {
      await using folio = await testFolio({ dataDir });
      const article = (await listRecent(folio.store.db, "pub_demo", { limit: 20 }))
        .find((a) => a.policy === "OBSERVE")!;
      const res = await folio.request(`/api/v1/articles/${article.id}?last_user_prompt=why+bees`, {
        host: "demo.localhost",
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    // Closing (graceful shutdown) writes it, with the call it came with.
    const store = await openStore(`file:${dataDir}/folio.db`, { now: new Date() });
    const intents = await recentIntents(store.db, "pub_demo", { limit: 5 });
    const calls = await recentCalls(store.db, "pub_demo", { limit: 5 });
    store.close();
    assert.deepEqual(intents.map((i) => i.prompt), ["why bees"]);
    assert.equal(calls[0].tool, "_rest:get_article");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("recordIntent() only buffers; flush() writes intents and calls in one batch", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  const log = createCallLog(db, { log: memoryLogger(), intervalMs: 60_000 });
  const at = folio.clock.now();
  log.recordIntent({
    publisherId: "pub_demo",
    articleId: "art_x",
    prompt: "p",
    identity: "ip:1",
    surface: "rest",
    at,
  });
  assert.equal((await recentIntents(db, "pub_demo", { limit: 5 })).length, 0);
  await log.flush();
  assert.deepEqual((await recentIntents(db, "pub_demo", { limit: 5 })).map((i) => i.prompt), ["p"]);
  await log.close();
});

Deno.test("a graceful shutdown writes the calls still buffered", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    {
      await using folio = await testFolio({ dataDir });
      folio.deps.callLog.record({
        publisherId: "pub_demo",
        at: folio.clock.now(),
        surface: "mcp",
        tool: "_method:initialize",
        userAgent: "ua",
        latencyMs: 1,
        status: "trace",
      });
    }
    const store = await openStore(`file:${dataDir}/folio.db`, { now: new Date() });
    const calls = await recentCalls(store.db, "pub_demo", { limit: 10 });
    store.close();
    assert.equal(calls.length, 1);
    assert.equal(calls[0].status, "trace");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("publisher hosts resolve case-insensitively, ignoring port and trailing dot", async () => {
  await using folio = await testFolio();
  for (
    const host of ["demo.localhost", "DEMO.LocalHost:8080", "demo.localhost.", "demo.localhost.:80"]
  ) {
    const p = await findPublisherByDomain(folio.store.db, host);
    assert.equal(p?.id, "pub_demo", host);
  }
  assert.equal(await findPublisherByDomain(folio.store.db, "other.localhost"), null);
  assert.equal(normaliseHost("[::1]:8080"), "[::1]");
});
