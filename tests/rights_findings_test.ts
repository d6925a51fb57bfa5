/**
 * Issue 29's rights findings, reproduced and fixed through the real HTTP surfaces: an enterprise rag
 * licensee finds what its license block grants; fine_tuning turned on reads the same in the catalog
 * and every license block; a withdrawn display stays with a paid subscriber to the end of the month,
 * is not billed again, cannot be bought anew, and enterprise licensees keep what they were granted
 * (docs/decisions/licensing.md "The rights table").
 */
import assert from "node:assert/strict";
import { rollMonth } from "../server/domain/billing/subscriptions.ts";
import { findArticle, setArticlePolicy } from "../store/articles.ts";
import { insertLicense } from "../store/licenses.ts";
import { insertRule } from "../store/rules.ts";
import { paywalled, read, signup } from "./billing_helpers.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { bearer, sendJson } from "./manage_helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { textOf } from "./console_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function market(folio: TestFolio, key: string, path: string, body?: unknown) {
  return folio.request(`/api/marketplace${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The publisher changes its default rights through the management API, as the console does. */
async function setRights(folio: TestFolio, rights: Record<string, boolean>) {
  const res = await sendJson(
    folio,
    "PATCH",
    "/api/publisher/settings",
    { rights },
    bearer(folio.seeded!.apiKey),
  );
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

/** An enterprise license the publisher approved (as its approval inserts it). */
async function enterprise(folio: TestFolio, buyerId: string, uses: string[]) {
  await insertLicense(folio.store.db, buyerId, {
    id: `lic_ent_${buyerId}`,
    publisherId: "pub_demo",
    kind: "enterprise",
    useCases: uses as never,
    monthlyFeeMicros: 0,
    state: "active",
    now: folio.clock.now(),
  });
}

Deno.test("an enterprise licensee holding rag finds results where the publisher's default rag is off", async () => {
  await using folio = await testFolio();
  await setRights(folio, { rag: false });
  const licensee = await signup(folio, "ent");
  await enterprise(folio, licensee.buyerId, ["rag", "display"]);
  const other = await signup(folio, "other");
  const search = (key: string, path: string) =>
    folio.request(`/api/v1/${path}?query=heat%20pumps`, {
      host: "demo.localhost",
      headers: { authorization: `Bearer ${key}` },
    });
  const found = await json<Json>(await search(licensee.apiKey, "articles/search"));
  assert.ok(found.count > 0, "REST search");
  const passages = await json<Json>(await search(licensee.apiKey, "passages/search"));
  assert.ok(passages.count > 0, "REST passages");
  assert.equal(passages.results[0].license.rights.rag, "granted");
  const mcp = await mcpTool(folio, "search_articles", { query: "heat pumps" }, {
    authorization: `Bearer ${licensee.apiKey}`,
  });
  assert.ok(mcp.structuredContent.count > 0, "MCP search");
  const mcpPassages = await mcpTool(folio, "retrieve_passages", { query: "heat pumps" }, {
    authorization: `Bearer ${licensee.apiKey}`,
  });
  assert.ok(mcpPassages.structuredContent.count > 0, "MCP passages");
  // A buyer without the license finds nothing: rag is not granted to it.
  assert.equal((await json<Json>(await search(other.apiKey, "articles/search"))).count, 0);
  assert.equal((await json<Json>(await search(other.apiKey, "passages/search"))).count, 0);
});

Deno.test("fine_tuning turned on reads granted in the catalog and in every article's license block", async () => {
  await using folio = await testFolio();
  await setRights(folio, { fine_tuning: true });
  const catalog = await json<Json>(await folio.request("/api/marketplace/catalog"));
  const demo = catalog.publishers.find((p: Json) => p.publisherId === "pub_demo");
  assert.equal(demo.rights.fine_tuning, "granted");
  const buyer = await signup(folio);
  const rs = await folio.store.db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy != 'BLOCKED' ORDER BY id",
  );
  for (const row of rs.rows) {
    const r = await read(folio, buyer.apiKey, String(row.id));
    assert.equal(r.body.license?.rights.fine_tuning, "granted", String(row.id));
  }
  // Turned off again, every surface says denied again.
  await setRights(folio, { fine_tuning: false });
  const after = await json<Json>(await folio.request("/api/marketplace/catalog"));
  assert.equal(
    after.publishers.find((p: Json) => p.publisherId === "pub_demo").rights.fine_tuning,
    "denied",
  );
  const r = await read(folio, buyer.apiKey, String(rs.rows[0].id));
  assert.equal(r.body.license.rights.fine_tuning, "denied");
});

Deno.test("display withdrawn: the paid subscriber keeps it to the month's end, unbilled after; no new sales; enterprise keeps it", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  const [id] = await paywalled(folio);
  const subscriber = await signup(folio, "sub");
  const bought = await market(folio, subscriber.apiKey, "/licenses", {
    publisherId: "pub_demo",
    useCases: ["display"],
  });
  assert.equal(bought.status, 201);
  const { licenseId } = await json<Json>(bought);
  const licensee = await signup(folio, "ent");
  await enterprise(folio, licensee.buyerId, ["display"]);
  const plain = await signup(folio, "plain");

  await setRights(folio, { display: false });

  // The month already paid: full display, no per-use charge.
  const paid = await read(folio, subscriber.apiKey, id, "w1");
  assert.equal(paid.status, 200);
  assert.ok(paid.body.article.body);
  assert.equal(paid.body.license.rights.display, "granted");
  assert.equal(paid.headers.get("folio-charged-usd-cents"), null);
  // The subscription ends with the month: the buyer sees when.
  const list = await json<Json>(await market(folio, subscriber.apiKey, "/licenses"));
  const license = list.licenses.find((l: Json) => l.licenseId === licenseId);
  assert.equal(license.state, "active");
  assert.equal(license.cancelsAt, "2026-12-01T00:00:00.000Z");
  // Enterprise: the publisher's own grant stands for its term.
  const ent = await read(folio, licensee.apiKey, id, "e1");
  assert.equal(ent.status, 200);
  assert.ok(ent.body.article.body);
  // Anyone else: summaries only.
  const other = await read(folio, plain.apiKey, id, "p1");
  assert.equal(other.body.status, "license_limited");
  // Display cannot be bought anew, by the subscriber or anyone else; nothing is created.
  for (const key of [subscriber.apiKey, plain.apiKey]) {
    const again = await market(folio, key, "/licenses", {
      publisherId: "pub_demo",
      useCases: ["display"],
    });
    assert.equal(again.status, 400);
    assert.match((await json<Json>(again)).error.message, /does not grant display/);
  }
  const count = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM licenses WHERE buyer_id IN (?, ?)",
    args: [subscriber.buyerId, plain.buyerId],
  });
  assert.equal(Number(count.rows[0].n), 1);

  // Next month: not renewed, not billed; the subscriber falls back to what anyone holds.
  folio.clock.set(new Date("2026-12-01T00:00:01Z"));
  assert.equal(await rollMonth(db, { month: "2026-12", now: folio.clock.now() }), 0);
  const fees = await db.execute({
    sql: "SELECT COUNT(*) AS n FROM charges WHERE buyer_id = ? AND kind = 'subscription'",
    args: [subscriber.buyerId],
  });
  assert.equal(Number(fees.rows[0].n), 1, "November's fee only");
  const december = await read(folio, subscriber.apiKey, id, "d1");
  assert.equal(december.body.status, "license_limited");
  assert.equal(december.body.license.rights.display, "denied");
  const entDecember = await read(folio, licensee.apiKey, id, "e2");
  assert.ok(entDecember.body.article.body, "enterprise keeps display");
});

Deno.test("a change that withdraws nothing leaves subscriptions alone", async () => {
  await using folio = await testFolio();
  const subscriber = await signup(folio, "sub");
  const bought = await json<Json>(
    await market(folio, subscriber.apiKey, "/licenses", {
      publisherId: "pub_demo",
      useCases: ["rag"],
    }),
  );
  await setRights(folio, { display: false, fine_tuning: true });
  const list = await json<Json>(await market(folio, subscriber.apiKey, "/licenses"));
  const license = list.licenses.find((l: Json) => l.licenseId === bought.licenseId);
  assert.equal(license.cancelsAt, null);
});

Deno.test("GET /api/marketplace/rights says what the buyer holds and where from; the portal shows it", async () => {
  await using folio = await testFolio();
  await setRights(folio, { rag: false });
  const portal = await portalSignUp(folio);
  const { buyerId } = await json<Json>(
    await folio.request("/api/marketplace/account", {
      headers: { authorization: `Bearer ${portal.apiKey}` },
    }),
  );
  await enterprise(folio, buyerId, ["rag"]);
  const res = await market(folio, portal.apiKey, "/rights/pub_demo");
  assert.equal(res.status, 200);
  assert.deepEqual(await json<Json>(res), {
    publisherId: "pub_demo",
    rights: {
      summarization: "granted",
      display: "granted",
      rag: "granted",
      fine_tuning: "denied",
    },
    grantedBy: {
      summarization: "default",
      display: "default",
      rag: "license",
      fine_tuning: "none",
    },
    forSale: ["summarization", "display"],
  });
  const page = textOf((await portal.visitor.get("/buyer/catalog/pub_demo")).html);
  assert.match(page, /RAG retrieval no yes, your license/);
  assert.match(page, /Full display yes yes/);
  // Refusals: no key, an unknown publisher.
  const anonymous = await folio.request("/api/marketplace/rights/pub_demo");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const unknown = await market(folio, portal.apiKey, "/rights/pub_nope");
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("an article the publisher blocked stays blocked on every surface whatever policy a rule sets", async () => {
  await using folio = await testFolio();
  const db = folio.store.db;
  const [id] = await paywalled(folio);
  const article = (await findArticle(db, "pub_demo", id))!;
  await setArticlePolicy(db, "pub_demo", id, { policy: "BLOCKED", now: folio.clock.now() });
  await insertRule(db, "pub_demo", {
    id: "rul_open",
    priority: 1,
    match: { path: "/" },
    action: { policy: "OBSERVE" },
    now: folio.clock.now(),
  });
  const buyer = await signup(folio);
  const r = await read(folio, buyer.apiKey, id);
  assert.equal(r.body.status, "blocked");
  const headers = { authorization: `Bearer ${buyer.apiKey}` };
  const q = encodeURIComponent(article.title);
  const found = await json<Json>(
    await folio.request(`/api/v1/articles/search?query=${q}&limit=50`, {
      host: "demo.localhost",
      headers,
    }),
  );
  assert.ok(!found.results.some((h: Json) => h.id === id), "REST search");
  const listed = await mcpTool(folio, "list_recent", { limit: 50 }, headers);
  assert.ok(!listed.structuredContent.results.some((h: Json) => h.id === id), "MCP listing");
  const mcp = await mcpTool(folio, "get_article", { url_or_id: id }, headers);
  assert.equal(mcp.structuredContent.status, "blocked");
});
