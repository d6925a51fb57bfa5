import assert from "node:assert/strict";
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { CSP, cspText, pageHeaders, widened } from "./security_headers.ts";

function app(baseUrl: string, own?: string): Hono<AppEnv> {
  const a = new Hono<AppEnv>();
  a.use("*", pageHeaders({ baseUrl }, CSP.portal));
  a.get("/", (c) => {
    if (own) c.header("Content-Security-Policy", own);
    return c.html("<p>hi</p>");
  });
  return a;
}

Deno.test("cspText writes a policy as the middleware does", async () => {
  const res = await app("http://localhost").request("/");
  assert.equal(res.headers.get("content-security-policy"), cspText(CSP.portal));
  assert.equal(
    cspText(CSP.document),
    "default-src 'none'; img-src 'self'; form-action 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  );
});

Deno.test("widened adds sources to one directive and leaves the policy it was given alone", () => {
  const wider = widened(CSP.portal, "formAction", ["https:"]);
  assert.match(cspText(wider), /form-action 'self' https:;/);
  assert.deepEqual(CSP.portal.formAction, ["'self'"]);
  assert.deepEqual(widened(CSP.consent, "formAction", ["'self'"]).formAction, ["'self'"]);
});

Deno.test("a route's own policy is kept; the rest of the baseline is still added", async () => {
  const res = await app("https://folio.example", "default-src 'none'").request("/");
  assert.equal(res.headers.get("content-security-policy"), "default-src 'none'");
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.equal(res.headers.get("strict-transport-security"), "max-age=63072000; includeSubDomains");
});

Deno.test("no HSTS unless the base URL is https", async () => {
  for (const base of ["http://localhost:8080", "http://folio.example"]) {
    const res = await app(base).request("/");
    assert.equal(res.headers.get("strict-transport-security"), null, base);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", base);
  }
});
