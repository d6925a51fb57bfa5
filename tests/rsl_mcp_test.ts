/**
 * RSL's Crawler Authorization Protocol on MCP (issue 40; docs/decisions/rsl.md): a crawler that
 * acquired a license token from the license server named in license.xml reads the page it names
 * with the MCP SDK's client, `Authorization: License <token>` on every request. The read is billed
 * like any other: one charge at the page's price, its signed receipt in the tool result, the item
 * on the buyer's list and the call in the publisher's call log.
 */
import assert from "node:assert/strict";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { DOMParser } from "linkedom";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { json, startTestFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";
import { callLogRows, connect } from "./mcp_helpers.ts";

Deno.test("MCP: a licensed get_article with Authorization: License is read and billed once", async () => {
  await using folio = await startTestFolio();
  const db = folio.deps.store.db;
  const { apiKey, buyerId } = await createBuyer(db, {
    name: "Licensed Agent Co",
    email: "rsl-mcp@example.test",
  }, { now: folio.clock.now() });
  const auth = { authorization: `Bearer ${apiKey}` };
  const issued = await folio.request("/api/marketplace/olp-client", {
    method: "POST",
    headers: auth,
  });
  assert.equal(issued.status, 201);
  const client = await json<{ clientId: string; clientSecret: string }>(issued);

  // The page, the <content> of license.xml that covers it, its license and its server.
  const row = (await db.execute(
    `SELECT id, site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
       AND kind = 'article' ORDER BY id LIMIT 1`,
  )).rows[0];
  const [articleId, path] = [String(row.id), String(row.site_path)];
  const xml = await (await folio.request("/license.xml", {
    host: HOST,
    headers: { "user-agent": GPTBOT },
  })).text();
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const content = [...doc.getElementsByTagName("content")]
    .map((c) => ({ c, prefix: new URL(c.getAttribute("url")!).pathname.replace(/\$$/, "") }))
    .filter(({ prefix }) => path.startsWith(prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0].c;
  const server = content.getAttribute("server")!;
  const license = [...content.getElementsByTagName("license")].find((l) =>
    [...l.getElementsByTagName("payment")].some((p) => p.getAttribute("type") === "crawl")
  )!;
  const resource = `http://${HOST}:${new URL(folio.url).port}${path}`;
  const tokenRes = await fetch(`${server}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "rsl", resource, license: license.toString() }),
  });
  const token = await tokenRes.json();
  assert.equal(tokenRes.status, 200, JSON.stringify(token));

  // The MCP SDK's client, the license token on every request it sends.
  await using mcp = await connect(folio, {
    headers: { authorization: `License ${token.access_token}` },
  });
  const result = await mcp.callTool({ name: "get_article", arguments: { url_or_id: articleId } });
  assert.ok(!result.isError, JSON.stringify(result).slice(0, 400));
  const sc = result.structuredContent as {
    status: string;
    chargedUsdCents: number;
    chargeId: string;
    receipt: string;
  };
  assert.equal(sc.status, "full");

  // Billed like any read: one charge at the page's price plus the fee, to the token's buyer.
  const charges = (await db.execute({
    sql: `SELECT id, price_micros + fee_micros AS micros, surface FROM charges WHERE buyer_id = ?`,
    args: [buyerId],
  })).rows.map((r) => ({ id: String(r.id), micros: Number(r.micros), surface: String(r.surface) }));
  assert.equal(charges.length, 1);
  assert.equal(charges[0].id, sc.chargeId);
  assert.equal(charges[0].surface, "mcp");
  const jwks = await json<JSONWebKeySet>(await folio.request("/.well-known/jwks.json"));
  const { payload } = await jwtVerify(sc.receipt, createLocalJWKSet(jwks));
  const item = (payload as { charge: { id: string; amountUsdMicros: number } }).charge;
  assert.deepEqual([item.id, item.amountUsdMicros], [charges[0].id, charges[0].micros]);
  assert.equal(sc.chargedUsdCents, Math.round(charges[0].micros / 10_000));

  // On the buyer's items, and in the publisher's call log under the buyer.
  const items = await json<{ items: { id: string; amountUsdMicros: number }[] }>(
    await folio.request("/api/marketplace/items", { headers: auth }),
  );
  assert.deepEqual(items.items.map((i) => [i.id, i.amountUsdMicros]), [[
    charges[0].id,
    charges[0].micros,
  ]]);
  const calls = await callLogRows(folio);
  assert.ok(
    calls.some((c) => c.tool === "get_article" && c.identity === `buyer:${buyerId}`),
    JSON.stringify(calls),
  );
});
