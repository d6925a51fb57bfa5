/** The console's reader intents page: the most asked questions and the last 100 intents. */
import assert from "node:assert/strict";
import { IntentsPage } from "../ui/console/intents.tsx";
import { renderPage } from "../ui/layout.tsx";
import { consoleSignUp, textOf } from "./console_helpers.ts";
import {
  demoArticleIds,
  demoVisitor,
  mcpTool,
  restRead,
  signUpBuyer,
} from "./console_activity_helpers.ts";
import { testFolio } from "./helpers.ts";

Deno.test("a new publisher's intents page explains what intents are", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/intents");
  assert.equal(page.status, 200);
  assert.match(textOf(page.html), /No reader intents yet.*last_user_prompt/);
  assert.doesNotMatch(page.html, /<svg class="chart/);
  assert.match(page.html, /aria-current="page">Reader intents</);
});

Deno.test("the intents page charts the most asked questions and lists the last intents", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const [a, b] = await demoArticleIds(folio, "OBSERVE");
  const { apiKey } = await signUpBuyer(folio);
  assert.equal(await restRead(folio, a, { prompt: "are heat pumps worth it?" }), 200);
  assert.equal(await restRead(folio, b, { prompt: "are heat pumps worth it?" }), 200);
  assert.equal(await restRead(folio, a, { prompt: "<b>bold</b> question" }), 200);
  const read = await mcpTool(folio, "get_article", {
    url_or_id: b,
    last_user_prompt: "what do cities do about heat?",
  }, { bearer: apiKey });
  assert.equal((read.structuredContent as { status: string }).status, "full");

  const page = await visitor.get("/publisher/intents");
  assert.equal(page.status, 200);
  const text = textOf(page.html);
  assert.match(
    page.html,
    /<svg class="chart hbars" [^>]*role="img" aria-label="The 3 most asked questions/,
  );
  assert.match(text, /Most asked in the last 30 days/);
  assert.match(text, /are heat pumps worth it\? 2 15 Nov 2026, 12:00/);
  assert.match(text, /The last 4 intents/);
  assert.match(text, /what do cities do about heat\? .*MCP/);
  assert.ok(text.includes(a) && text.includes(b), "the article of each intent is named");
  assert.match(page.html, /&lt;b>bold&lt;\/b> question/, "prompts are escaped");
  assert.doesNotMatch(page.html, /<b>bold<\/b>/);

  const other = await consoleSignUp(folio);
  const theirs = await other.visitor.get("/publisher/intents");
  assert.match(textOf(theirs.html), /No reader intents yet/);
  assert.doesNotMatch(theirs.html, /heat pumps/);
});

Deno.test("intents name who asked when the API says so", () => {
  const html = renderPage(IntentsPage({
    who: { publisherId: "p", slug: "p", name: "P", email: null, csrfToken: "t" },
    intents: [{
      articleId: "art_1",
      prompt: "q",
      surface: "mcp",
      at: "2026-11-15T12:00:00.000Z",
      caller: { kind: "oauth", clientId: "c", clientName: "Claude", email: "r@example.test" },
    }],
    top: [],
    days: 30,
  }));
  const text = textOf(html);
  assert.match(text, /Who asked/);
  assert.match(text, /Claude · r@example\.test/);
  assert.match(text, /No questions in the last 30 days/);
});
