/** The MCP tools over the real decision: outcomes, meter and upsell, buyers, listings, MCP Apps. */
import assert from "node:assert/strict";
import { setArticlePolicy, upsertArticle } from "../store/articles.ts";
import { listLicenseRequests } from "../store/license_requests.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { demoIds, denyTerritory, patchDemo } from "./fixtures/demo.ts";
import { startTestFolio } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Result = any;

function call(client: Awaited<ReturnType<typeof connect>>, name: string, args: object) {
  return client.callTool({ name, arguments: args as Record<string, unknown> }) as Promise<Result>;
}

Deno.test("get_article returns the body, the license block and the ui://article resource", async () => {
  await using folio = await startTestFolio();
  const [id] = await demoIds(folio, "OBSERVE");
  await using client = await connect(folio);
  const r = await call(client, "get_article", { url_or_id: id, last_user_prompt: "tell me" });
  assert.equal(r.isError, undefined);
  assert.equal(r.structuredContent.status, "full");
  assert.ok(r.structuredContent.article.body.length > 100);
  assert.equal(r.structuredContent.license.licensor, "The Demo Ledger");
  assert.match(r.structuredContent.license.requestVia, /request_license/);
  const ui = r.content.find((c: Result) => c.type === "resource");
  assert.equal(ui.resource.uri, `ui://article/${id}`);
  assert.equal(ui.resource.mimeType, "text/html;profile=mcp-app"); // demo has MCP Apps on
  assert.match(ui.resource.text, /ui\/initialize/);
  assert.deepEqual(ui.resource._meta.ui.csp, { connectDomains: [], resourceDomains: [] });
  assert.equal(r._meta, undefined, "the UI link is the tool's, not the result's");
  const { tools } = await client.listTools();
  const get = tools.find((t: Result) => t.name === "get_article");
  assert.equal(get._meta.ui.resourceUri, "ui://folio/article-view");
  await folio.deps.callLog.flush(); // intents are written with the call log's batch
  const intents = await folio.deps.store.db.execute(
    "SELECT prompt, surface FROM reader_intents WHERE publisher_id = 'pub_demo'",
  );
  assert.deepEqual([intents.rows[0].prompt, intents.rows[0].surface], ["tell me", "mcp"]);
});

Deno.test("with MCP Apps off the article resource is plain text/html and no tool advertises it", async () => {
  await using folio = await startTestFolio();
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, mcpApps: false } }));
  const [id] = await demoIds(folio, "OBSERVE");
  await using client = await connect(folio);
  const r = await call(client, "get_article", { url_or_id: id });
  const ui = r.content.find((c: Result) => c.type === "resource");
  assert.equal(ui.resource.mimeType, "text/html");
  assert.doesNotMatch(ui.resource.text, /<script/);
  assert.equal(r._meta, undefined);
  const { tools } = await client.listTools();
  assert.ok(tools.every((t: Result) => t._meta?.ui === undefined));
  const read = await client.readResource({ uri: `ui://article/${id}` }) as Result;
  assert.equal(read.contents[0].mimeType, "text/html");
  assert.equal(read.contents[0]._meta, undefined);
  await assert.rejects(client.readResource({ uri: "ui://folio/article-view" }), /not found/);
  const { resources } = await client.listResources() as Result;
  assert.ok(resources.every((x: Result) => x.uri.startsWith("ui://article/")));
});

Deno.test("resources/read renders user text escaped, with the license block", async () => {
  await using folio = await startTestFolio();
  const { id } = await upsertArticle(folio.deps.store.db, "pub_demo", {
    url: "https://demo.localhost/x",
    title: `<script>alert(1)</script>`,
    author: `"><img src=x onerror=alert(2)>`,
    body: "Para one <b>bold</b>.\n\nPara two.",
    publishedAt: "2026-10-01T00:00:00Z",
  }, { now: folio.clock.now() });
  await using client = await connect(folio);
  const read = await client.readResource({ uri: `ui://article/${id}` }) as Result;
  const html: string = read.contents[0].text;
  assert.ok(!html.includes("<script>alert(1)"));
  assert.ok(!html.includes("<img src=x"));
  assert.match(html, /&lt;script>alert\(1\)/);
  assert.match(html, /&lt;b>bold/);
  assert.match(html, /Licensor/);
  const shell = await client.readResource({ uri: "ui://article/{id}" }) as Result;
  assert.match(shell.contents[0].text, /data-shell="1"/);
  const { resources } = await client.listResources() as Result;
  assert.ok(resources.some((r: Result) => r.uri === `ui://article/${id}`));
});

Deno.test("an anonymous session reads paywalled articles up to the meter, then gets the upsell", async () => {
  await using folio = await startTestFolio();
  const paid = await demoIds(folio, "PAYWALL");
  await using client = await connect(folio);
  for (const id of paid.slice(0, 3)) {
    const r = await call(client, "get_article", { url_or_id: id });
    assert.equal(r.structuredContent.status, "full", id);
  }
  const r = await call(client, "get_article", { url_or_id: paid[3] });
  assert.equal(r.structuredContent.status, "paywall_upsell");
  assert.equal(r.structuredContent.price.usdCents, 2);
  assert.match(r.structuredContent.signup.url, /\/api\/marketplace\/signup$/);
  assert.match(r.structuredContent.subscribe.url, /\/api\/marketplace\/licenses$/);
  assert.equal(r.structuredContent.requestLicense.tool, "request_license");
  assert.equal(r.structuredContent.article.body, undefined);
  assert.match(r.content[0].text, /0\.02 USD per display,/);
  const meter = await folio.deps.store.db.execute(
    "SELECT identity, count FROM meters WHERE publisher_id = 'pub_demo'",
  );
  assert.equal(meter.rows.length, 1);
  assert.match(String(meter.rows[0].identity), /^sess:[0-9a-f]{32}$/);
  assert.equal(Number(meter.rows[0].count), 3);
});

Deno.test("a buyer key as Bearer is charged per read, a re-read included, never metered", async () => {
  await using folio = await startTestFolio();
  const { buyerId, apiKey } = await createBuyer(folio.deps.store.db, {
    name: "Acme AI",
    email: "ops@acme.example",
  }, { now: folio.clock.now() });
  const paid = await demoIds(folio, "PAYWALL");
  await using client = await connect(folio, { headers: { authorization: `Bearer ${apiKey}` } });
  let cents = 0;
  for (const id of paid.slice(0, 5)) {
    const r = await call(client, "get_article", { url_or_id: id });
    assert.equal(r.structuredContent.status, "full");
    assert.ok(r.structuredContent.chargedUsdCents > 0);
    cents += r.structuredContent.chargedUsdCents;
  }
  // A re-read is another read (docs/decisions/billing.md "One billable read"), as on REST.
  const again = await call(client, "get_article", { url_or_id: paid[0] });
  cents += again.structuredContent.chargedUsdCents;
  const charges = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n, SUM(price_micros) AS s FROM charges WHERE buyer_id = ?",
    args: [buyerId],
  });
  assert.equal(Number(charges.rows[0].n), 6);
  assert.equal(Number(charges.rows[0].s), cents * 10_000);
  const meters = await folio.deps.store.db.execute("SELECT COUNT(*) AS n FROM meters");
  assert.equal(Number(meters.rows[0].n), 0);
});

Deno.test("decision outcomes become tool results: limited, denied, blocked, territory", async () => {
  await using folio = await startTestFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const [a, b] = await demoIds(folio, "OBSERVE");
  const db = folio.deps.store.db;
  await setArticlePolicy(db, "pub_demo", b, { policy: "BLOCKED", now: folio.clock.now() });
  await denyTerritory(folio, "FR");
  await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, display: false } }));
  {
    await using client = await connect(folio);
    const limited = await call(client, "get_article", { url_or_id: a });
    assert.equal(limited.isError, undefined);
    assert.equal(limited.structuredContent.status, "license_limited");
    assert.match(limited.content[0].text, /Cite https?:\/\//);
    assert.equal(limited.structuredContent.article.body, undefined);
    const blocked = await call(client, "get_article", { url_or_id: b });
    assert.equal(blocked.isError, true);
    assert.equal(blocked.structuredContent.status, "blocked");
    const missing = await call(client, "get_article", { url_or_id: "art_nope" });
    assert.equal(missing.isError, true);
  }
  {
    await using client = await connect(folio, { headers: { "cf-ipcountry": "FR" } });
    const t = await call(client, "get_article", { url_or_id: a });
    assert.equal(t.isError, true);
    assert.equal(t.structuredContent.status, "territory_blocked");
    const listed = await call(client, "list_recent", { limit: 50 });
    assert.equal(listed.structuredContent.count, 0);
  }
  await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, summarization: false } }));
  await using client = await connect(folio);
  const denied = await call(client, "get_article", { url_or_id: a });
  assert.equal(denied.isError, true);
  assert.equal(denied.structuredContent.status, "license_denied");
  assert.match(denied.content[0].text, /request_license/);
});

Deno.test("list_recent and list_by_topic hide BLOCKED articles and honour since and limit", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const all = await call(client, "list_recent", { limit: 50 });
  assert.equal(all.structuredContent.count, 48);
  const dates = all.structuredContent.results.map((r: Result) => r.publishedAt);
  assert.deepEqual(dates, [...dates].sort().reverse());
  const top = all.structuredContent.results[0];
  await setArticlePolicy(folio.deps.store.db, "pub_demo", top.id, {
    policy: "BLOCKED",
    now: folio.clock.now(),
  });
  const after = await call(client, "list_recent", { limit: 5 });
  assert.equal(after.structuredContent.count, 5);
  assert.ok(after.structuredContent.results.every((r: Result) => r.id !== top.id));
  const since = all.structuredContent.results[10].publishedAt;
  const recent = await call(client, "list_recent", { limit: 50, since });
  assert.ok(recent.structuredContent.count >= 9 && recent.structuredContent.count <= 11);
  const tag = all.structuredContent.results[1].tags[0];
  const topic = await call(client, "list_by_topic", { tag: tag.toUpperCase(), limit: 50 });
  assert.ok(topic.structuredContent.count >= 1);
  assert.ok(topic.structuredContent.results.every((r: Result) => r.tags.includes(tag)));
  assert.ok(topic.structuredContent.results.every((r: Result) => r.id !== top.id));
  await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, rag: false } }));
  const none = await call(client, "list_by_topic", { tag, limit: 5 });
  assert.equal(none.structuredContent.count, 0);
});

Deno.test("search_articles and retrieve_passages answer from the catalog with license blocks", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const s = await call(client, "search_articles", { query: "energy", limit: 3 });
  assert.ok(s.structuredContent.count >= 1 && s.structuredContent.count <= 3);
  assert.ok(["hybrid", "fts", "semantic"].includes(s.structuredContent.mode));
  const p = await call(client, "retrieve_passages", { query: "energy", limit: 2 });
  assert.ok(p.structuredContent.count >= 1);
  assert.equal(p.structuredContent.results[0].license.licensor, "The Demo Ledger");
});

Deno.test("request_license starts the approval workflow and validates its input", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const r = await call(client, "request_license", {
    use_case: "fine_tuning",
    message: "We train a small model for legal research.",
    contact: "legal@acme.example",
  });
  assert.equal(r.structuredContent.state, "pending");
  const rows = await listLicenseRequests(folio.deps.store.db, "pub_demo", {});
  assert.equal(rows.length, 1);
  assert.equal(rows[0].useCase, "fine_tuning");
  assert.match(rows[0].identity, /^sess:/);
  // Bad input is a tool error the model can read (SEP-1303) and records nothing.
  for (
    const [args, field] of [
      [{ use_case: "resale", message: "x" }, "use_case"],
      [{ use_case: "rag" }, "message"],
    ] as const
  ) {
    const bad = await call(client, "request_license", args);
    assert.equal(bad.isError, true);
    assert.match(
      bad.content[0].text,
      new RegExp(`^Invalid arguments for request_license: ${field}: `),
    );
    assert.deepEqual(bad.structuredContent, { status: "invalid_arguments", param: field });
  }
  assert.equal((await listLicenseRequests(folio.deps.store.db, "pub_demo", {})).length, 1);
});

Deno.test("sponsor tools are off by default and appear, working, once the publisher enables them", async () => {
  await using folio = await startTestFolio();
  {
    await using client = await connect(folio);
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t: Result) => t.name === "cite_article"));
    await assert.rejects(call(client, "cite_article", { url_or_id: "x" }));
  }
  await patchDemo(
    folio,
    (p) => ({ ...p, sponsorTools: ["cite_article", "publisher_info", "bogus"] }),
  );
  const [id] = await demoIds(folio, "OBSERVE");
  await using client = await connect(folio);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.slice(7).map((t: Result) => t.name), ["cite_article", "publisher_info"]);
  const cite = await call(client, "cite_article", { url_or_id: id, style: "mla" });
  assert.match(cite.structuredContent.citation, /The Demo Ledger/);
  const info = await call(client, "publisher_info", {});
  assert.equal(info.structuredContent.pricingUsdCents.display, 2);
  const card = await folio.request("/api/publishers/pub_demo/card");
  const body = await card.json();
  assert.ok(body.tools.some((t: Result) => t.name === "publisher_info"));
});

Deno.test("the publisher card is served by id and by slug, without secrets", async () => {
  await using folio = await startTestFolio();
  const byId = await folio.request("/api/publishers/pub_demo/card");
  assert.equal(byId.status, 200);
  const card = await byId.json();
  assert.equal(card.name, "The Demo Ledger");
  assert.equal(card.mcp.endpoint, `${folio.config.baseUrl}/api/mcp/pub_demo`);
  assert.equal(card.auth.required, false);
  assert.equal(card.license.termsUrl, `${folio.config.baseUrl}/license/pub_demo`);
  assert.equal(card.tools.length, 7);
  assert.doesNotMatch(JSON.stringify(card), /pk_|mk_|editors@/);
  const bySlug = await folio.request("/.well-known/mcp.json?slug=demo");
  assert.deepEqual(await bySlug.json(), card);
  const noSlug = await folio.request("/.well-known/mcp.json");
  assert.equal(noSlug.status, 400);
  await noSlug.body?.cancel();
  const unknown = await folio.request("/.well-known/mcp.json?slug=nope");
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  const unknownId = await folio.request("/api/publishers/pub_nope/card");
  assert.equal(unknownId.status, 404);
  await unknownId.body?.cancel();
});

Deno.test("listing and search texts count in the singular for one and the plural otherwise", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const text = async (name: string, args: object) =>
    (await call(client, name, args)).content[0].text as string;
  assert.match(await text("list_recent", { limit: 1 }), /^1 recent article:\n1\. /);
  assert.match(await text("list_recent", { limit: 2 }), /^2 recent articles:\n/);
  const { results: [first] } = (await call(client, "list_recent", { limit: 1 })).structuredContent;
  const tag = first.tags[0];
  assert.match(await text("list_by_topic", { tag, limit: 1 }), /^1 article tagged "[^"]+":\n/);
  const many = await call(client, "list_by_topic", { tag, limit: 50 });
  if (many.structuredContent.count > 1) {
    assert.match(many.content[0].text, /^\d+ articles tagged "[^"]+":\n/);
  }
  assert.equal(
    await text("list_by_topic", { tag: "no-such-tag-anywhere" }),
    'No articles tagged "no-such-tag-anywhere".',
  );
  assert.match(
    await text("search_articles", { query: "energy", limit: 1 }),
    /^1 result for "energy" /,
  );
  assert.match(
    await text("search_articles", { query: "energy", limit: 2 }),
    /^2 results for "energy" /,
  );
});
