/**
 * A small form-posting visitor for portal tests in process (the publisher console here, the buyer
 * portal in tests/buyer_helpers.ts): it keeps cookies, follows redirects, and fills forms the way
 * a browser without JavaScript would (hidden fields included). The real browser walks the same
 * pages in tests/console_browser_test.ts and tests/buyer_browser_test.ts.
 */
import assert from "node:assert/strict";
import type { TestFolio } from "./helpers.ts";
import { PASSWORD } from "./manage_helpers.ts";
import { DEMO_CONSOLE_EMAIL } from "../server/seed/demo.ts";

/** A page as the visitor got it. */
export interface Visited {
  status: number;
  url: string;
  html: string;
  headers: Headers;
}

/** A visitor with a cookie jar. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  constructor(readonly folio: TestFolio) {}

  /** GET `path`, following redirects. */
  get(path: string): Promise<Visited> {
    return this.#go(path, { method: "GET" });
  }

  /** POSTs `fields` as a urlencoded form to `path`, following the redirect. */
  post(path: string, fields: Record<string, string | string[]>): Promise<Visited> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
      for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    }
    return this.#go(path, {
      method: "POST",
      body: body.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }

  /** POSTs a multipart form (file uploads). */
  postMultipart(path: string, form: FormData): Promise<Visited> {
    return this.#go(path, { method: "POST", body: form });
  }

  async #go(path: string, init: RequestInit, hops = 0): Promise<Visited> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) {
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const res = await this.folio.request(path, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const [name, value] = pair.split("=");
      const gone = attrs.some((a) => /max-age=0\b/i.test(a.trim())) || value === "";
      if (gone) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      assert.ok(hops < 5, "too many redirects");
      const next = new URL(location, "http://x");
      return this.#go(`${next.pathname}${next.search}`, { method: "GET" }, hops + 1);
    }
    return { status: res.status, url: path, html: await res.text(), headers: res.headers };
  }
}

/** The value of a hidden input named `name` in `html` (the first one). */
export function hidden(html: string, name = "_csrf"): string {
  const m = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  assert.ok(m, `no hidden ${name} field in the page`);
  return m[1];
}

/** Signs a new publisher up through the console; returns the visitor (signed in) and its key. */
export async function consoleSignUp(
  folio: TestFolio,
  options: { slug?: string; name?: string } = {},
): Promise<{ visitor: Visitor; apiKey: string; email: string; slug: string }> {
  const visitor = new Visitor(folio);
  const slug = options.slug ?? `pub-${crypto.randomUUID().slice(0, 8)}`;
  const email = `${slug}@example.test`;
  const page = await visitor.get("/publisher/signup");
  const welcome = await visitor.post("/publisher/signup", {
    _csrf: hidden(page.html),
    name: options.name ?? `Publisher ${slug}`,
    email,
    slug,
    password: PASSWORD,
  });
  assert.equal(welcome.status, 200, welcome.html);
  const key = /data-copy="(pk_[^"]+)"/.exec(welcome.html);
  assert.ok(key, "the welcome page shows the key");
  return { visitor, apiKey: key[1], email, slug };
}

/** The text of a page with tags removed and whitespace folded, for "the page says" checks. */
export function textOf(html: string): string {
  return html.replace(/<style[\s\S]*?<\/style>/g, "").replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&").replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/\s+/g, " ").trim();
}

/** A visitor signed in to the seeded demo publisher (which has articles) with its console login. */
export async function demoVisitor(folio: TestFolio): Promise<Visitor> {
  assert.ok(folio.seeded, "the demo publisher is seeded");
  const visitor = new Visitor(folio);
  const page = await visitor.get("/publisher/login");
  const signedIn = await visitor.post("/publisher/login", {
    _csrf: hidden(page.html),
    email: DEMO_CONSOLE_EMAIL,
    password: folio.seeded.consolePassword,
    next: "/publisher",
  });
  assert.equal(signedIn.status, 200, signedIn.html);
  assert.equal(signedIn.url, "/publisher");
  return visitor;
}

/** Each checklist step's state (its class) and the mark the page shows for it. */
export function checklistMarks(html: string): [state: string, mark: string][] {
  return [...html.matchAll(/<li class="(done|todo)"><span class="mark"[^>]*>([^<]*)</g)]
    .map((m) => [m[1], m[2]]);
}

/** Whether any <style> of the page holds escaped text, which a browser would read literally. */
export function escapedStyle(html: string): boolean {
  return [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)]
    .some((m) => /&(quot|amp|lt|gt|#39|#x27);/.test(m[1]));
}
