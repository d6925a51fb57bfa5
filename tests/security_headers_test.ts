/**
 * Every HTML answer carries the same security headers (server/platform/security_headers.ts): one table of
 * every kind of page, each with the baseline and the Content-Security-Policy it is meant to have,
 * served once under an http base URL (no HSTS) and once under https (HSTS; without
 * includeSubDomains on a publisher's domain). JSON APIs keep their own headers.
 */
import assert from "node:assert/strict";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { demoVisitor, Visitor } from "./console_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";
import { demoPath, GPTBOT, visit } from "./landing_helpers.ts";
import {
  authorizeRaw,
  authParams,
  randomPkce,
  registerClient,
  setToggles,
} from "./oauth_helpers.ts";

/** What every page sends whatever it loads. */
const BASELINE = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "DENY",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

const TAIL = "style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";
/** The policy of each kind of page, spelled out so that a change to one is deliberate. */
const POLICY = {
  document: `default-src 'none'; img-src 'self'; form-action 'none'; ${TAIL}`,
  docs: `default-src 'none'; script-src 'self'; img-src 'self'; form-action 'none'; ${TAIL}`,
  portal:
    `default-src 'none'; script-src 'self'; img-src 'self' https: data:; form-action 'self'; ${TAIL}`,
  consent: `default-src 'none'; img-src https: http: data:; ${TAIL}`,
  site: `default-src 'none'; img-src 'self' https: http:; form-action 'none'; ${TAIL}`,
};

interface Row {
  page: string;
  status: number;
  policy: keyof typeof POLICY;
  headers: Headers;
  /** A publisher's domain (HSTS without includeSubDomains). */
  publisher?: true;
  /** Opened in a popup by browser clients: the opener is kept. */
  keepsOpener?: true;
}

/** Requests one page of every kind; each row is what came back. */
async function everyPage(folio: TestFolio): Promise<Row[]> {
  const rows: Row[] = [];
  const get = async (
    page: string,
    res: Response | Promise<Response>,
    policy: keyof typeof POLICY,
    extra: Partial<Row> = {},
  ) => {
    const r = await res;
    await r.body?.cancel();
    rows.push({ page, status: r.status, policy, headers: r.headers, ...extra });
  };
  const visited = async (
    page: string,
    v: Promise<{ status: number; headers: Headers }>,
    policy: keyof typeof POLICY,
  ) => {
    const r = await v;
    rows.push({ page, status: r.status, policy, headers: r.headers });
  };

  await get("home", folio.request("/"), "document");
  await get("terms", folio.request("/license/pub_demo"), "document");
  await get("status", folio.request("/status"), "document");
  await get("status, bad window", folio.request("/status?days=0"), "document");
  await get("API reference", folio.request("/docs"), "docs");

  const anonymous = new Visitor(folio);
  await visited("console sign-in", anonymous.get("/publisher/login"), "portal");
  const publisher = await demoVisitor(folio);
  await visited("console overview", publisher.get("/publisher"), "portal");
  await visited("console error page", publisher.get("/publisher/nope"), "portal");
  await visited("buyer sign-in", anonymous.get("/buyer/login"), "portal");
  const { visitor: buyer } = await portalSignUp(folio);
  await visited("buyer keys", buyer.get("/buyer/keys"), "portal");

  await setToggles(folio, "pub_demo", { consentScreen: true });
  const clientId = await registerClient(folio);
  const { challenge } = await randomPkce();
  const consent = authorizeRaw(folio, authParams(folio, clientId, challenge));
  await get("OAuth consent", consent, "consent", { keepsOpener: true });
  const refused = authorizeRaw(folio, { response_type: "code" });
  await get("OAuth error page", refused, "consent", { keepsOpener: true });

  const { apiKey } = await createBuyer(folio.deps.store.db, {
    name: "Headers",
    email: "headers@example.test",
  }, { now: folio.clock.now() });
  const invoice = folio.request("/api/marketplace/statement/invoice", {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  await get("invoice", invoice, "document");
  await get("checkout abandoned", folio.request("/api/marketplace/checkout/cancel"), "document");

  const site = { publisher: true } as const;
  const observe = await demoPath(folio, "OBSERVE");
  const paywall = await demoPath(folio, "PAYWALL");
  await get("site home", visit(folio, "/"), "site", site);
  await get("site article", visit(folio, observe.path), "site", site);
  await get("site 402", visit(folio, paywall.path, { "user-agent": GPTBOT }), "site", site);
  await get("site 404", visit(folio, "/no/such/page"), "site", site);
  return rows;
}

const STATUS: Record<string, number> = {
  "status, bad window": 400,
  "console error page": 404,
  "OAuth error page": 400,
  "site 402": 402,
  "site 404": 404,
};

function check(rows: Row[], hsts: (row: Row) => string | null): void {
  for (const row of rows) {
    const h = row.headers;
    assert.equal(row.status, STATUS[row.page] ?? 200, row.page);
    assert.match(h.get("content-type") ?? "", /^text\/html/, row.page);
    const baseline = Object.fromEntries(Object.keys(BASELINE).map((k) => [k, h.get(k)]));
    const expected = row.keepsOpener
      ? { ...BASELINE, "cross-origin-opener-policy": "unsafe-none" }
      : BASELINE;
    assert.deepEqual(baseline, expected, row.page);
    assert.equal(h.get("content-security-policy"), POLICY[row.policy], row.page);
    assert.equal(h.get("strict-transport-security"), hsts(row), row.page);
  }
}

Deno.test("every kind of page carries the baseline headers and its own policy, no HSTS over http", async () => {
  await using folio = await testFolio();
  const rows = await everyPage(folio);
  assert.equal(rows.length, 18);
  check(rows, () => null);
});

Deno.test("under an https base URL every page adds HSTS; a publisher's domain without its subdomains", async () => {
  await using folio = await testFolio({ env: { FOLIO_BASE_URL: "https://folio.example" } });
  check(
    await everyPage(folio),
    (row) => row.publisher ? "max-age=63072000" : "max-age=63072000; includeSubDomains",
  );
});

Deno.test("JSON APIs are not pages: no page headers on them", async () => {
  await using folio = await testFolio({ env: { FOLIO_BASE_URL: "https://folio.example" } });
  for (const path of ["/api/health", "/api/status", "/nope", "/api/marketplace/catalog"]) {
    const res = await folio.request(path);
    await res.body?.cancel();
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/, path);
    for (const h of ["content-security-policy", "x-frame-options", "strict-transport-security"]) {
      assert.equal(res.headers.get(h), null, `${h} on ${path}`);
    }
  }
});
