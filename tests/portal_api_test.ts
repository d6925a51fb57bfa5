/**
 * The portals as clients of their APIs (server/pages/kit/api.ts, session.ts): each portal is
 * mounted over an injected ApiFetch that passes calls on to the real app, so a test can count the
 * calls or spoil an answer. A malformed answer must become the error page (a logged 500), never a
 * page drawn from wrong data; and a page asks the session API who is signed in once.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import type { AppEnv } from "../server/deps.ts";
import { requestId } from "../server/platform/middleware.ts";
import type { ApiFetch } from "../server/pages/kit/api.ts";
import { buyerRoutes } from "../server/pages/buyer/routes.ts";
import { consoleRoutes } from "../server/pages/console/routes.ts";
import { demoVisitor, hidden, textOf } from "./console_helpers.ts";
import { portalSignUp } from "./buyer_helpers.ts";
import { type TestFolio, testFolio } from "./helpers.ts";

/** The API as the app answers it, unless `spoil` answers the path instead; every path is kept. */
function apiOver(
  folio: TestFolio,
  spoil: (path: string) => Response | null = () => null,
): { api: ApiFetch; asked: string[] } {
  const asked: string[] = [];
  const api: ApiFetch = async (req) => {
    const url = new URL(req.url);
    asked.push(`${req.method} ${url.pathname}`);
    const spoiled = spoil(url.pathname);
    if (spoiled) return spoiled;
    const body = req.body ? await req.arrayBuffer() : undefined;
    return folio.request(`${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body,
    });
  };
  return { api, asked };
}

/** Both portals over `api`, as server/app.ts mounts them (request ids first). */
function portalsOver(folio: TestFolio, api: ApiFetch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requestId());
  app.route("/publisher", consoleRoutes(folio.deps, api));
  app.route("/buyer", buyerRoutes(folio.deps, api));
  return app;
}

/** The cookie header of a signed-in visitor's jar. */
function cookieOf(cookies: Map<string, string>): string {
  return [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

Deno.test("an answer its schema refuses is the error page, with the reason in the log", async () => {
  await using folio = await testFolio();
  const visitor = await demoVisitor(folio);
  const { api } = apiOver(
    folio,
    (path) => path === "/api/publisher/settings" ? Response.json({ settings: "wrong" }) : null,
  );
  const res = await portalsOver(folio, api).request("/publisher/settings", {
    headers: { cookie: cookieOf(visitor.cookies) },
  });
  const html = await res.text();
  assert.equal(res.status, 500);
  assert.match(textOf(html), /Something went wrong on our side/);
  assert.doesNotMatch(html, /name="description"/, "no settings form drawn from the bad answer");
  const logged = folio.logLines.join("\n");
  assert.match(
    logged,
    /GET \/api\/publisher\/settings answered 200 with a body its schema refuses/,
  );
});

Deno.test("a buyer page over a malformed answer is the error page too", async () => {
  await using folio = await testFolio();
  const { visitor } = await portalSignUp(folio);
  const { api } = apiOver(
    folio,
    (path) =>
      path === "/api/marketplace/licenses"
        ? Response.json({ licenses: [{ licenseId: 7, state: "lost" }] })
        : null,
  );
  const res = await portalsOver(folio, api).request("/buyer/licenses", {
    headers: { cookie: cookieOf(visitor.cookies) },
  });
  await res.body?.cancel();
  assert.equal(res.status, 500);
  assert.match(folio.logLines.join("\n"), /\/api\/marketplace\/licenses answered 200/);
});

Deno.test("every console and buyer page asks who is signed in once", async () => {
  await using folio = await testFolio();
  const publisher = await demoVisitor(folio);
  const { visitor: buyer } = await portalSignUp(folio);
  const { api, asked } = apiOver(folio);
  const portals = portalsOver(folio, api);
  const pages = [
    ...[
      "",
      "/settings",
      "/sources",
      "/books",
      "/articles",
      "/rules",
      "/calls",
      "/intents",
      "/earnings",
      "/requests",
      "/playground",
      "/account",
    ].map((p) => ({ path: `/publisher${p}`, cookies: publisher.cookies })),
    ...["", "/catalog", "/licenses", "/usage", "/budgets", "/statements", "/keys", "/crawlers"]
      .map((p) => ({ path: `/buyer${p}`, cookies: buyer.cookies })),
  ];
  for (const { path, cookies } of pages) {
    asked.length = 0;
    const res = await portals.request(path, { headers: { cookie: cookieOf(cookies) } });
    await res.body?.cancel();
    assert.equal(res.status, 200, path);
    const sessions = asked.filter((a) => /^GET \/api\/(publisher|marketplace)\/session$/.test(a));
    assert.equal(sessions.length, 1, `${path} asked: ${asked.join(", ")}`);
  }

  // Signing out asks once as well (for the session's CSRF token), then ends the session.
  const page = await portals.request("/publisher/account", {
    headers: { cookie: cookieOf(publisher.cookies) },
  });
  const csrf = hidden(await page.text());
  asked.length = 0;
  const out = await portals.request("/publisher/logout", {
    method: "POST",
    headers: {
      cookie: cookieOf(publisher.cookies),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ _csrf: csrf }).toString(),
  });
  await out.body?.cancel();
  assert.equal(out.status, 303);
  assert.equal(out.headers.get("location"), "/publisher/login?done=signed-out");
  assert.deepEqual(asked, ["GET /api/publisher/session", "POST /api/publishers/logout"]);

  // The sign-in page asks nothing.
  asked.length = 0;
  const login = await portals.request("/publisher/login");
  await login.body?.cancel();
  assert.deepEqual(asked, []);
});
