/**
 * The article UI against the MCP Apps specification (SEP-1865, ext-apps 2026-01-26): the tool names
 * one concrete `ui://` resource that exists, is listed and is read as `text/html;profile=mcp-app`
 * with its `_meta.ui` (CSP, border), and whose bridge speaks the spec's lifecycle.
 */
import assert from "node:assert/strict";
import { startTestFolio } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const MIME = "text/html;profile=mcp-app";
const UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

Deno.test("get_article names a predeclared ui:// view, listed and read as an MCP App", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const { tools } = await client.listTools();
  const get = tools.find((t: Any) => t.name === "get_article")!;
  const uri = (get._meta as Any).ui.resourceUri;
  assert.match(uri, /^ui:\/\/[^{}]+$/, "a concrete ui:// URI, not a template");
  // The deprecated flat key, for older hosts, names the same view; no other host's key is sent.
  assert.deepEqual(get._meta, { ui: { resourceUri: uri }, "ui/resourceUri": uri });
  assert.ok(tools.filter((t: Any) => t.name !== "get_article").every((t: Any) => !t._meta));

  const { resources } = await client.listResources() as Any;
  assert.deepEqual(resources[0], {
    uri,
    name: "article-view",
    title: "The Demo Ledger article view",
    description: "Shows the article get_article returns, with its license block",
    mimeType: MIME,
    _meta: UI_META,
  });
  assert.ok(resources.slice(1).every((r: Any) => r.mimeType === MIME));

  const read = await client.readResource({ uri }) as Any;
  assert.equal(read.contents.length, 1);
  const [item] = read.contents;
  assert.equal(item.uri, uri);
  assert.equal(item.mimeType, MIME);
  assert.deepEqual(item._meta, UI_META);
  const html: string = item.text;
  assert.match(html, /^<!doctype html><html lang="en">/);
  // Nothing from another origin: the declared CSP (no domains) must hold.
  assert.doesNotMatch(html, /<script[^>]+src=|<link|<img|<iframe|@import|url\(/i);
  assert.match(html, /data-shell="1"/);
});

Deno.test("the view's bridge follows the ui/ lifecycle and answers the host's requests", async () => {
  await using folio = await startTestFolio();
  await using client = await connect(folio);
  const read = await client.readResource({ uri: "ui://folio/article-view" }) as Any;
  const html: string = read.contents[0].text;
  assert.match(html, /request\("ui\/initialize", \{\s*appInfo: \{ name: "folio-article"/);
  assert.match(html, /appCapabilities: \{ availableDisplayModes: \["inline"\] \}/);
  assert.match(html, /protocolVersion: "2026-01-26"/);
  assert.match(html, /notify\("ui\/notifications\/initialized", \{\}\)/);
  assert.match(html, /"ui\/notifications\/tool-result"/);
  assert.match(html, /"ui\/notifications\/size-changed"/);
  assert.match(html, /m\.method === "ui\/resource-teardown"/);
  assert.match(html, /request\("ui\/open-link", \{ url: link\.href \}\)/);
  assert.doesNotMatch(html, /innerHTML/, "the shell fills itself with textContent only");

  // The tool result carries what the view renders: structuredContent, and text for the model.
  const { tools } = await client.listTools();
  assert.ok(tools.length > 0);
  const r = await client.callTool({
    name: "list_recent",
    arguments: { limit: 1 },
  }) as Any;
  const id = r.structuredContent.results[0].id;
  const got = await client.callTool({ name: "get_article", arguments: { url_or_id: id } }) as Any;
  assert.equal(got.content[0].type, "text");
  assert.equal(got.structuredContent.article.id, id);
  assert.ok(got.structuredContent.license);
});
