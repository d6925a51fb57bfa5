/**
 * The platform endpoints' wire at their edges, pinned byte for byte: authentication, CSRF, media
 * types, body limits, unknown routes and discovery documents of the management API, the buyer
 * marketplace, OAuth, MCP discovery, terms and health.
 */
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { testFolio } from "./helpers.ts";
import { logIn, signUp } from "./manage_helpers.ts";
import { type Wire, wire } from "./wire.ts";

const HEADERS = [
  "www-authenticate",
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "cache-control",
  "retry-after",
];

Deno.test("platform wire: edges of the management API, the marketplace and OAuth", async (t) => {
  await using folio = await testFolio();
  const { apiKey: pk, email } = await signUp(folio, { slug: "wire" });
  const session = await logIn(folio, email);
  const { apiKey: mk } = await createBuyer(folio.deps.store.db, {
    name: "Wire",
    email: "w@example.test",
  }, { now: folio.clock.now() });
  const table: [string, Wire][] = [];
  const req = async (label: string, path: string, init: RequestInit = {}) => {
    table.push([label, await wire(await folio.request(path, init), HEADERS)]);
  };
  const json = (method: string, body: string, headers: Record<string, string> = {}) => ({
    method,
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const big = JSON.stringify({ name: "x".repeat(70 * 1024) });
  // Management API.
  await req("unknown route", "/nope");
  await req("unknown publisher route, anonymous", "/api/publisher/nope");
  await req("unknown publisher route, keyed", "/api/publisher/nope", {
    headers: { authorization: `Bearer ${pk}` },
  });
  await req("settings anonymous", "/api/publisher/settings");
  await req("settings malformed key", "/api/publisher/settings", {
    headers: { authorization: "Bearer pk_nope" },
  });
  await req("license requests anonymous", "/api/publisher/license-requests");
  await req("earnings anonymous", "/api/publisher/earnings");
  await req("sources anonymous", "/api/publisher/sources", { method: "POST", body: "url\n" });
  await req(
    "settings without CSRF",
    "/api/publisher/settings",
    json("PATCH", "{}", { cookie: session.cookie }),
  );
  await req(
    "settings wrong type",
    "/api/publisher/settings",
    { method: "PATCH", headers: { authorization: `Bearer ${pk}` }, body: "{}" },
  );
  await req(
    "settings not JSON",
    "/api/publisher/settings",
    json("PATCH", "{nope", { authorization: `Bearer ${pk}` }),
  );
  await req(
    "settings array",
    "/api/publisher/settings",
    json("PATCH", "[]", { authorization: `Bearer ${pk}` }),
  );
  await req(
    "settings too large",
    "/api/publisher/settings",
    json("PATCH", big, { authorization: `Bearer ${pk}` }),
  );
  await req(
    "settings unknown field",
    "/api/publisher/settings",
    json("PATCH", '{"nope":1}', { authorization: `Bearer ${pk}` }),
  );
  await req("signup too large", "/api/publishers/signup", json("POST", big));
  // One media-type policy on both sign-ups (issue 31): text/plain is 415 on each.
  const plain = (body: string) => ({
    method: "POST",
    headers: { "content-type": "text/plain" },
    body,
  });
  await req("signup text/plain", "/api/publishers/signup", plain('{"name":"x"}'));
  await req(
    "login wrong password",
    "/api/publishers/login",
    json("POST", JSON.stringify({ email, password: "wrong password!" })),
  );
  await req(
    "jobs bad kind",
    "/api/publisher/jobs",
    json("POST", '{"kind":"x"}', { authorization: `Bearer ${pk}` }),
  );
  await req(
    "books wrong type",
    "/api/publisher/books",
    json("POST", "{}", { authorization: `Bearer ${pk}` }),
  );
  await req("sources wrong type", "/api/publisher/sources", {
    method: "POST",
    headers: { authorization: `Bearer ${pk}`, "content-type": "image/png" },
    body: "x",
  });
  await req("earnings bad months", "/api/publisher/earnings?months=99", {
    headers: { authorization: `Bearer ${pk}` },
  });
  await req("license requests bad state", "/api/publisher/license-requests?state=x", {
    headers: { authorization: `Bearer ${pk}` },
  });
  await req("rule unknown", "/api/publisher/rules/rul_nope", {
    method: "DELETE",
    headers: { authorization: `Bearer ${pk}` },
  });
  // Marketplace.
  await req("usage anonymous", "/api/marketplace/usage");
  await req("statement bad key", "/api/marketplace/statement", {
    headers: { authorization: "Bearer mk_nope" },
  });
  await req("statement key in URL", `/api/marketplace/statement?api_key=${mk}`);
  await req("statement bad month", "/api/marketplace/statement?month=2026-13", {
    headers: { authorization: `Bearer ${mk}` },
  });
  await req("usage bad days", "/api/marketplace/usage?days=0", {
    headers: { authorization: `Bearer ${mk}` },
  });
  await req("marketplace preflight", "/api/marketplace/licenses", {
    method: "OPTIONS",
    headers: { origin: "https://x.example", "access-control-request-method": "POST" },
  });
  await req("signup not JSON", "/api/marketplace/signup", json("POST", "{nope"));
  await req("signup array", "/api/marketplace/signup", json("POST", "[1]"));
  await req("signup missing email", "/api/marketplace/signup", json("POST", '{"name":"x"}'));
  await req("signup too large", "/api/marketplace/signup", json("POST", big));
  await req("buyer signup text/plain", "/api/marketplace/signup", plain('{"name":"x"}'));
  await req("buyer signup +json", "/api/marketplace/signup", {
    ...json("POST", '{"name":"x"}'),
    headers: { "content-type": "application/vnd.api+json" },
  });
  await req(
    "licenses bad body",
    "/api/marketplace/licenses",
    json("POST", '{"publisherId":5}', { authorization: `Bearer ${mk}` }),
  );
  await req(
    "clients bad body",
    "/api/marketplace/clients",
    json("POST", "{}", { authorization: `Bearer ${mk}` }),
  );
  await req("checkout without processor", "/api/marketplace/checkout/success?session_id=x");
  await req("webhook without processor", "/api/marketplace/webhooks/stripe", json("POST", "{}"));
  // OAuth.
  await req("register wrong type", "/api/oauth/register", { method: "POST", body: "x" });
  await req("register not JSON", "/api/oauth/register", json("POST", "{nope"));
  await req("register too large", "/api/oauth/register", json("POST", big));
  await req("token wrong type", "/api/oauth/token", json("POST", "{}"));
  await req("token no grant", "/api/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "client_id=nope",
  });
  await req("token preflight", "/api/oauth/token", { method: "OPTIONS" });
  await req("protected resource unknown", "/.well-known/oauth-protected-resource/api/mcp/pub_nope");
  await req("authorize no client", "/api/oauth/authorize");
  // Discovery, terms, health.
  await req("mcp card unknown", "/api/publishers/pub_nope/card");
  await req("mcp.json no slug", "/.well-known/mcp.json");
  await req("mcp.json long slug", `/.well-known/mcp.json?slug=${"s".repeat(65)}`);
  await req("mcp.json unknown slug", "/.well-known/mcp.json?slug=nope");
  await req("terms unknown", "/license/pub_nope");
  await req("health", "/api/health");
  await t.assertSnapshot(table.map(([label, w]) => [label, label === "health" ? w.status : w]));
});
