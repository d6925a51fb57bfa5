/** Shared by the landing tests: the demo publisher's host, crawler User-Agents, article paths. */
import type { TestFolio } from "./helpers.ts";

export const HOST = "demo.localhost";
/** The Link header of every page and crawler-error answer: license.xml, typed as RSL. */
export const RSL_LINK =
  /^<http:\/\/demo\.localhost(:\d+)?\/license\.xml>; rel="license"; type="application\/rsl\+xml"$/;
export const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
export const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
export const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** A demo article's path on the host, by policy (and whether it has its own price). */
export async function demoPath(
  folio: TestFolio,
  policy: "OBSERVE" | "PAYWALL" | "BLOCKED",
): Promise<{ id: string; path: string; priceMicros: number | null }> {
  const rs = await folio.deps.store.db.execute({
    sql: `SELECT id, site_path, price_micros FROM articles WHERE publisher_id = 'pub_demo'
          AND policy = ? AND kind = 'article' ORDER BY id LIMIT 1`,
    args: [policy],
  });
  const r = rs.rows[0];
  return {
    id: String(r.id),
    path: String(r.site_path),
    priceMicros: r.price_micros === null ? null : Number(r.price_micros),
  };
}

/** What a browser sends when a person opens an address (with the Fetch Metadata request headers). */
export const BROWSER_NAVIGATION = {
  "user-agent": BROWSER,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
};

/** GET a path on the demo publisher's host. */
export function visit(
  folio: TestFolio,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return folio.request(path, { host: HOST, headers: { "user-agent": BROWSER, ...headers } });
}

/** A run of plain words from the middle of an article's body: present only when it is served. */
export async function bodySample(folio: TestFolio, id: string): Promise<string> {
  const rs = await folio.deps.store.db.execute({
    sql: "SELECT body FROM articles WHERE id = ?",
    args: [id],
  });
  const body = String(rs.rows[0].body);
  return /[A-Za-z ]{30,}/.exec(body.slice(Math.floor(body.length / 2)))![0].trim();
}
