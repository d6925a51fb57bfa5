/**
 * GET /api/openapi.json against the routes the app really serves (`app.routes`, not a hand list):
 * every route of the management API, the buyer marketplace and the REST read API is documented, and
 * nothing is documented that is not served, except the operations marked x-folio-pending (an
 * agreed contract documented before its route lands). And the answers the document describes are
 * the answers the routes give, field for field (every test checks its answers the same way:
 * tests/fixtures/documented.ts; the last test here checks that check).
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import { createApp } from "../server/app.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import * as m from "../server/surfaces/marketplace/schemas.ts";
import * as r from "../server/surfaces/rest/schemas.ts";
import { errorSchema } from "../server/surfaces/manage/openapi_schemas.ts";
import { demoIds, denyTerritory, patchDemo, spendToCap } from "./fixtures/demo.ts";
import { checkDocumented, documentedOperation } from "./fixtures/documented.ts";
import { json, type TestFolio, testFolio } from "./helpers.ts";

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>> };

/** `GET /api/v1/articles/{}`: a route whatever its parameters are called, or a wildcard. */
const served = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:\w+|\*/g, "{}")}`;
const documented = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{\w+\}/g, "{}")}`;

/** The documented APIs: management, the marketplace, the REST read API, the gate, the document. */
const inScope = (path: string) =>
  path.startsWith("/api/publisher/") ||
  /^\/api\/publishers\/(signup|login|logout|password-reset(\/confirm)?)$/.test(path) ||
  path.startsWith("/api/marketplace/") || path.startsWith("/api/v1/") ||
  path.startsWith("/api/gate/") || path.startsWith("/api/operator/") ||
  path === "/api/openapi.json" ||
  // The platform's protocol endpoints (issue 40) and NLWeb /ask on a publisher's domain.
  path.startsWith("/api/oauth/") || path.startsWith("/api/olp/") || path === "/api/health" ||
  path === "/api/status" ||
  path === "/.well-known/jwks.json" || path.startsWith("/.well-known/oauth-") || path === "/ask";

Deno.test("the OpenAPI document describes every served API route, and only pending contract routes beyond them", async () => {
  await using folio = await testFolio();
  const doc = await json<Doc>(await folio.request("/api/openapi.json"));
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: documented(method, path), op }))
  );
  const inDoc = new Set(ops.map((o) => o.key));
  const pending = new Set(ops.filter((o) => o.op["x-folio-pending"]).map((o) => o.key));
  const routes = new Set(
    createApp(folio.deps).routes
      // A publisher's site is routed under SITE (server/platform/host_router.ts): /~site/ask is /ask.
      .map((route) => ({ ...route, path: route.path.replace(/^\/~site(?=\/)/, "") }))
      // CORS preflights (OPTIONS) are answered for the browser, not called by clients.
      .filter((route) => !["ALL", "OPTIONS"].includes(route.method) && inScope(route.path))
      .map((route) => served(route.method, route.path)),
  );
  assert.ok(routes.has("POST /api/marketplace/signup") && routes.has("GET /api/v1/articles/{}"));
  assert.deepEqual([...routes].filter((k) => !inDoc.has(k)).sort(), [], "served, not documented");
  assert.deepEqual(
    [...inDoc].filter((k) => !routes.has(k) && !pending.has(k)).sort(),
    [],
    "documented, not served, not pending",
  );
  assert.deepEqual(
    [...pending].filter((k) => routes.has(k)).sort(),
    [],
    "served now: drop x-folio-pending (`pending:`) from these in server/surfaces/openapi/",
  );
  for (const { key, op } of ops) {
    assert.ok(Array.isArray(op.tags) && op.tags.length === 1, `${key} has its API's tag`);
  }
});

Deno.test("every operation has a unique operationId and states its security; every required property is defined", async () => {
  await using folio = await testFolio();
  const doc = await json<Doc>(await folio.request("/api/openapi.json"));
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op }))
  );
  const ids = ops.map((o) => o.op.operationId);
  assert.ok(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]+$/.test(id)));
  assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
  assert.equal(
    doc.paths["/api/v1/articles/{idOrUrl}"].get.operationId,
    "getV1ArticlesByIdOrUrl",
    "named as code generators name them",
  );
  for (const { key, op } of ops) {
    assert.ok(Array.isArray(op.security), `${key} states its security, [] when public`);
  }
  // A schema's `required` names only properties it defines (Redocly's
  // no-required-schema-properties-undefined): a record keyed by an enum broke this once.
  const undefinedRequired: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (typeof node !== "object" || node === null) return;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.required) && typeof o.properties === "object") {
      for (const name of o.required as string[]) {
        if (!(name in (o.properties as object))) undefinedRequired.push(`${at}: ${name}`);
      }
    } else if (Array.isArray(o.required) && o.type === "object" && !o.properties) {
      undefinedRequired.push(`${at}: ${(o.required as string[]).join(", ")}`);
    }
    for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
  };
  walk(doc, "#");
  assert.deepEqual(undefinedRequired, []);
});

Deno.test("the marketplace routes' answers are the answers the document describes", async () => {
  await using folio = await testFolio();
  const post = (path: string, body: unknown, key?: string) =>
    folio.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const get = (path: string, key: string) =>
    folio.request(path, { headers: { authorization: `Bearer ${key}` } });

  const signup = await conforms(
    post("/api/marketplace/signup", { name: "Doc AI", email: "doc@ai.test" }),
    201,
    m.signupResponseSchema,
  );
  const key = signup.apiKey;
  await conforms(folio.request("/api/marketplace/catalog"), 200, m.catalogSchema);
  await conforms(
    post("/api/marketplace/licenses", { publisherId: "pub_demo", useCases: ["display"] }, key),
    201,
    m.licenseActiveSchema,
  );
  await conforms(get("/api/marketplace/licenses", key), 200, m.licenseListSchema);
  await conforms(get("/api/marketplace/clients", key), 200, m.clientListSchema);
  const [paid] = await demoIds(folio, "PAYWALL");
  await read(folio, paid, { authorization: `Bearer ${key}` });
  await conforms(get("/api/marketplace/usage", key), 200, m.usageSchema);
  await conforms(get("/api/marketplace/statement", key), 200, m.statementSchema);
  await conforms(post("/api/marketplace/signup", {}), 400, errorSchema);
  await conforms(get("/api/marketplace/usage", "mk_nope"), 401, errorSchema);
  const rotated = await conforms(
    post("/api/marketplace/rotate-key", {}, key),
    200,
    m.rotateKeyResponseSchema,
  );
  assert.notEqual(rotated.apiKey, key);
});

Deno.test("the REST read API's answers and refusals are the ones the document describes", async () => {
  await using folio = await testFolio({ env: { FOLIO_COUNTRY_HEADER: "cf-ipcountry" } });
  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Doc REST",
    email: "rest@doc.test",
  }, { now: folio.clock.now() });
  const buyer = { authorization: `Bearer ${apiKey}` };
  const demo = (path: string, headers: Record<string, string> = {}) =>
    folio.request(path, { host: "demo.localhost", headers });

  await conforms(demo("/api/v1/articles/search?q=energy&limit=3"), 200, r.searchResponseSchema);
  await conforms(demo("/api/v1/passages/search?q=energy&limit=3"), 200, r.passagesResponseSchema);
  await conforms(
    folio.request("/api/v1/publishers/pub_demo/articles/search?q=energy", { headers: buyer }),
    200,
    r.searchResponseSchema,
  );
  const [observe] = await demoIds(folio, "OBSERVE");
  const [paid] = await demoIds(folio, "PAYWALL");
  const full = await read(folio, paid, { ...buyer, "idempotency-key": "doc-1" });
  assert.ok(full.headers.get("folio-charged-usd-cents"), "a charged read names its charge");
  await conforms(Promise.resolve(full), 200, r.articleFullSchema);
  await conforms(read(folio, observe, {}), 200, r.articleFullSchema);
  // An anonymous caller past the paywall meter.
  let upsold = false;
  for (const id of await demoIds(folio, "PAYWALL")) {
    const res = await read(folio, id, {});
    if (res.status === 402) {
      await conforms(Promise.resolve(res), 402, r.paymentRequiredSchema);
      upsold = true;
      break;
    }
    await res.body?.cancel();
  }
  assert.ok(upsold, "the meter ran out");
  await conforms(demo("/api/v1/articles/search"), 400, r.restErrorSchema);
  await conforms(read(folio, "nope", {}), 404, r.restErrorSchema);

  // The other outcomes: past the cap, blocked, another territory, no rights at all.
  await spendToCap(folio, buyerId);
  await conforms(read(folio, paid, buyer), 200, r.licenseLimitedSchema);
  await folio.deps.store.db.execute({
    sql: "UPDATE articles SET policy = 'BLOCKED' WHERE id = ?",
    args: [observe],
  });
  await conforms(read(folio, observe, buyer), 200, r.blockedSchema);
  await denyTerritory(folio, "FR");
  await conforms(
    read(folio, paid, { ...buyer, "cf-ipcountry": "FR" }),
    451,
    r.territoryBlockedSchema,
  );
  await patchDemo(folio, (p) => ({
    ...p,
    rights: { summarization: false, display: false, rag: false, fine_tuning: false },
  }));
  await conforms(read(folio, paid, buyer), 403, r.licenseDeniedSchema);
});

function read(folio: TestFolio, id: string, headers: Record<string, string>) {
  return folio.request(`/api/v1/articles/${id}?last_user_prompt=what%20happened`, {
    host: "demo.localhost",
    headers,
  });
}

/**
 * The answer has `status` and its body is exactly what `schema` documents: parsing drops fields a
 * schema does not name, so an undocumented field makes the parsed body differ from the body.
 */
async function conforms<S extends z.ZodType>(
  answer: Promise<Response>,
  status: number,
  schema: S,
): Promise<z.output<S>> {
  const res = await answer;
  const body = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `${JSON.stringify(body).slice(0, 300)}: ${parsed.error?.message}`);
  assert.deepEqual(parsed.data, body);
  return parsed.data;
}

Deno.test("the harness refuses an answer the document does not describe, naming where", async () => {
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  assert.equal(
    documentedOperation("GET", "/api/v1/articles/search?q=x")?.name,
    "GET /api/v1/articles/search",
  );
  assert.equal(
    documentedOperation("GET", "/api/v1/articles/https://demo.localhost/a/b")?.name,
    "GET /api/v1/articles/{idOrUrl}",
  );
  assert.equal(documentedOperation("GET", "/api/publisher/nowhere"), null);
  const error = { error: { code: "not_found", message: "Rule not found" } };
  await checkDocumented("DELETE", "/api/publisher/rules/r1", answer(404, error));
  await assert.rejects(
    checkDocumented("DELETE", "/api/publisher/rules/r1", answer(418, error)),
    /DELETE \/api\/publisher\/rules\/\{id\} .* answered 418, a status the OpenAPI document/,
  );
  await assert.rejects(
    checkDocumented("GET", "/api/publisher/rules", answer(200, { rules: [], extra: 1 })),
    /answered 200: extra: not in the documented schema/,
  );
  await assert.rejects(
    checkDocumented("GET", "/api/publisher/rules", answer(200, { rules: "none" })),
    /answered 200: rules: /,
  );
});
