/**
 * docs/SPEC.md "Agent payments": per-article price overrides take precedence over rule and default
 * prices. The price is decided in one place (server/domain/licensing/decide.ts `termsOf`), so REST, MCP,
 * A2A and the management API quote and charge the same amount.
 */
import assert from "node:assert/strict";
import { rpc, stateOf } from "../server/surfaces/a2a/_test_utils.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { demoIds } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;

/** A PAYWALL demo article with a 3¢ override, under a rule pricing /articles/ at 7¢ right now. */
async function overriddenUnderRule(folio: TestFolio): Promise<string> {
  const key = bearer(folio.seeded!.apiKey);
  const [id] = await demoIds(folio, "PAYWALL");
  const patch = await sendJson(folio, "PATCH", `/api/publisher/articles/${id}`, {
    priceUsdCents: 3,
  }, key);
  assert.equal(patch.status, 200);
  await patch.body?.cancel();
  const now = folio.clock.now().getTime();
  const rule = await sendJson(folio, "POST", "/api/publisher/rules", {
    priority: 1,
    name: "Launch week",
    match: { path: "/articles/" },
    action: {
      priceUsdCents: 7,
      window: {
        start: new Date(now - 86_400_000).toISOString(),
        end: new Date(now + 86_400_000).toISOString(),
      },
    },
  }, key);
  assert.equal(rule.status, 201);
  await rule.body?.cancel();
  return id;
}

Deno.test("an article's price override beats a rule price inside its window on every surface", async () => {
  await using folio = await testFolio();
  const id = await overriddenUnderRule(folio);
  const { apiKey, buyerId } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const buyer = { authorization: `Bearer ${apiKey}` };

  const rest = await folio.request(`/api/v1/articles/${id}?last_user_prompt=price`, {
    host: "demo.localhost",
    headers: buyer,
  });
  assert.equal(rest.status, 200);
  assert.equal(rest.headers.get("folio-charged-usd-cents"), "3");
  assert.equal((await json<Body>(rest)).license.pricingUsdCents.display, 3);

  const mcp = await mcpTool(folio, "get_article", { url_or_id: id }, buyer);
  assert.equal(mcp.structuredContent.license.pricingUsdCents.display, 3);

  const msg = {
    messageId: crypto.randomUUID(),
    role: "ROLE_USER",
    parts: [{ data: { skill: "get_article", url_or_id: id } }],
  };
  const a2a = await rpc(folio, "SendMessage", { message: msg }, { auth: buyer.authorization });
  assert.equal(stateOf(a2a.body.result), "completed");

  const charges = await folio.store.db.execute({
    sql: "SELECT surface, price_micros FROM charges WHERE buyer_id = ? ORDER BY surface",
    args: [buyerId],
  });
  assert.deepEqual(charges.rows.map((r) => [r.surface, Number(r.price_micros)]), [
    ["a2a", 30_000],
    ["mcp", 30_000],
    ["rest", 30_000],
  ]);

  const list = await json<Body>(
    await folio.request("/api/publisher/articles?limit=200", {
      headers: bearer(folio.seeded!.apiKey),
    }),
  );
  const listed = list.articles.find((a: Body) => a.id === id);
  assert.deepEqual(listed.effective, {
    policy: "PAYWALL",
    priceUsdCents: 3,
    decidedBy: { kind: "article" },
  });
});

Deno.test("without an override the rule's price inside its window is charged", async () => {
  await using folio = await testFolio();
  const id = await overriddenUnderRule(folio);
  const key = bearer(folio.seeded!.apiKey);
  const clear = await sendJson(folio, "PATCH", `/api/publisher/articles/${id}`, {
    priceUsdCents: null,
  }, key);
  assert.equal(clear.status, 200);
  const { article } = await json<Body>(clear);
  assert.equal(article.priceUsdCents, null);
  assert.equal(article.effective.priceUsdCents, 7);
  assert.equal(article.effective.decidedBy.kind, "rule");
  assert.equal(article.effective.decidedBy.ruleName, "Launch week");
  const { apiKey } = await createBuyer(folio.store.db, { name: "B", email: "b@b.test" }, {
    now: folio.clock.now(),
  });
  const rest = await folio.request(`/api/v1/articles/${id}?last_user_prompt=price`, {
    host: "demo.localhost",
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(rest.headers.get("folio-charged-usd-cents"), "7");
  await rest.body?.cancel();
});
