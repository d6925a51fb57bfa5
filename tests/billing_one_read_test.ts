/**
 * One billable read on every surface (docs/decisions/billing.md "One billable read"): the same
 * sequence of reads by a buyer costs the same on REST, MCP, A2A and the landing path. Every read
 * is billed; a retry with the same idempotency key is the same read (billed once); a key reused for
 * another read is refused and changes nothing; a malformed key is refused before any read.
 */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { formatCrawlerPrice } from "../server/surfaces/landing/crawler_price.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";
import { message, rpc, stateOf } from "../server/surfaces/a2a/_test_utils.ts";
import { initialize, post } from "./mcp_helpers.ts";

type Surface = "rest" | "mcp" | "a2a" | "landing";
/** What a read came to: served (and what the surface said it cost), refused, or malformed key. */
type Outcome = "served" | "conflict" | "bad_key";

interface Article {
  id: string;
  path: string;
}

async function paywalledArticles(folio: TestFolio): Promise<Article[]> {
  const rs = await folio.deps.store.db.execute(
    `SELECT id, site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
     AND kind = 'article' AND price_micros IS NULL ORDER BY id LIMIT 2`,
  );
  return rs.rows.map((r) => ({ id: String(r.id), path: String(r.site_path) }));
}

/** A reader on one surface for one buyer key. */
async function readerOn(folio: TestFolio, surface: Surface, apiKey: string) {
  const auth = `Bearer ${apiKey}`;
  if (surface === "rest") {
    return async (a: Article, key?: string): Promise<Outcome> => {
      const res = await folio.request(`/api/v1/articles/${a.id}?last_user_prompt=q`, {
        host: HOST,
        headers: { authorization: auth, ...(key ? { "idempotency-key": key } : {}) },
      });
      const body = await res.json();
      if (res.status === 409) return "conflict";
      if (res.status === 400 && body.status === "invalid_idempotency_key") return "bad_key";
      assert.equal(res.status, 200, JSON.stringify(body));
      return "served";
    };
  }
  if (surface === "landing") {
    return async (a: Article, key?: string): Promise<Outcome> => {
      const res = await folio.request(a.path, {
        host: HOST,
        headers: {
          authorization: auth,
          "user-agent": GPTBOT,
          "crawler-max-price": formatCrawlerPrice(10_000_000),
          ...(key ? { "idempotency-key": key } : {}),
        },
      });
      await res.body?.cancel();
      if (res.status === 409) return "conflict";
      if (res.status === 400) return "bad_key";
      assert.equal(res.status, 200);
      assert.ok(res.headers.get("crawler-charged"));
      return "served";
    };
  }
  if (surface === "a2a") {
    return async (a: Article, key?: string): Promise<Outcome> => {
      const msg = message("1.0", { data: { skill: "get_article", url_or_id: a.id } });
      const r = await rpc(folio, "SendMessage", { message: msg }, {
        auth,
        ...(key ? { headers: { "idempotency-key": key } } : {}),
      });
      if (r.body.error) {
        return /idempotency|Idempotency-Key/.test(r.body.error.message) &&
            /visible ASCII/.test(r.body.error.message)
          ? "bad_key"
          : "conflict";
      }
      const state = stateOf(r.body.result);
      if (state === "failed") {
        // deno-lint-ignore no-explicit-any
        const parts: any[] = r.body.result.task.status.message.parts;
        assert.equal(parts.find((p) => p.data)?.data.status, "idempotency_key_reused");
        return "conflict";
      }
      assert.equal(state, "completed", JSON.stringify(r.body));
      return "served";
    };
  }
  const { sessionId } = await initialize(folio, { headers: { authorization: auth } });
  let n = 0;
  return async (a: Article, key?: string): Promise<Outcome> => {
    // Every other keyed call sends its key in _meta, the others in the header: both are keys.
    const viaMeta = key !== undefined && n % 2 === 0;
    const res = await post(folio, {
      jsonrpc: "2.0",
      id: ++n,
      method: "tools/call",
      params: {
        name: "get_article",
        arguments: { url_or_id: a.id },
        ...(viaMeta ? { _meta: { "folio/idempotencyKey": key } } : {}),
      },
    }, {
      sessionId,
      headers: {
        authorization: auth,
        "mcp-protocol-version": "2025-06-18",
        ...(key && !viaMeta ? { "idempotency-key": key } : {}),
      },
    });
    const body = await res.json();
    if (body.error) return /visible ASCII/.test(body.error.message) ? "bad_key" : "conflict";
    if (body.result.isError) return "conflict";
    assert.equal(body.result.structuredContent.status, "full", JSON.stringify(body));
    return "served";
  };
}

Deno.test("the same reads cost the same on REST, MCP, A2A and the landing path", async () => {
  await using folio = await testFolio();
  const [x, y] = await paywalledArticles(folio);
  const db = folio.deps.store.db;
  const results: Record<string, { outcomes: Outcome[]; rows: number; perRead: Set<number> }> = {};
  for (const surface of ["rest", "mcp", "a2a", "landing"] as const) {
    const { buyerId, apiKey } = await createBuyer(db, {
      name: `Buyer ${surface}`,
      email: `${surface}@one-read.test`,
    }, { now: folio.clock.now() });
    const read = await readerOn(folio, surface, apiKey);
    const outcomes = [
      await read(x), // a read
      await read(x), // the same article again: another read, billed again
      await read(x, "k-1"), // a keyed read
      await read(x, "k-1"), // its retry: the same read, not billed again
      await read(y, "k-1"), // the key reused for another article: refused
      await read(x, "k 2"), // a malformed key: refused before any read
      await read(y, "k-2"), // a new key: a new read
    ];
    const rs = await db.execute({
      sql: `SELECT price_micros + fee_micros AS t, surface FROM charges WHERE buyer_id = ?`,
      args: [buyerId],
    });
    assert.ok(rs.rows.every((r) => r.surface === surface));
    results[surface] = {
      outcomes,
      rows: rs.rows.length,
      perRead: new Set(rs.rows.map((r) => Number(r.t))),
    };
  }
  for (const [surface, r] of Object.entries(results)) {
    assert.deepEqual(
      r.outcomes,
      ["served", "served", "served", "served", "conflict", "bad_key", "served"],
      surface,
    );
    assert.equal(r.rows, 4, `${surface}: four billable reads`);
    assert.equal(r.perRead.size, 1, `${surface}: one price for the one use`);
  }
  // The agent surfaces bill the publisher's price; the landing path adds the 4.7% fee (SPEC).
  const [rest] = results.rest.perRead;
  assert.deepEqual(results.mcp.perRead, new Set([rest]));
  assert.deepEqual(results.a2a.perRead, new Set([rest]));
  const [landing] = results.landing.perRead;
  assert.equal(landing, rest + Math.round(rest * 0.047));
});

Deno.test("an A2A message resent with its messageId is one read; a new messageId is another", async () => {
  await using folio = await testFolio();
  const [x] = await paywalledArticles(folio);
  const { buyerId, apiKey } = await createBuyer(folio.deps.store.db, {
    name: "Resender",
    email: "resend@one-read.test",
  }, { now: folio.clock.now() });
  const auth = `Bearer ${apiKey}`;
  const msg = message("1.0", { data: { skill: "get_article", url_or_id: x.id } });
  for (const m of [msg, msg, message("1.0", { data: { skill: "get_article", url_or_id: x.id } })]) {
    const r = await rpc(folio, "SendMessage", { message: m }, { auth });
    assert.equal(stateOf(r.body.result), "completed");
  }
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(rs.rows[0].n), 2);
});
