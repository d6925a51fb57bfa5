/** The console's settings forms: each part is a PATCH of the settings API, with its problems shown. */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, hidden, textOf } from "./console_helpers.ts";

async function settingsOf(folio: Awaited<ReturnType<typeof testFolio>>, apiKey: string) {
  const res = await folio.request("/api/publisher/settings", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return await res.json();
}

Deno.test("profile and branding save through the API and show in the preview", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const saved = await visitor.post("/publisher/settings/profile", {
    _csrf: hidden(page.html),
    name: "Harbor Gazette",
    description: "News from the harbor.\nDaily.",
    "branding.logoUrl": "https://cdn.example.com/logo.png",
    "branding.primaryColor": "#0f766e",
    "branding.font": "Georgia, serif",
  });
  assert.equal(saved.status, 200);
  assert.match(textOf(saved.html), /Profile and branding saved/);
  assert.match(saved.html, /--accent:#0f766e/);
  const s = await settingsOf(folio, apiKey);
  assert.equal(s.name, "Harbor Gazette");
  assert.equal(s.description, "News from the harbor.\nDaily.");
  assert.deepEqual(s.branding, {
    logoUrl: "https://cdn.example.com/logo.png",
    primaryColor: "#0f766e",
    font: "Georgia, serif",
  });
});

Deno.test("a refused part shows the API's problem beside the typed values and changes nothing", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const before = await settingsOf(folio, apiKey);
  const page = await visitor.get("/publisher/settings");
  const refused = await visitor.post("/publisher/settings/profile", {
    _csrf: hidden(page.html),
    name: "Renamed",
    description: "",
    "branding.logoUrl": "",
    "branding.primaryColor": "teal<script>",
    "branding.font": "",
  });
  assert.equal(refused.status, 400);
  // Beside the field, under its label, and announced with it (issue 34).
  assert.match(textOf(refused.html), /Primary colour: must be a hex color/);
  assert.doesNotMatch(textOf(refused.html), /branding\.primaryColor/);
  assert.match(
    refused.html,
    /aria-invalid="true" aria-describedby="branding-primaryColor-error color-hint"[^>]*name="branding.primaryColor"/,
  );
  assert.match(refused.html, /<p class="problem field-error" id="branding-primaryColor-error"/);
  assert.match(refused.html, /value="teal&lt;script>"/, "typed value kept, escaped");
  assert.doesNotMatch(refused.html, /teal<script>/);
  assert.deepEqual(await settingsOf(folio, apiKey), before);
});

Deno.test("toggles, rights and prices in dollars reach the API as booleans and cents", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const csrf = hidden(page.html);
  await visitor.post("/publisher/settings/toggles", {
    _csrf: csrf,
    "toggles.a2a": "on",
    "toggles.requireAuth": "on",
  });
  await visitor.post("/publisher/settings/license", {
    _csrf: csrf,
    "rights.summarization": "on",
    "rights.rag": "on",
    "pricingUsd.display": "0.05",
    "pricingUsd.summarization": "0.002",
    "pricingUsd.rag": "0.0005",
  });
  const s = await settingsOf(folio, apiKey);
  assert.deepEqual(s.toggles, {
    publicRest: false,
    a2a: true,
    mcpApps: false,
    requireAuth: true,
    consentScreen: false,
    subscriptionLinking: false,
  });
  assert.deepEqual(s.rights, {
    summarization: true,
    display: false,
    rag: true,
    fine_tuning: false,
  });
  assert.deepEqual(s.pricingUsdCents, { display: 5, summarization: 0.2, rag: 0.05 });
  const bad = await visitor.post("/publisher/settings/license", {
    _csrf: csrf,
    "pricingUsd.display": "-1",
  });
  assert.equal(bad.status, 400);
  assert.match(textOf(bad.html), /Price per display read \(USD\): must be at least \$0\.00/);
  assert.doesNotMatch(textOf(bad.html), /pricingUsdCents/);
  assert.equal((await settingsOf(folio, apiKey)).pricingUsdCents.display, 5);
});

Deno.test("sponsor tools can be switched on and all off; enterprise terms saved and withdrawn", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const csrf = hidden((await visitor.get("/publisher/settings")).html);
  await visitor.post("/publisher/settings/sponsor", {
    _csrf: csrf,
    sponsorTools: ["cite_article", ""],
  });
  assert.deepEqual((await settingsOf(folio, apiKey)).sponsorTools, ["cite_article"]);
  await visitor.post("/publisher/settings/sponsor", { _csrf: csrf, sponsorTools: "" });
  assert.deepEqual((await settingsOf(folio, apiKey)).sponsorTools, []);
  await visitor.post("/publisher/settings/enterprise", {
    _csrf: csrf,
    "enterprise.useCases": ["rag", "fine_tuning"],
    "enterprise.monthlyPriceUsd": "2500",
    "enterprise.conditions": "Attribution required.",
    "enterprise.action": "save",
  });
  assert.deepEqual((await settingsOf(folio, apiKey)).enterpriseTerms, {
    useCases: ["rag", "fine_tuning"],
    monthlyPriceUsdCents: 250000,
    conditions: "Attribution required.",
  });
  await visitor.post("/publisher/settings/enterprise", {
    _csrf: csrf,
    "enterprise.action": "remove",
  });
  assert.equal((await settingsOf(folio, apiKey)).enterpriseTerms, null);
});

Deno.test("a settings form without the session's CSRF token is refused and changes nothing", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const before = await settingsOf(folio, apiKey);
  const forged = await visitor.post("/publisher/settings/domain", {
    _csrf: "forged",
    customDomain: "evil.example.com",
  });
  assert.equal(forged.status, 403);
  assert.deepEqual(await settingsOf(folio, apiKey), before);
  const unknown = await visitor.post("/publisher/settings/nope", { _csrf: "x" });
  assert.equal(unknown.status, 404);
});

Deno.test("rotating the key in settings shows the new key once, and the old key stops working", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const rotated = await visitor.post("/publisher/settings/key", { _csrf: hidden(page.html) });
  assert.equal(rotated.status, 200);
  assert.equal(rotated.headers.get("cache-control"), "no-store");
  const fresh = /data-copy="(pk_[^"]+)"/.exec(rotated.html)![1];
  assert.notEqual(fresh, apiKey);
  assert.equal((await settingsOf(folio, fresh)).slug !== undefined, true);
  const old = await folio.request("/api/publisher/settings", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(old.status, 401);
  await old.body?.cancel();
  assert.equal((await visitor.get("/publisher/settings")).html.includes(fresh), false);
  const forged = await visitor.post("/publisher/settings/key", { _csrf: "forged" });
  assert.equal(forged.status, 403);
  assert.match(forged.html, /role="alert"/);
});

Deno.test("agent payments save through the API: switch, price, defaults and per-crawler actions", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const text = textOf(page.html);
  assert.match(text, /Agent payments/);
  assert.match(text, /set a custom domain above/, "no host yet: the pages need a custom domain");
  assert.match(page.html, /<select name="crawler\.GPTBot" aria-label="Action for GPTBot">/);
  assert.match(text, /Default \(treat as a reader\)/, "user fetchers' default is named");
  const saved = await visitor.post("/publisher/settings/agent-payments", {
    _csrf: hidden(page.html),
    "agentPayments.crawlerPriceUsd": "0.02",
    "agentPayments.defaultAction": "block",
    "agentPayments.userFetchers": "charge",
    "crawler.GPTBot": "charge",
    "crawler.Claude-SearchBot": "allow",
    "crawler.ClaudeBot": "",
  });
  assert.equal(saved.status, 200);
  assert.equal(saved.url, "/publisher/settings?done=agent-payments");
  assert.match(textOf(saved.html), /Agent payments saved/);
  const s = await settingsOf(folio, apiKey);
  assert.deepEqual(s.agentPayments, {
    enabled: false,
    crawlerPriceUsdCents: 2,
    defaultAction: "block",
    crawlers: { GPTBot: "charge", "Claude-SearchBot": "allow" },
    userFetchers: "charge",
  });
  // The page shows what was saved: own choices selected, defaults named by the new settings.
  assert.match(saved.html, /name="crawler\.GPTBot"[^>]*>.*?<option value="charge" selected/s);
  assert.match(textOf(saved.html), /Default \(block\)/);
  assert.match(saved.html, /name="agentPayments\.crawlerPriceUsd"[^>]*value="0\.02"/);

  // Switched on, with the price left empty (the full-display price) and the choices cleared.
  await visitor.post("/publisher/settings/agent-payments", {
    _csrf: hidden(saved.html),
    "agentPayments.enabled": "on",
    "agentPayments.crawlerPriceUsd": "",
    "agentPayments.defaultAction": "charge",
    "agentPayments.userFetchers": "reader",
    "crawler.GPTBot": "",
  });
  const after = await settingsOf(folio, apiKey);
  assert.deepEqual(after.agentPayments, {
    enabled: true,
    crawlerPriceUsdCents: null,
    defaultAction: "charge",
    crawlers: {},
    userFetchers: "reader",
  });
});

Deno.test("agent payments: the host's robots.txt and license.xml are linked once there is a domain", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  await visitor.post("/publisher/settings/domain", {
    _csrf: hidden(page.html),
    customDomain: "news.harbor.example",
  });
  const html = (await visitor.get("/publisher/settings")).html;
  assert.match(html, /href="http:\/\/news\.harbor\.example(:\d+)?\/robots\.txt"/);
  assert.match(html, /href="http:\/\/news\.harbor\.example(:\d+)?\/license\.xml"/);
  assert.doesNotMatch(textOf(html), /set a custom domain above/);
});

Deno.test("agent payments: an invalid value shows the API's problem and changes nothing; CSRF is required", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const before = await settingsOf(folio, apiKey);
  const page = await visitor.get("/publisher/settings");
  const refused = await visitor.post("/publisher/settings/agent-payments", {
    _csrf: hidden(page.html),
    "agentPayments.enabled": "on",
    "agentPayments.crawlerPriceUsd": "0.03",
    "agentPayments.defaultAction": "charge",
    "agentPayments.userFetchers": "reader",
    "crawler.GPTBot": "free",
  });
  assert.equal(refused.status, 400);
  const alert = /<p class="problem" role="alert">([\s\S]*?)<\/p>/g;
  const problems = [...refused.html.matchAll(alert)].map((m) => textOf(m[1]));
  assert.ok(
    problems.some((p) => /agentPayments\.crawlers\.GPTBot/.test(p)),
    `the API's words are shown: ${problems.join(" | ")}`,
  );
  assert.match(refused.html, /name="agentPayments\.crawlerPriceUsd"[^>]*value="0\.03"/, "kept");
  assert.deepEqual(await settingsOf(folio, apiKey), before);

  const unknown = await visitor.post("/publisher/settings/agent-payments", {
    _csrf: hidden(page.html),
    "agentPayments.defaultAction": "charge",
    "agentPayments.userFetchers": "reader",
    "crawler.NotABot": "block",
  });
  assert.equal(unknown.status, 400);
  assert.match(
    textOf(unknown.html),
    /agentPayments\.crawlers\.NotABot: NotABot is not a crawler of the list/,
  );
  assert.deepEqual(await settingsOf(folio, apiKey), before);

  const forged = await visitor.post("/publisher/settings/agent-payments", {
    _csrf: "forged",
    "agentPayments.enabled": "on",
    "agentPayments.defaultAction": "block",
    "agentPayments.userFetchers": "block",
  });
  assert.equal(forged.status, 403);
  assert.match(forged.html, /role="alert"/);
  assert.deepEqual(await settingsOf(folio, apiKey), before);
});

Deno.test("enterprise terms: a bad price is named by its label in dollar words beside the field, and the typing stays (issue 34)", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/settings");
  const refused = await visitor.post("/publisher/settings/enterprise", {
    _csrf: hidden(page.html),
    "enterprise.useCases": ["rag", "display"],
    "enterprise.monthlyPriceUsd": "fifty",
    "enterprise.conditions": "Attribution in model cards.",
    "enterprise.action": "save",
  });
  assert.equal(refused.status, 400);
  const text = textOf(refused.html);
  assert.match(text, /Monthly price \(USD\): enter an amount in dollars, such as 50 or 49\.99/);
  assert.doesNotMatch(text, /monthlyPriceUsdCents|expected a number/);
  assert.match(
    refused.html,
    /aria-invalid="true" aria-describedby="enterprise-monthlyPriceUsd-error"/,
  );
  assert.match(refused.html, /value="fifty"/);
  assert.match(refused.html, />Attribution in model cards\.</);
  assert.match(refused.html, /value="display" checked/);
  const none = await visitor.post("/publisher/settings/enterprise", {
    _csrf: hidden(page.html),
    "enterprise.monthlyPriceUsd": "50",
    "enterprise.action": "save",
  });
  assert.match(textOf(none.html), /Uses covered: tick at least one use/);
});
