/**
 * The publisher REST API's wire, pinned byte for byte: every status of docs/SPEC.md "Errors", every
 * input refusal, every non-full outcome of the access decision, and the reach refusals.
 */
import { setArticlePolicy } from "../store/articles.ts";
import { getPublisher, insertPublisher } from "../store/publishers.ts";
import { denyTerritory, outcomeFixture, patchDemo, spendToCap } from "./fixtures/demo.ts";
import { testFolio } from "./helpers.ts";
import { type Wire, wire } from "./wire.ts";

const PROMPT = "What does it say?";

function article(id: string, prompt: string | null = PROMPT): string {
  const q = prompt === null ? "" : `?last_user_prompt=${encodeURIComponent(prompt)}`;
  return `/api/v1/articles/${encodeURIComponent(id)}${q}`;
}

Deno.test("REST wire: refusals of input, host, key and reach", async (t) => {
  await using folio = await testFolio();
  const { observe: [observe], apiKey } = await outcomeFixture(folio);
  const table: [string, Wire][] = [];
  const get = async (label: string, path: string, init: RequestInit & { host?: string } = {}) => {
    const res = await folio.request(path, { host: "demo.localhost", ...init });
    table.push([label, await wire(res, ["www-authenticate", "access-control-allow-origin"])]);
  };
  const search = "/api/v1/articles/search";
  await get("query missing", search);
  await get("query empty", `${search}?query=`);
  await get("query blank", `${search}?q=%20%20`);
  await get("query too long", `${search}?query=${"a".repeat(201)}`);
  await get("query control", `${search}?query=a%01b`);
  await get("limit zero", `${search}?query=x&limit=0`);
  await get("limit 51", `${search}?query=x&limit=51`);
  await get("limit words", `${search}?query=x&limit=abc`);
  await get("limit fraction", `${search}?query=x&limit=2.5`);
  await get("passages query missing", "/api/v1/passages/search");
  await get(
    "passages prompt too long",
    `/api/v1/passages/search?q=x&last_user_prompt=${"p".repeat(8001)}`,
  );
  await get("prompt missing", article(observe, null));
  await get("prompt empty", article(observe, ""));
  await get("prompt too long", article(observe, "p".repeat(8001)));
  await get("prompt NUL", article(observe, "a\u0000b"));
  await get("article unknown", article("nope"));
  await get("article bad encoding", `/api/v1/articles/%E0%A4%A?last_user_prompt=x`);
  await get("article id too long", article("x".repeat(2049)));
  await get("unknown host", `${search}?q=x`, { host: "nobody.localhost" });
  await get("unknown publisher id", "/api/v1/publishers/pub_nope/articles/search?q=x", {
    host: undefined,
  });
  await get("key in URL", `${search}?q=x&api_key=${apiKey}`);
  await get("bad key", `${search}?q=x`, { headers: { authorization: "Bearer mk_nope" } });
  await get("basic scheme", `${search}?q=x`, { headers: { authorization: "Basic abc" } });
  await get("oauth token on REST", `${search}?q=x`, {
    headers: { authorization: `Bearer fat_${"A".repeat(32)}` },
  });
  await get("preflight", `${search}?q=x`, {
    method: "OPTIONS",
    headers: {
      origin: "https://agent.example",
      "access-control-request-method": "GET",
      "access-control-request-headers": "authorization",
    },
  });
  await patchDemo(folio, (p) => ({ ...p, toggles: { ...p.toggles, publicRest: false } }));
  await get("public REST off", `${search}?q=x`);
  await get("public REST off, bad key", `${search}?q=x`, {
    headers: { authorization: "Bearer mk_nope" },
  });
  await insertPublisher(folio.deps.store.db, { id: "pub_nodomain", slug: "nodomain", name: "ND" }, {
    now: folio.clock.now(),
  });
  await get("no custom domain, anonymous", "/api/v1/publishers/pub_nodomain/articles/search?q=x", {
    host: undefined,
  });
  await t.assertSnapshot(table);
});

Deno.test("REST wire: every outcome of the access decision", async (t) => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const db = folio.deps.store.db;
  const { observe: [observe, observe2, observe3], paywalled, apiKey, buyerId } =
    await outcomeFixture(folio);
  const buyer = { authorization: `Bearer ${apiKey}` };
  const table: [string, Wire][] = [];
  const get = async (label: string, path: string, headers: Record<string, string> = {}) => {
    const res = await folio.request(path, { host: "demo.localhost", headers });
    table.push([label, await wire(res, ["folio-charged-usd-cents", "folio-receipt"])]);
  };
  await get("full", article(observe));
  await get("charged", article(paywalled[0]), { ...buyer, "idempotency-key": "k1" });
  await get("idempotent retry", article(paywalled[0]), { ...buyer, "idempotency-key": "k1" });
  await get("key reused", article(paywalled[1]), { ...buyer, "idempotency-key": "k1" });
  for (const id of paywalled.slice(0, 3)) await get("metered free read", article(id));
  await get("payment required", article(paywalled[3]));
  await setArticlePolicy(db, "pub_demo", observe2, { policy: "BLOCKED", now: folio.clock.now() });
  await get("blocked", article(observe2));
  await denyTerritory(folio, "FR");
  await get("territory blocked", article(observe3), { "cf-ipcountry": "FR" });
  await get("territory blocked search", "/api/v1/articles/search?q=energy&limit=50", {
    "cf-ipcountry": "FR",
  });
  await spendToCap(folio, buyerId);
  await get("capped", article(paywalled[2]), buyer);
  const p = (await getPublisher(db, "pub_demo"))!;
  await patchDemo(folio, (x) => ({ ...x, rights: { ...p.rights, display: false } }));
  await get("summary only", article(observe3));
  await patchDemo(folio, (x) => ({
    ...x,
    rights: { ...p.rights, display: false, summarization: false },
  }));
  await get("denied", article(observe3));
  await patchDemo(folio, (x) => ({ ...x, rights: { ...p.rights, rag: false } }));
  await get("search without rag", "/api/v1/articles/search?q=energy");
  await get("passages without rag", "/api/v1/passages/search?q=energy");
  await t.assertSnapshot(table);
});
