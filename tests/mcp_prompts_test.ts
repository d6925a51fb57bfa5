/** MCP prompts through the SDK client: listed, worded from the publisher, bad input refused cleanly. */
import assert from "node:assert/strict";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { setArticlePolicy } from "../store/articles.ts";
import { demoIds, denyTerritory, patchDemo } from "./fixtures/demo.ts";
import { startTestFolio } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function textOf(r: Any): string {
  assert.equal(r.messages.length, 1);
  assert.equal(r.messages[0].role, "user");
  return r.messages[0].content.text;
}

async function errorOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  assert.ok(err instanceof McpError, String(err));
  assert.equal((err as McpError).code, -32602);
  return (err as McpError).message;
}

Deno.test("prompts are advertised and listed with their arguments", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const caps = client.getServerCapabilities()!;
  assert.deepEqual(caps.prompts, {});
  assert.deepEqual(caps.completions, {});
  const { prompts } = await client.listPrompts();
  assert.deepEqual(
    prompts.map((
      p: Any,
    ) => [p.name, p.arguments.map((a: Any) => `${a.name}${a.required ? "*" : ""}`)]),
    [
      ["research_topic", ["topic*"]],
      ["cite_article", ["article_id*", "style"]],
      ["summarize_licensed", ["article_id*"]],
    ],
  );
});

Deno.test("research_topic names the publisher, its terms and the tools it offers", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const r = await client.getPrompt({ name: "research_topic", arguments: { topic: "energy" } });
  const text = textOf(r);
  assert.match(text, /^Research "energy" for the user using The Demo Ledger's articles/);
  assert.match(
    text,
    /call list_by_topic with tag "energy" and search_articles with query "energy"/,
  );
  assert.match(text, /get_article .* last_user_prompt/);
  assert.match(text, /request_license/);
  assert.ok(text.includes(`Terms: ${folio.config.baseUrl}/license/pub_demo`), text);
  assert.match(text, /granted uses summarization, display, rag; not granted: fine_tuning/);
  assert.doesNotMatch(text, /cite_article/, "a sponsor tool that is off is not named");

  await patchDemo(folio, (p) => ({
    ...p,
    sponsorTools: ["cite_article"],
    rights: { ...p.rights, rag: false },
  }));
  await using again = await connect(folio);
  const on = textOf(await again.getPrompt({ name: "research_topic", arguments: { topic: "x" } }));
  assert.match(on, /cite_article formats an APA, MLA or Chicago citation/);
  assert.doesNotMatch(on, /retrieve_passages/, "no passages without the rag right");
  assert.match(on, /not granted: rag, fine_tuning/);
});

Deno.test("cite_article and summarize_licensed carry the article's canonical URL and license", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const [id] = await demoIds(folio, "OBSERVE");
  const row = (await folio.deps.store.db.execute({
    sql: "SELECT title, COALESCE(canonical_url, url) AS url FROM articles WHERE id = ?",
    args: [id],
  })).rows[0];
  const cite = textOf(
    await client.getPrompt({ name: "cite_article", arguments: { article_id: id, style: "mla" } }),
  );
  assert.ok(cite.includes(`Canonical URL: ${row.url}`), cite);
  assert.match(cite, /Licensor: The Demo Ledger/);
  assert.match(cite, /License: summarization granted, display granted, rag granted/);
  // MLA 9: Author. “Title.” Site, day Mon. year, URL without its scheme.
  assert.match(cite, /Citation \(MLA\): (.+\. )?“.+[.?!]” The Demo Ledger, .*[^/]\.$/m);
  assert.ok(cite.includes(`${String(row.url).replace(/^https?:\/\//, "")}.`), cite);
  assert.ok(cite.includes(`"Source: ${row.title}, The Demo Ledger, ${row.url}"`), cite);

  const sum = textOf(
    await client.getPrompt({ name: "summarize_licensed", arguments: { article_id: id } }),
  );
  assert.match(sum, /Summarization is granted\. Read it with get_article/);
  await patchDemo(folio, (p) => ({ ...p, rights: { ...p.rights, summarization: false } }));
  const denied = textOf(
    await client.getPrompt({ name: "summarize_licensed", arguments: { article_id: id } }),
  );
  assert.match(denied, /Summarization is not granted for this article: do not summarize it/);
  assert.match(denied, /request_license with use_case "summarization"/);
});

Deno.test("prompts/get refuses bad names and arguments with one clean -32602", async () => {
  await using folio = await startTestFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  await using client = await connect(folio);
  const get = (name: string, args: Record<string, string>) =>
    errorOf(client.getPrompt({ name, arguments: args }));
  assert.equal(
    await get("research_topic", {}),
    "MCP error -32602: Invalid arguments for research_topic: topic: is required",
  );
  assert.equal(
    await get("research_topic", { topic: "x", extra: "1" }),
    "MCP error -32602: Invalid arguments for research_topic: extra: is not a known field",
  );
  assert.equal(
    await get("research_topic", { topic: "t".repeat(101) }),
    "MCP error -32602: Invalid arguments for research_topic: topic: must be at most 100 characters",
  );
  assert.equal(
    await get("cite_article", { article_id: "x", style: "harvard" }),
    "MCP error -32602: Invalid arguments for cite_article: style: must be one of apa, mla, chicago",
  );
  assert.equal(await get("nope", {}), "MCP error -32602: Unknown prompt: nope");
  const unknown = await get("cite_article", { article_id: "a000000000000000" });
  assert.equal(
    unknown,
    'MCP error -32602: No article of The Demo Ledger has the id or URL "a000000000000000"',
  );
  // A hidden article reads exactly like an unknown one: BLOCKED, then territory-denied.
  const [blocked, other] = await demoIds(folio, "OBSERVE");
  await setArticlePolicy(folio.deps.store.db, "pub_demo", blocked, {
    policy: "BLOCKED",
    now: folio.clock.now(),
  });
  assert.equal(
    await get("cite_article", { article_id: blocked }),
    unknown.replace("a000000000000000", blocked),
  );
  await denyTerritory(folio, "FR");
  await using fr = await connect(folio, { headers: { "cf-ipcountry": "FR" } });
  assert.equal(
    await errorOf(fr.getPrompt({ name: "summarize_licensed", arguments: { article_id: other } })),
    unknown.replace("a000000000000000", other),
  );
  // Arguments that are not strings fail our check (-32602), not the SDK's parse (-32603).
  assert.match(
    await errorOf(client.request(
      { method: "prompts/get", params: { name: 5 } as never },
      (await import("zod")).z.looseObject({}),
    )),
    /^MCP error -32602: Invalid prompts\/get request: name: must be a string$/,
  );
});
