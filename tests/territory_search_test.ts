/**
 * Territory-withheld search (issue 29 item 7): when a territory rule withholds everything the query
 * could reach, search answers territory_blocked (docs/SPEC.md "Errors": 451) on REST, as a tool
 * error on MCP and as a rejected task on A2A; when it withholds only some hits, the answer says how
 * many. An agent can tell either from "no matches".
 */
import assert from "node:assert/strict";
import { message, post, stateOf, statusData, taskOf } from "../server/surfaces/a2a/_test_utils.ts";
import { findArticle } from "../store/articles.ts";
import { insertRule } from "../store/rules.ts";
import { denyTerritory } from "./fixtures/demo.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";
import { mcpTool } from "./mcp_helpers.ts";

const QUERY = "heat pumps";

/** The same search on the three agent surfaces, from `country`. */
async function searchEverywhere(folio: TestFolio, country: string, query = QUERY) {
  const headers = { "cf-ipcountry": country };
  const q = encodeURIComponent(query);
  const rest = await folio.request(`/api/v1/articles/search?query=${q}&limit=50`, {
    host: "demo.localhost",
    headers,
  });
  const restBody = await json<Record<string, unknown>>(rest);
  const mcp = await mcpTool(folio, "search_articles", { query, limit: 50 }, headers);
  const a2a = await post(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: {
        message: message("1.0", { data: { skill: "search_articles", query, limit: 50 } }),
      },
    }),
    { headers },
  );
  const task = taskOf(a2a.body.result);
  const artifact = task.artifacts?.[0]?.parts?.find((p: { data?: unknown }) => p.data)?.data;
  return {
    rest: { status: rest.status, body: restBody },
    mcp,
    a2a: { state: stateOf(a2a.body.result), data: statusData(a2a.body.result), artifact, task },
  };
}

function territoryFolio() {
  return testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
}

Deno.test("a territory rule withholding the whole catalog: 451 on REST, a tool error on MCP, rejected on A2A", async () => {
  await using folio = await territoryFolio();
  await denyTerritory(folio, "FR");
  // Any query, even one matching nothing: everything it could reach is withheld.
  for (const query of [QUERY, "zzqxv"]) {
    const got = await searchEverywhere(folio, "FR", query);
    assert.equal(got.rest.status, 451, query);
    assert.equal(got.rest.body.status, "territory_blocked");
    assert.match(String(got.rest.body.message), /exclude your region for every article/);
    assert.equal(got.mcp.isError, true);
    assert.equal(got.mcp.structuredContent.status, "territory_blocked");
    assert.equal(got.mcp.content[0].text, got.rest.body.message);
    assert.equal(got.a2a.state, "rejected");
    assert.equal(got.a2a.data.status, "territory_blocked");
    assert.equal(got.a2a.task.status.message.parts[0].text, got.rest.body.message);
  }
  // Passages are a search too: the same answer on REST and MCP.
  const passages = await folio.request(`/api/v1/passages/search?query=heat%20pumps`, {
    host: "demo.localhost",
    headers: { "cf-ipcountry": "FR" },
  });
  assert.equal(passages.status, 451);
  assert.equal((await json(passages)).status, "territory_blocked");
  const mcpPassages = await mcpTool(folio, "retrieve_passages", { query: QUERY }, {
    "cf-ipcountry": "FR",
  });
  assert.equal(mcpPassages.isError, true);
  assert.equal(mcpPassages.structuredContent.status, "territory_blocked");
  // A2A 0.3 clients (no A2A-Version header) get the same rejected task in their wire form.
  const v03 = await post(
    folio,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: { message: message("0.3", { text: QUERY }) },
    }),
    { headers: { "cf-ipcountry": "FR" } },
  );
  assert.equal(stateOf(v03.body.result), "rejected");
  assert.equal(statusData(v03.body.result).status, "territory_blocked");
  // Another region searches as before, with nothing withheld.
  const de = await searchEverywhere(folio, "DE");
  assert.equal(de.rest.status, 200);
  assert.ok((de.rest.body.count as number) > 0);
  assert.equal("withheld" in de.rest.body, false);
  assert.equal(de.mcp.isError, undefined);
  assert.equal(de.mcp.structuredContent.withheld, undefined);
  assert.equal(de.a2a.state, "completed");
  assert.equal(de.a2a.data.withheld, undefined);
});

/** Denies `country` the articles at the paths of `ids` (one rule per path, as a publisher would). */
async function denyPaths(folio: TestFolio, country: string, ids: string[]) {
  for (const [i, id] of ids.entries()) {
    const a = (await findArticle(folio.store.db, "pub_demo", id))!;
    await insertRule(folio.store.db, "pub_demo", {
      id: `rul_path_${i}`,
      priority: 5,
      match: { path: new URL(a.url).pathname, territories: [country] },
      action: { deny: true },
      now: folio.clock.now(),
    });
  }
}

Deno.test("some hits withheld: every surface answers the rest and counts the withheld", async () => {
  await using folio = await territoryFolio();
  const before = await searchEverywhere(folio, "FR");
  const ids = (before.rest.body.results as { id: string }[]).map((r) => r.id);
  assert.ok(ids.length >= 2, "the query needs two hits");
  await denyPaths(folio, "FR", ids.slice(0, 1));
  const got = await searchEverywhere(folio, "FR");
  assert.equal(got.rest.status, 200);
  assert.equal(got.rest.body.withheld, 1);
  assert.equal(got.rest.body.count, ids.length - 1);
  assert.ok(!(got.rest.body.results as { id: string }[]).some((r) => r.id === ids[0]));
  assert.equal(got.mcp.isError, undefined);
  assert.equal(got.mcp.structuredContent.withheld, 1);
  assert.equal(got.mcp.structuredContent.count, ids.length - 1);
  assert.match(got.mcp.content[0].text, /1 result withheld/);
  assert.equal(got.a2a.state, "completed");
  assert.equal(got.a2a.data.withheld, 1);
  assert.equal(got.a2a.artifact.withheld, 1);
  assert.equal(got.a2a.artifact.count, ids.length - 1);
  // The region the rule does not name sees every hit and nothing withheld.
  const de = await searchEverywhere(folio, "DE");
  assert.equal(de.rest.body.count, ids.length);
  assert.equal(de.rest.body.withheld, undefined);
});

Deno.test("every hit of a query withheld, though not the whole catalog: 451 on the three surfaces", async () => {
  await using folio = await territoryFolio();
  const before = await searchEverywhere(folio, "FR");
  const ids = (before.rest.body.results as { id: string }[]).map((r) => r.id);
  await denyPaths(folio, "FR", ids);
  const got = await searchEverywhere(folio, "FR");
  assert.equal(got.rest.status, 451);
  assert.equal(got.rest.body.status, "territory_blocked");
  assert.equal(got.mcp.structuredContent.status, "territory_blocked");
  assert.equal(got.a2a.data.status, "territory_blocked");
  // A query that reaches nothing is "no matches", not withheld: only a query whose hits are all
  // withheld is refused.
  const other = await searchEverywhere(folio, "FR", "zzqxv");
  assert.equal(other.rest.status, 200);
  assert.equal(other.rest.body.count, 0);
  assert.equal(other.mcp.isError, undefined);
  assert.equal(other.a2a.state, "completed");
});
