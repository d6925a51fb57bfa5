/**
 * license.xml states what the landing path charges: for every article of a table of publisher
 * settings and content rules, the RSL amount at the article's URL equals the display price the
 * access decision's `termsOf()` gives a crawler there, plus the platform fee (docs/decisions/
 * landing-and-crawlers.md: article override > rule > crawler price > publisher price).
 */
import assert from "node:assert/strict";
import type { ContentRule, CrawlTerms } from "../../domain/licensing/mod.ts";
import { matchRules, termsOf } from "../../domain/licensing/mod.ts";
import { articleFacts } from "../../domain/reads/read_article.ts";
import { PLATFORM_FEE_BPS, usdDecimal, withPlatformFee } from "../../platform/money.ts";
import { crawlTermsOf, type RslArticle, rslDocument } from "./rsl.ts";

const ORIGIN = "https://news.example";
const NOW = new Date("2026-11-15T12:00:00Z");
const PRICES = { summarization: 1_000, display: 50_000, rag: 2_000 };

const ARTICLES: RslArticle[] = [
  { path: "/news/a", policy: "OBSERVE", priceMicros: null },
  { path: "/news/b", policy: "PAYWALL", priceMicros: null },
  { path: "/news/own", policy: "OBSERVE", priceMicros: 70_000 },
  { path: "/news/shut", policy: "BLOCKED", priceMicros: null },
  { path: "/premium/c", policy: "PAYWALL", priceMicros: 80_000 },
  { path: "/premium/e", policy: "PAYWALL", priceMicros: null },
  { path: "/free/d", policy: "OBSERVE", priceMicros: null },
  { path: "/free/paid", policy: "PAYWALL", priceMicros: null },
  { path: "/private/x", policy: "PAYWALL", priceMicros: 90_000 },
];

const rule = (
  id: string,
  priority: number,
  path: string | undefined,
  action: ContentRule["action"],
): ContentRule => ({ id, priority, match: path === undefined ? {} : { path }, action });

const RULES: ContentRule[] = [
  rule("r1", 10, "/premium/", { policy: "PAYWALL", priceMicros: 100_000 }),
  rule("r2", 20, "/free/", { policy: "OBSERVE" }),
  rule("r3", 30, "/news/", { priceMicros: 30_000 }),
  rule("r4", 5, "/private/", { policy: "BLOCKED" }),
];

interface Setting {
  name: string;
  defaultAction: "allow" | "charge" | "block";
  crawlerPriceMicros: number | null;
  rules: ContentRule[];
}

const SETTINGS: Setting[] = [
  {
    name: "every crawler charged, no crawler price",
    defaultAction: "charge",
    crawlerPriceMicros: null,
    rules: [],
  },
  {
    name: "every crawler charged at a crawler price",
    defaultAction: "charge",
    crawlerPriceMicros: 20_000,
    rules: [],
  },
  {
    name: "crawlers allowed, no crawler price",
    defaultAction: "allow",
    crawlerPriceMicros: null,
    rules: [],
  },
  {
    name: "crawlers allowed, a crawler price",
    defaultAction: "allow",
    crawlerPriceMicros: 20_000,
    rules: [],
  },
  {
    name: "charged, with rules",
    defaultAction: "charge",
    crawlerPriceMicros: 20_000,
    rules: RULES,
  },
  {
    name: "charged, rules, no crawler price",
    defaultAction: "charge",
    crawlerPriceMicros: null,
    rules: RULES,
  },
  { name: "allowed, with rules", defaultAction: "allow", crawlerPriceMicros: 20_000, rules: RULES },
  {
    name: "a site-wide paywall rule under a free rule",
    defaultAction: "allow",
    crawlerPriceMicros: null,
    rules: [
      rule("a", 1, "/free/", { policy: "OBSERVE" }),
      rule("b", 2, undefined, { policy: "PAYWALL", priceMicros: 40_000 }),
    ],
  },
];

/** What termsOf() makes of a crawler's read of `article`: "free", "blocked" or the RSL amount. */
function decided(setting: Setting, crawl: CrawlTerms | null, article: RslArticle): string {
  const facts = articleFacts(
    {
      id: article.path,
      url: `${ORIGIN}${article.path}`,
      publishedAt: "2025-01-01T00:00:00Z",
      ...article,
    },
    null,
  );
  const requester = {
    identity: "crawler:test",
    buyerId: null,
    licensedUses: [],
    approvedUses: [],
    territory: null,
    surface: "landing" as const,
    crawl,
  };
  const match = matchRules(setting.rules, { article: facts, requester, now: NOW });
  const terms = termsOf({ pricesMicros: PRICES }, facts, match, crawl);
  if (terms.policy === "BLOCKED") return "blocked";
  if (terms.policy === "OBSERVE" || terms.prices.display === 0) return "free";
  return usdDecimal(withPlatformFee(terms.prices.display).total);
}

/** What license.xml states at `path`: the most specific `<content>` whose URL pattern matches it. */
function stated(xml: string, path: string): string {
  const blocks = [...xml.matchAll(/<content url="([^"]*)">([\s\S]*?)<\/content>/g)];
  const matching = blocks
    .map(([, url, body]) => ({ pattern: url.slice(ORIGIN.length), body }))
    .filter(({ pattern }) => rfc9309Matches(pattern, path))
    .sort((a, b) => b.pattern.length - a.pattern.length);
  assert.ok(matching.length > 0, `a <content> covers ${path}`);
  const body = matching[0].body;
  const amount = /<payment type="crawl">\s*<amount currency="USD">([^<]+)<\/amount>/.exec(body);
  if (amount) return amount[1];
  if (body.includes('<payment type="free"')) return "free";
  assert.match(body, /<prohibits type="usage">(ai-all|all)<\/prohibits>/, path);
  return "blocked";
}

/** RFC 9309 section 2.2.2: `*` is any run of characters, a final `$` anchors the end. */
function rfc9309Matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`).test(path);
}

Deno.test("license.xml prices every article as termsOf() prices a crawler's read of it", () => {
  for (const setting of SETTINGS) {
    const agentPayments = {
      enabled: true,
      defaultAction: setting.defaultAction,
      crawlerPriceMicros: setting.crawlerPriceMicros,
    };
    const crawl = crawlTermsOf(agentPayments);
    const xml = rslDocument({
      publisherName: "Daily News",
      origin: ORIGIN,
      termsUrl: "https://folio.example/license/pub_1",
      licenseServer: "https://folio.example/buyer",
      rights: { summarization: true, display: true, rag: true, fine_tuning: false },
      pricesMicros: PRICES,
      crawl,
      platformFeeBps: PLATFORM_FEE_BPS,
      rules: setting.rules,
      articles: ARTICLES,
    });
    for (const article of ARTICLES) {
      assert.equal(
        stated(xml, article.path),
        decided(setting, crawl, article),
        `${setting.name}: ${article.path} (${article.policy})`,
      );
    }
  }
});

Deno.test("crawlTermsOf: a crawler is charged by default only when payments are on and the default is charge", () => {
  const on = { enabled: true, crawlerPriceMicros: 20_000 };
  assert.deepEqual(crawlTermsOf({ ...on, defaultAction: "charge" }), {
    why: "charge",
    priceMicros: 20_000,
  });
  assert.equal(crawlTermsOf({ ...on, defaultAction: "allow" }), null);
  assert.equal(crawlTermsOf({ ...on, enabled: false, defaultAction: "charge" }), null);
});
