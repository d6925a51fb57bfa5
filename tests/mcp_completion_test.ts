/**
 * completion/complete through the SDK client: topics and article ids from the catalog, at most 100
 * values with total and hasMore, and never a value a listing would hide from the caller.
 */
import assert from "node:assert/strict";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { setArticlePolicy, upsertArticle } from "../store/articles.ts";
import { demoIds, denyTerritory } from "./fixtures/demo.ts";
import { startTestFolio } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

const TOPIC = { type: "ref/prompt", name: "research_topic" } as const;
const CITE = { type: "ref/prompt", name: "cite_article" } as const;

Deno.test("topics complete from the catalog's tags, most used first", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const all = await client.complete({ ref: TOPIC, argument: { name: "topic", value: "" } });
  assert.equal(all.completion.values[0], "science", "the most used tag comes first");
  assert.equal(all.completion.total, all.completion.values.length);
  assert.equal(all.completion.hasMore, false);
  const en = await client.complete({ ref: TOPIC, argument: { name: "topic", value: "E" } });
  assert.deepEqual(en.completion.values.toSorted(), ["economy", "education", "energy"]);
  const none = await client.complete({ ref: TOPIC, argument: { name: "topic", value: "%" } });
  assert.deepEqual(none.completion.values, [], "LIKE wildcards match only themselves");
});

Deno.test("article ids complete by id or title prefix, on prompts and the resource template", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const db = folio.deps.store.db;
  const [id] = await demoIds(folio, "OBSERVE");
  const byId = await client.complete({
    ref: CITE,
    argument: { name: "article_id", value: id.slice(0, 6) },
  });
  assert.ok(byId.completion.values.includes(id));
  assert.ok(byId.completion.values.every((v: string) => v.startsWith(id.slice(0, 6))));
  const rows = (await db.execute({
    sql: `SELECT id FROM articles WHERE publisher_id = 'pub_demo'
          AND (title LIKE 'heat%' OR title LIKE '% heat%') ORDER BY published_at DESC, id`,
    args: [],
  })).rows;
  const byTitle = await client.complete({
    ref: { type: "ref/resource", uri: "ui://article/{id}" },
    argument: { name: "id", value: "heat" },
  });
  assert.ok(rows.length >= 2, "words that start with it, not only the title's start");
  assert.deepEqual(byTitle.completion.values, rows.map((r) => String(r.id)));
  // An argument without a completer answers no values.
  const style = await client.complete({ ref: CITE, argument: { name: "style", value: "a" } });
  assert.deepEqual(style.completion, { values: [], total: 0, hasMore: false });
});

Deno.test("completion caps at 100 values and says there are more", async () => {
  await using folio = await startTestFolio();
  const now = folio.clock.now();
  for (let i = 0; i < 120; i++) {
    await upsertArticle(folio.deps.store.db, "pub_demo", {
      url: `https://demo.localhost/bulk/${i}`,
      title: `Bulk note ${i}`,
      body: "Text.",
      tags: [`bulk${String(i).padStart(3, "0")}`],
      publishedAt: now.toISOString(),
    }, { now });
  }
  await using client = await connect(folio);
  const ids = await client.complete({ ref: CITE, argument: { name: "article_id", value: "bulk" } });
  assert.equal(ids.completion.values.length, 100);
  assert.equal(ids.completion.total, 120);
  assert.equal(ids.completion.hasMore, true);
  const tags = await client.complete({ ref: TOPIC, argument: { name: "topic", value: "bulk" } });
  assert.equal(tags.completion.values.length, 100);
  assert.equal(tags.completion.total, 120);
  assert.equal(tags.completion.hasMore, true);
});

Deno.test("completion never names what a listing hides: BLOCKED, territory-denied", async () => {
  await using folio = await startTestFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const db = folio.deps.store.db;
  const now = folio.clock.now();
  const { id: secret } = await upsertArticle(db, "pub_demo", {
    url: "https://demo.localhost/secret-merger",
    title: "Secret merger plans",
    body: "Text.",
    tags: ["mergers"],
  }, { now });
  await using client = await connect(folio);
  const ask = (c = client, value = "merg") =>
    c.complete({ ref: TOPIC, argument: { name: "topic", value } });
  const title = (c = client) =>
    c.complete({ ref: CITE, argument: { name: "article_id", value: "secret" } });
  assert.deepEqual((await ask()).completion.values, ["mergers"]);
  assert.deepEqual((await title()).completion.values, [secret]);

  await setArticlePolicy(db, "pub_demo", secret, { policy: "BLOCKED", now });
  assert.deepEqual((await ask()).completion, { values: [], total: 0, hasMore: false });
  assert.deepEqual((await title()).completion.values, []);

  // A rule may block it too (not only its own policy): the access decision is asked.
  await setArticlePolicy(db, "pub_demo", secret, { policy: "OBSERVE", now });
  await denyTerritory(folio, "FR");
  await using fr = await connect(folio, { headers: { "cf-ipcountry": "FR" } });
  assert.deepEqual((await ask(fr, "")).completion.values, []);
  assert.deepEqual((await title(fr)).completion.values, []);
  assert.deepEqual((await ask()).completion.values, ["mergers"], "others still see it");
  const [id] = await demoIds(folio, "OBSERVE");
  const byId = await fr.complete({ ref: CITE, argument: { name: "article_id", value: id } });
  assert.deepEqual(byId.completion.values, []);
});

Deno.test("completion refuses unknown refs, arguments and bad values with -32602", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const refused = async (params: unknown) => {
    const err = await client.complete(params as never).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof McpError, String(err));
    assert.equal((err as McpError).code, -32602);
    return (err as McpError).message;
  };
  assert.equal(
    await refused({
      ref: { type: "ref/prompt", name: "nope" },
      argument: { name: "x", value: "" },
    }),
    "MCP error -32602: Unknown prompt: nope",
  );
  assert.equal(
    await refused({ ref: TOPIC, argument: { name: "tag", value: "" } }),
    'MCP error -32602: Prompt research_topic has no argument "tag"',
  );
  assert.equal(
    await refused({
      ref: { type: "ref/resource", uri: "ui://x/{y}" },
      argument: { name: "y", value: "" },
    }),
    'MCP error -32602: No resource template has the URI "ui://x/{y}"',
  );
  assert.equal(
    await refused({ ref: TOPIC, argument: { name: "topic", value: "x".repeat(201) } }),
    "MCP error -32602: Invalid completion/complete request: argument.value: must be at most 200 characters",
  );
  assert.match(
    await refused({
      ref: { type: "ref/tool", name: "get_article" },
      argument: { name: "x", value: "" },
    }),
    /^MCP error -32602: Invalid completion\/complete request: ref\.type: must be /,
  );
});
