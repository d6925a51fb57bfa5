/**
 * Fixtures for buyer tests: sign a buyer up and in through the marketplace API, or through the
 * buyer portal with the form-posting visitor of tests/console_helpers.ts.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { submitForm, visitPage } from "./browser.ts";
import { hidden, textOf, type Visited, Visitor } from "./console_helpers.ts";
import { json, type TestFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";

/** A signed-in buyer: the cookie (name=value) and the CSRF token its changes echo. */
export interface BuyerSession {
  buyerId: string;
  cookie: string;
  csrfToken: string;
}

/** Signs a buyer up by the API (optionally with a portal password); returns its id and key. */
export async function apiSignup(
  folio: TestFolio,
  options: { name?: string; email?: string; password?: string } = {},
): Promise<{ buyerId: string; apiKey: string }> {
  const res = await folio.request("/api/marketplace/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name: options.name ?? "Acme AI",
      email: options.email ?? "ops@acme.test",
      ...(options.password === undefined ? {} : { password: options.password }),
    }),
  });
  const body = await json<{ buyerId: string; apiKey: string }>(res);
  assert.equal(res.status, 201, JSON.stringify(body));
  return body;
}

/** Opens a session with POST /api/marketplace/session. */
export async function signIn(
  folio: TestFolio,
  credentials: { email: string; password: string } | { apiKey: string },
): Promise<BuyerSession> {
  const res = await folio.request("/api/marketplace/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const body = await json<{ buyerId: string; csrfToken: string }>(res);
  assert.equal(res.status, 201, JSON.stringify(body));
  const cookie = res.headers.get("set-cookie")!.split(";")[0];
  return { buyerId: body.buyerId, cookie, csrfToken: body.csrfToken };
}

/** Signs a buyer up through the portal; returns the visitor (signed in), its key and email. */
export async function portalSignUp(
  folio: TestFolio,
  options: { name?: string; email?: string; password?: string } = {},
): Promise<{ visitor: Visitor; apiKey: string; email: string; welcome: Visited }> {
  const visitor = new Visitor(folio);
  const email = options.email ?? `buyer-${crypto.randomUUID().slice(0, 8)}@acme.test`;
  const page = await visitor.get("/buyer/signup");
  const welcome = await visitor.post("/buyer/signup", {
    _csrf: hidden(page.html),
    name: options.name ?? "Acme AI",
    email,
    password: options.password ?? PASSWORD,
  });
  assert.equal(welcome.status, 200, welcome.html);
  const key = /data-copy="(mk_[^"]+)"/.exec(welcome.html);
  assert.ok(key, "the welcome page shows the key");
  return { visitor, apiKey: key[1], email, welcome };
}

/** A page's `role="alert"` problem text, or null. */
export function alertOf(html: string): string | null {
  const m = /<p class="problem[^"]*"[^>]*role="alert">([\s\S]*?)<\/p>/.exec(html);
  return m ? textOf(m[1]) : null;
}

/** The notice (`role="status"`) of a page, or null. */
export function noticeText(html: string): string | null {
  const m = /<p class="notice" role="status">([\s\S]*?)<\/p>/.exec(html);
  return m ? textOf(m[1]) : null;
}

/** A portal visitor signed in with an API key (e.g. of an account made by the API). */
export async function keyVisitor(folio: TestFolio, apiKey: string): Promise<Visitor> {
  const visitor = new Visitor(folio);
  const login = await visitor.get("/buyer/login");
  const page = await visitor.post("/buyer/login/key", {
    _csrf: hidden(login.html),
    apiKey,
    next: "/buyer",
  });
  assert.ok(visitor.cookies.has("folio_buyer_session"), page.html);
  return visitor;
}

/**
 * Signs a buyer up in the browser tab `page` (the sign-up page checked with axe and shot as
 * `shot`); returns the key as the welcome page shows it, read from its copy button's value.
 */
export async function browserSignUp(page: Page, base: string, shot: string): Promise<string> {
  await visitPage(page, `${base}/buyer/signup`, shot);
  const status = await submitForm(page, "form[action='/buyer/signup']", {
    name: "Acme AI",
    email: "ml@acme.example",
    password: PASSWORD,
  });
  assert.equal(status, 200);
  const apiKey = await page.$eval("[data-copy^='mk_']", (el) => el.getAttribute("data-copy")!);
  assert.match(apiKey, /^mk_[0-9A-Za-z]{38}$/);
  return apiKey;
}
