/** The console's articles and rules pages over the management API, on the demo catalog. */
import assert from "node:assert/strict";
import { testFolio } from "./helpers.ts";
import { consoleSignUp, demoVisitor, hidden, textOf } from "./console_helpers.ts";

Deno.test("the articles page lists the catalog with paging, and an override saves through the API", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const page = await visitor.get("/publisher/articles");
  assert.equal(page.status, 200);
  const rows = page.html.match(/<tr>/g)?.length ?? 0;
  assert.ok(rows > 10, `a page of articles (${rows} rows)`);
  assert.match(page.html, /Next 50|<nav class="pager"/);
  const id = /action="\/publisher\/articles\/([0-9a-f]{16})"/.exec(page.html)![1];
  const saved = await visitor.post(`/publisher/articles/${id}`, {
    _csrf: hidden(page.html),
    back: "/publisher/articles?kind=article",
    policy: "PAYWALL",
    priceUsd: "0.25",
  });
  assert.equal(saved.status, 200);
  assert.equal(saved.url, "/publisher/articles?kind=article&done=saved");
  assert.match(textOf(saved.html), /Article saved/);
  const res = await folio.request(`/api/publisher/articles?limit=200`, {
    headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
  });
  const article = (await res.json()).articles.find((a: { id: string }) => a.id === id);
  assert.equal(article.policy, "PAYWALL");
  assert.equal(article.priceUsdCents, 25);
  const bad = await visitor.post(`/publisher/articles/${id}`, {
    _csrf: hidden(page.html),
    policy: "PAYWALL",
    priceUsd: "-3",
  });
  assert.equal(bad.status, 400);
  assert.match(bad.html, /role="alert"/);
});

Deno.test("a new publisher's articles page says how to add a catalog", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/articles");
  assert.match(textOf(page.html), /No articles yet/);
});

Deno.test("rules are added, shown in words, edited and deleted; a bad rule shows why and keeps the typing", async () => {
  await using folio = await testFolio();
  const { visitor, apiKey } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/rules");
  assert.match(textOf(page.html), /No rules/);
  const csrf = hidden(page.html);
  const added = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    priority: "10",
    path: "/premium/",
    policy: "PAYWALL",
    priceUsd: "0.05",
  });
  assert.equal(added.status, 200);
  assert.match(textOf(added.html), /Articles under \/premium\/: PAYWALL at \$0\.05 per read/);
  const bad = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    priority: "20",
    path: "no-slash",
    territories: "DE, XX",
  });
  assert.equal(bad.status, 400);
  assert.match(bad.html, /value="no-slash"/);
  assert.match(bad.html, /role="alert"/);
  const api = async () =>
    (await (await folio.request("/api/publisher/rules", {
      headers: { authorization: `Bearer ${apiKey}` },
    })).json()).rules;
  const [rule] = await api();
  const edit = await visitor.get(`/publisher/rules/${rule.id}`);
  assert.match(edit.html, /value="\/premium\/"/);
  await visitor.post(`/publisher/rules/${rule.id}`, {
    _csrf: csrf,
    priority: "5",
    path: "/premium/",
    territories: "de, fr",
    policy: "BLOCKED",
    windowStart: "",
  });
  const [edited] = await api();
  assert.deepEqual(edited.match, { path: "/premium/", territories: ["DE", "FR"] });
  assert.deepEqual(edited.action, { policy: "BLOCKED" });
  await visitor.post(`/publisher/rules/${rule.id}/delete`, { _csrf: csrf });
  assert.deepEqual(await api(), []);
  const gone = await visitor.get(`/publisher/rules/${rule.id}`);
  assert.equal(gone.status, 404);
});

Deno.test("the articles search finds titles by all their words, and shows the effective policy and who decided it", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const found = await visitor.get("/publisher/articles?q=night+TRAIN");
  assert.equal(found.status, 200);
  assert.match(textOf(found.html), /1 match\b/);
  assert.match(textOf(found.html), /The Return of the Night Train/);
  assert.match(textOf(found.html), /by your defaults|by rule|by this article/);
  const none = await visitor.get("/publisher/articles?q=100%25_nothing");
  assert.match(textOf(none.html), /No article matches these filters/);
  const german = await visitor.get("/publisher/articles?country=de&q=night+train");
  assert.equal(german.status, 200);
  assert.match(german.html, /name="country"[^>]*value="DE"/);
  const nowhere = await visitor.get("/publisher/articles?country=ZZZ");
  assert.equal(nowhere.status, 400, "the API names the bad country");
  const bad = await visitor.get("/publisher/articles?policy=SOMETIMES");
  assert.equal(bad.status, 400);
  assert.match(bad.html, /role="alert"/);
});

Deno.test("a rule's name survives a refused form, leads its line whatever it does, and names it in the explanation (issue 34)", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const page = await visitor.get("/publisher/rules");
  const csrf = hidden(page.html);
  const refused = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    name: "Premium desk",
    priority: "10",
    path: "no-slash",
  });
  assert.equal(refused.status, 400);
  assert.match(
    refused.html,
    /name="name"[^>]*value="Premium desk"|value="Premium desk"[^>]*name="name"/,
  );
  const added = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    name: "Premium desk",
    priority: "10",
    path: "/premium/",
    policy: "PAYWALL",
    priceUsd: "0.05",
  });
  assert.match(textOf(added.html), /Premium desk: Articles under \/premium\/: PAYWALL/);
  await visitor.post("/publisher/rules", {
    _csrf: csrf,
    priority: "20",
    path: "/free/",
    policy: "OBSERVE",
  });
  const named = await visitor.get("/publisher/rules?url=/premium/a");
  assert.match(textOf(named.html), /by rule “Premium desk”/);
  const unnamed = await visitor.get("/publisher/rules?url=/free/a");
  const text = textOf(unnamed.html);
  assert.match(text, /by the rule above, priority 20/);
  assert.doesNotMatch(text, /by rule [a-z]+_/);
});

Deno.test("the demo's article links use the host it answers on (scheme and port), and it answers (issue 34)", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const page = await visitor.get("/publisher/articles");
  assert.doesNotMatch(page.html, /href="https:\/\/demo\.localhost\//);
  const href = /href="(http:\/\/demo\.localhost:8080\/[^"]+)"/.exec(page.html)?.[1];
  assert.ok(href, "an article link on the demo host with the port");
  const url = new URL(href);
  const res = await folio.request(url.pathname, { host: url.hostname });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const explained = await visitor.get(`/publisher/rules?url=${encodeURIComponent(url.pathname)}`);
  assert.match(explained.html, new RegExp(`href="${href.replace(/[.?]/g, "\\$&")}"`));
});

Deno.test("a refused rule names the field by its label beside it, in plain words (issue 34)", async () => {
  await using folio = await testFolio();
  const { visitor } = await consoleSignUp(folio);
  const csrf = hidden((await visitor.get("/publisher/rules")).html);
  const badPrice = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    priority: "10",
    path: "/a/",
    priceUsd: "abc",
  });
  assert.equal(badPrice.status, 400);
  assert.match(
    badPrice.html,
    /<p class="problem field-error" id="priceUsd-error" role="alert">Price per read \(USD\): enter an amount in dollars, such as 0\.05<\/p>/,
  );
  assert.match(
    badPrice.html,
    /aria-invalid="true" aria-describedby="priceUsd-error"[^>]*name="priceUsd"/,
  );
  const backwards = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    priority: "10",
    path: "/a/",
    priceUsd: "1",
    windowStart: "2026-12-02T00:00",
    windowEnd: "2026-12-01T00:00",
  });
  assert.match(textOf(backwards.html), /Price valid until: must be after the start/);
  assert.doesNotMatch(textOf(backwards.html), /action\.window/);
  const nothing = await visitor.post("/publisher/rules", {
    _csrf: csrf,
    priority: "10",
    path: "/a/",
  });
  assert.match(textOf(nothing.html), /Policy: choose a policy, set a price per read, or tick Deny/);
});
