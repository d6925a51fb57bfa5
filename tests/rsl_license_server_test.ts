/**
 * Folio as the RSL license server of its publishers (issue 40; docs/decisions/rsl.md), driven by
 * a crawler written from the RSL 1.0 and OLP specifications: it finds license.xml from
 * robots.txt, takes the `<content>` that covers the page it wants and the `server` it names,
 * acquires a license token there (grant_type=rsl, HTTP Basic client authentication, the
 * `<license>` and the `resource`), and reads with `Authorization: License <token>`. Expired,
 * foreign, forged and other-resource tokens are refused in the protocol's form; each licensed read
 * is one charge, its item and receipt reconciling to the micro-dollar.
 */
import assert from "node:assert/strict";
import { compactVerify, createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { DOMParser } from "linkedom";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { missing, startCaddy, startNginx, startOrigin } from "./fixtures/proxies.ts";
import { json, startTestFolio, type TestFolio } from "./helpers.ts";
import { GPTBOT, HOST } from "./landing_helpers.ts";
import { signUp } from "./manage_helpers.ts";

type Get = (path: string, headers?: Record<string, string>) => Promise<Response>;

/** The crawler's view of a license.xml: the server and license offered for one page. */
interface Offer {
  server: string;
  license: string;
  amount: string | null;
}

/**
 * RSL 1.0 discovery: robots.txt's `License:` line (Folio's own pages), or the `Link` header with
 * rel="license" (behind a proxy the origin's robots.txt is its own), then license.xml and the
 * most specific `<content>` covering `path`.
 */
async function discover(get: Get, path: string, via: "robots" | "link"): Promise<Offer> {
  let licenseUrl: string | undefined;
  if (via === "robots") {
    const robots = await (await get("/robots.txt", { "user-agent": GPTBOT })).text();
    licenseUrl = /^License:\s*(\S+)\s*$/m.exec(robots)?.[1];
  } else {
    const page = await get(path, { "user-agent": GPTBOT });
    await page.body?.cancel();
    licenseUrl = /<([^>]+)>;\s*rel="license"/.exec(page.headers.get("link") ?? "")?.[1];
  }
  assert.ok(licenseUrl, `license.xml found by ${via}`);
  const res = await get(new URL(licenseUrl).pathname, { "user-agent": GPTBOT });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/rsl\+xml/);
  const doc = new DOMParser().parseFromString(await res.text(), "text/xml");
  const covering = [...doc.getElementsByTagName("content")]
    .map((c) => ({ c, prefix: new URL(c.getAttribute("url")!).pathname.replace(/\$$/, "") }))
    .filter(({ prefix }) => path.startsWith(prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
  assert.ok(covering, `a <content> covers ${path}`);
  const server = covering.c.getAttribute("server");
  assert.ok(server, "every <content> names its license server");
  // The first license that pays per crawl or is free: what a crawler licenses a read under.
  const license = [...covering.c.getElementsByTagName("license")].find((l) =>
    [...l.getElementsByTagName("payment")].some((p) =>
      ["crawl", "free"].includes(p.getAttribute("type")!)
    )
  )!;
  assert.ok(license);
  const amount = license.getElementsByTagName("amount")[0]?.textContent ?? null;
  return { server, license: license.toString(), amount };
}

/** OLP: POST {server}/token with the client's credentials. */
function acquire(
  offer: Offer,
  client: { id: string; secret: string },
  resource: string,
  license = offer.license,
): Promise<Response> {
  return fetch(`${offer.server}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "rsl", resource, license }),
  });
}

/** A buyer with OLP credentials issued through the marketplace API. */
async function olpBuyer(folio: TestFolio) {
  const { apiKey, buyerId } = await createBuyer(folio.deps.store.db, {
    name: "Licensed Crawler Inc",
    email: "rsl@example.test",
  }, { now: folio.clock.now() });
  const auth = { authorization: `Bearer ${apiKey}` };
  const none = await json<{ client: null }>(
    await folio.request("/api/marketplace/olp-client", { headers: auth }),
  );
  assert.equal(none.client, null);
  const issue = async () => {
    const res = await folio.request("/api/marketplace/olp-client", {
      method: "POST",
      headers: auth,
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("cache-control"), "no-store");
    return await json<{ clientId: string; clientSecret: string; tokenEndpoint: string }>(res);
  };
  const first = await issue();
  const rotated = await issue();
  assert.equal(rotated.clientId, first.clientId, "rotation keeps the client id");
  assert.notEqual(rotated.clientSecret, first.clientSecret);
  const stored = await folio.deps.store.db.execute(
    "SELECT secret_hash FROM olp_clients WHERE buyer_id = ?",
    [buyerId],
  );
  assert.notEqual(String(stored.rows[0].secret_hash), rotated.clientSecret, "stored hashed");
  const listed = await json<{ client: { clientId: string } }>(
    await folio.request("/api/marketplace/olp-client", { headers: auth }),
  );
  assert.equal(listed.client.clientId, first.clientId);
  assert.equal(JSON.stringify(listed).includes(rotated.clientSecret), false, "shown once");
  return {
    buyerId,
    apiKey,
    client: { id: rotated.clientId, secret: rotated.clientSecret },
    old: { id: first.clientId, secret: first.clientSecret },
  };
}

async function paywallPaths(folio: TestFolio): Promise<string[]> {
  const rs = await folio.deps.store.db.execute(
    `SELECT site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
     AND kind = 'article' ORDER BY id LIMIT 2`,
  );
  return rs.rows.map((r) => String(r.site_path));
}

async function charges(folio: TestFolio, buyerId: string) {
  const rs = await folio.deps.store.db.execute({
    sql: `SELECT COUNT(*) AS n, COALESCE(SUM(price_micros + fee_micros), 0) AS total
          FROM charges WHERE buyer_id = ?`,
    args: [buyerId],
  });
  return { n: Number(rs.rows[0].n), total: Number(rs.rows[0].total) };
}

function challenge(res: Response): string {
  return res.headers.get("www-authenticate") ?? "";
}

/** The licensed read, its refusals and its money, through `get` (pages, or a proxy). */
async function licensedCrawl(
  folio: TestFolio,
  get: Get,
  authority: string,
  via: "robots" | "link",
  log = () => "",
) {
  const { buyerId, apiKey, client, old } = await olpBuyer(folio);
  const [path, other] = await paywallPaths(folio);
  const resource = `http://${authority}${path}`;
  const offer = await discover(get, path, via);
  assert.equal(offer.server, `${folio.url}/api/olp`);

  // Missing: a paid page asked without a credential says a license token is one way in.
  const bare = await get(path, { "user-agent": GPTBOT });
  assert.equal(bare.status, 402, log());
  assert.match(challenge(bare), /^License realm="folio", error="invalid_request"/);
  assert.match(bare.headers.get("link") ?? "", /license\.xml/);
  await bare.body?.cancel();

  // Client authentication: the rotated-out secret and a wrong one are refused alike.
  for (const bad of [old, { id: client.id, secret: "olps_wrong" }]) {
    const refused = await acquire(offer, bad, resource);
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).error, "invalid_client");
  }
  const tokenRes = await acquire(offer, client, resource);
  const issued = await tokenRes.json();
  assert.equal(tokenRes.status, 200, JSON.stringify(issued));
  assert.equal(issued.token_type, "License");
  assert.ok(issued.expires_in > 0 && issued.expires_in <= 3600);
  const token: string = issued.access_token;

  // Verifiable offline against the published JWKS.
  const jwks = await (await fetch(`${folio.url}/.well-known/jwks.json`)).json();
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: offer.server,
    currentDate: folio.clock.now(),
  });
  assert.equal(payload.resource, resource);
  assert.equal(payload.aud, "pub_demo");

  // Introspection (RFC 7662).
  const introspect = (t: string) =>
    fetch(`${offer.server}/introspect`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: t }),
    }).then((r) => r.json());
  const active = await introspect(token);
  assert.equal(active.active, true);
  assert.equal(active.resource, resource);
  assert.equal(active.client_id, client.id);

  // The licensed read: served in full, charged once by the license's terms, receipted.
  const before = await charges(folio, buyerId);
  const read = await get(path, { "user-agent": GPTBOT, authorization: `License ${token}` });
  assert.equal(read.status, 200, `${await read.clone().text()}\n${log()}`);
  const charged = read.headers.get("crawler-charged");
  assert.ok(charged, "the read states its charge");
  if (offer.amount) assert.equal(charged, `USD ${offer.amount}`);
  const receipt = read.headers.get("folio-receipt");
  assert.ok(receipt);
  await read.body?.cancel();
  const after = await charges(folio, buyerId);
  assert.equal(after.n - before.n, 1);
  const micros = Math.round(Number(charged!.slice(4)) * 1e6);
  assert.equal(after.total - before.total, micros, "the charge is the stated amount");

  // Items and receipts reconcile to the micro-dollar: the receipt verifies against the JWKS and
  // names the item the buyer's items list shows, at the same amount.
  const { payload: signed } = await compactVerify(receipt, createLocalJWKSet(jwks));
  const claims = JSON.parse(new TextDecoder().decode(signed));
  const items = await json<{ items: { receiptId: string; amountUsdMicros: number }[] }>(
    await folio.request("/api/marketplace/items", {
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  );
  const item = items.items.find((i) => i.receiptId === claims.charge.receiptId);
  assert.ok(item, "the receipt is an item's");
  assert.equal(item.amountUsdMicros, micros);
  assert.equal(claims.charge.amountUsdMicros, micros);
  await folio.deps.callLog.flush();
  const logged = await folio.deps.store.db.execute({
    sql: "SELECT COUNT(*) AS n FROM call_log WHERE identity = ? AND surface = 'landing'",
    args: [`buyer:${buyerId}`],
  });
  assert.ok(Number(logged.rows[0].n) >= 1, "in the call log");

  // Another resource: genuine, but not for this page.
  const elsewhere = await get(other, { "user-agent": GPTBOT, authorization: `License ${token}` });
  assert.equal(elsewhere.status, 403, log());
  assert.match(challenge(elsewhere), /^License realm="folio", error="insufficient_scope"/);
  await elsewhere.body?.cancel();

  // Forged: signed by a key that is not Folio's; altered: one claim changed.
  const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
  const forged = await new SignJWT({ ...payload }).setProtectedHeader({
    alg: "EdDSA",
    kid: "rk_forged",
    typ: "rsl-license+jwt",
  }).sign(privateKey);
  const [h, p, s] = token.split(".");
  const altered = [
    h,
    btoa(JSON.stringify({ ...payload, article: "x" })).replace(/=+$/, "").replace(/\+/g, "-")
      .replace(/\//g, "_"),
    s,
  ].join(".");
  assert.notEqual(p, altered.split(".")[1]);
  for (const bad of [forged, altered, "not-a-token"]) {
    const res = await get(path, { "user-agent": GPTBOT, authorization: `License ${bad}` });
    assert.equal(res.status, 401, log());
    assert.match(challenge(res), /^License realm="folio", error="invalid_token"/);
    await res.body?.cancel();
    assert.equal((await introspect(bad)).active, false);
  }

  // Expired: the clock moves past the token's life.
  folio.clock.advance((issued.expires_in + 1) * 1000);
  const expired = await get(path, { "user-agent": GPTBOT, authorization: `License ${token}` });
  assert.equal(expired.status, 401, log());
  assert.match(challenge(expired), /error="invalid_token", error_description="[^"]*expired/);
  await expired.body?.cancel();
  assert.equal((await introspect(token)).active, false);
  assert.equal((await charges(folio, buyerId)).n, after.n, "no refusal charged anything");
  return { offer, client, buyerId, apiKey };
}

Deno.test("an RSL crawler licenses a read on Folio's pages: token, read, refusals, money", async () => {
  await using folio = await startTestFolio();
  const authority = `${HOST}:${new URL(folio.url).port}`;
  const get: Get = (path, headers = {}) =>
    folio.request(path, { host: HOST, headers, checkDocumented: false });
  const { offer, client, apiKey } = await licensedCrawl(folio, get, authority, "robots");

  // The license server refuses what the publisher does not offer, naming why.
  const [path] = await paywallPaths(folio);
  const resource = `http://${authority}${path}`;
  const grant = async (license: string, res = resource) => {
    const r = await acquire(offer, client, res, license);
    return { status: r.status, body: await r.json() };
  };
  const free = await grant(
    `<license><permits type="usage">ai-input</permits><payment type="free"/></license>`,
  );
  assert.equal(free.status, 400);
  assert.equal(free.body.error, "invalid_grant");
  assert.match(free.body.error_description, /paid/);
  const low = await grant(
    `<license><permits type="usage">ai-input</permits><payment type="crawl"><amount currency="USD">0.000001</amount></payment></license>`,
  );
  assert.equal(low.body.error, "invalid_grant");
  const foreignHost = await grant(offer.license, "http://nobody.example/page");
  assert.equal(foreignHost.body.error, "invalid_target");
  const junk = await grant("not xml at all");
  assert.equal(junk.body.error, "invalid_request");

  // Another publisher: a token for the demo's page is refused by its REST API.
  const fresh = await acquire(offer, client, resource);
  const token = (await fresh.json()).access_token;
  const other = await signUp(folio);
  const foreign = await folio.request(
    `/api/v1/publishers/${other.publisherId}/articles/search?q=climate`,
    { headers: { authorization: `License ${token}` }, checkDocumented: false },
  );
  assert.equal(foreign.status, 403);
  assert.match(challenge(foreign), /^License realm="folio", error="insufficient_scope"/);
  await foreign.body?.cancel();

  // REST and MCP take it too, through the one decision: the page it names, not another.
  const ids = await folio.deps.store.db.execute(
    `SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'
     AND kind = 'article' ORDER BY id LIMIT 2`,
  );
  const [own, notOwn] = ids.rows.map((r) => String(r.id));
  const rest = (id: string) =>
    folio.request(
      `/api/v1/publishers/pub_demo/articles/${encodeURIComponent(id)}?last_user_prompt=read`,
      {
        headers: { authorization: `License ${token}` },
        checkDocumented: false,
      },
    );
  const ok = await rest(own);
  assert.equal(ok.status, 200, await ok.clone().text());
  await ok.body?.cancel();
  const denied = await rest(notOwn);
  assert.equal(denied.status, 403);
  assert.equal((await denied.json()).status, "license_denied");
  const mcp = await folio.request("/api/mcp/pub_demo", {
    method: "POST",
    headers: {
      authorization: "License forged.token.here",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "rsl", version: "1" },
      },
    }),
    checkDocumented: false,
  });
  assert.equal(mcp.status, 401);
  assert.match(challenge(mcp), /^License realm="folio", error="invalid_token"/);
  await mcp.body?.cancel();
  assert.ok(apiKey);
});

for (const proxy of ["nginx", "caddy"] as const) {
  const skip = missing(proxy);
  Deno.test({
    name: `an RSL crawler licenses a read through ${proxy}: token, read, refusals, money`,
    ignore: skip !== null,
    async fn() {
      await using folio = await startTestFolio({ env: { FOLIO_FETCH_ALLOW_LOOPBACK: "1" } });
      await using origin = startOrigin();
      const conf = await json<Record<string, { config: string }>>(
        await folio.request(`/api/publisher/gate/config?origin=${origin.url}`, {
          headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
        }),
      );
      await using running = proxy === "nginx"
        ? await startNginx((port) =>
          conf.nginx.config.replace("listen 80;", `listen 127.0.0.1:${port};`)
        )
        : await startCaddy((port) =>
          conf.caddy.config.replace(`${HOST} {`, `http://${HOST}:${port} {`)
        );
      const get: Get = (path, headers = {}) => running.fetch(HOST, path, { headers });
      await licensedCrawl(folio, get, `${HOST}:${running.port}`, "link", () => running.log());
    },
  });
}
