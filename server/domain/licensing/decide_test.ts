import assert from "node:assert/strict";
import { METERED_CAP_MICROS } from "../../platform/money.ts";
import { decide, rightsOf, termsOf } from "./mod.ts";
import type {
  ArticleFacts,
  ContentRule,
  Decision,
  DecisionInput,
  PublisherTerms,
  Requester,
  Rights,
  UsageState,
  UseCase,
} from "./mod.ts";

// Fixtures: a 12-hour-old OBSERVE article read by a US buyer over REST.
const NOW = "2025-06-15T12:00:00.000Z";
const DAY_START = "2025-06-15T00:00:00.000Z";
const DAY_END = "2025-06-16T00:00:00.000Z";
const ALL: Rights = { summarization: true, display: true, rag: true, fine_tuning: true };
const PUBLISHER: PublisherTerms = {
  id: "p1",
  name: "Daily Example",
  rights: { summarization: true, display: true, rag: true, fine_tuning: false },
  // 0.2, 5 and 0.5 cents.
  pricesMicros: { summarization: 2_000, display: 50_000, rag: 5_000 },
  paywallMeterLimit: 3,
};
const ARTICLE: ArticleFacts = {
  id: "a1",
  url: "https://news.example/2025/opinion/why-it-matters",
  citeUrl: "https://news.example/2025/opinion/why-it-matters",
  publishedAt: DAY_START,
  policy: "OBSERVE",
  priceMicros: null,
  bookCeiling: null,
};
const BUYER: Requester = {
  identity: "buyer:b1",
  buyerId: "b1",
  licensedUses: [],
  approvedUses: [],
  territory: "US",
  surface: "rest",
};
const ANON: Partial<Requester> = { identity: "sess:s1", buyerId: null };
const PAYWALL: Partial<ArticleFacts> = { policy: "PAYWALL" };
const PAYWALL_CENTS = { summarization: 0.2, display: 5, rag: 0.5 };
const FREE_CENTS = { summarization: 0, display: 0, rag: 0 };
const CHAPTER_NO_DISPLAY: Partial<ArticleFacts> = {
  bookCeiling: { ...ALL, display: false, fine_tuning: false },
};

interface Given {
  publisher?: Partial<PublisherTerms>;
  article?: Partial<ArticleFacts>;
  rules?: ContentRule[];
  requester?: Partial<Requester>;
  use?: UseCase;
  usage?: Partial<UsageState>;
  now?: string;
}

function given(g: Given): DecisionInput {
  return {
    publisher: { ...PUBLISHER, ...g.publisher },
    article: { ...ARTICLE, ...g.article },
    rules: g.rules ?? [],
    requester: { ...BUYER, ...g.requester },
    use: g.use ?? "display",
    usage: { spentThisMonthMicros: 0, budgetLeftMicros: null, meterCount: 0, ...g.usage },
    now: new Date(g.now ?? NOW),
  };
}

function rule(id: string, priority: number, r: Partial<ContentRule>): ContentRule {
  return { id, priority, match: {}, action: {}, ...r };
}

function metered(micros: number, use: UseCase = "display"): Decision["charge"] {
  return { micros, use, kind: "metered", feeMicros: 0 };
}

const usDeny = rule("deny-us", 9, { match: { territories: ["US"] }, action: { deny: true } });
const windowPrice = (start: string, end: string) =>
  rule("window", 1, { action: { priceMicros: 70_000, window: { start, end } } });

interface Case {
  name: string;
  given: Given;
  want: Partial<Decision> & { reasonMatches?: RegExp };
}

const cases: Case[] = [
  // Outcomes on OBSERVE articles: free, never metered.
  {
    name: "serves the full body of an OBSERVE article free",
    given: {},
    want: { outcome: "full", deliver: "body", charge: null, pricingUsdCents: FREE_CENTS },
  },
  {
    name: "serves the summary for summarization",
    given: { use: "summarization" },
    want: { outcome: "full", deliver: "summary", charge: null },
  },
  {
    name: "serves passages for rag",
    given: { use: "rag" },
    want: { outcome: "full", deliver: "passages", charge: null },
  },
  {
    name: "does not count a non-buyer's OBSERVE read against the meter",
    given: { requester: ANON, usage: { meterCount: 99 } },
    want: { outcome: "full", countsAgainstMeter: false, quote: null },
  },
  // Territory (step a) and BLOCKED (step b).
  {
    name: "blocks a denied territory with nothing delivered",
    given: { rules: [usDeny] },
    want: { outcome: "territory_blocked", deliver: "none", charge: null },
  },
  {
    name: "matches territory codes case-insensitively",
    given: { rules: [usDeny], requester: { territory: "us" } },
    want: { outcome: "territory_blocked" },
  },
  {
    name: "never matches a territory rule for an unknown territory",
    given: { rules: [usDeny], requester: { territory: null } },
    want: { outcome: "full", matchedRuleIds: [] },
  },
  {
    name: "keeps a territory denial when a higher-priority allow rule matches",
    given: {
      rules: [
        usDeny,
        rule("allow-us", 1, { match: { territories: ["US"] }, action: { policy: "OBSERVE" } }),
      ],
    },
    want: { outcome: "territory_blocked", matchedRuleIds: ["allow-us", "deny-us"] },
  },
  {
    name: "stacks two territory denials",
    given: {
      rules: [
        usDeny,
        rule("deny-na", 2, { match: { territories: ["ca", "us"] }, action: { deny: true } }),
      ],
    },
    want: { outcome: "territory_blocked", matchedRuleIds: ["deny-na", "deny-us"] },
  },
  {
    name: "checks territory before a BLOCKED article",
    given: { rules: [usDeny], article: { policy: "BLOCKED" } },
    want: { outcome: "territory_blocked", policy: "BLOCKED" },
  },
  {
    name: "keeps an article the publisher blocked blocked whatever policy a rule sets",
    given: {
      article: { policy: "BLOCKED" },
      rules: [rule("r1", 1, { action: { policy: "OBSERVE" } })],
    },
    want: { outcome: "blocked", deliver: "none", policy: "BLOCKED" },
  },
  {
    name: "reports a BLOCKED article as blocked with nothing delivered",
    given: { article: { policy: "BLOCKED" }, requester: { licensedUses: ["display"] } },
    want: { outcome: "blocked", deliver: "none", charge: null, policy: "BLOCKED" },
  },
  {
    name: "lets a path-prefix rule block an article",
    given: { rules: [rule("r1", 1, { match: { path: "/2025/" }, action: { policy: "BLOCKED" } })] },
    want: { outcome: "blocked", matchedRuleIds: ["r1"] },
  },
  {
    name: "lets a glob rule set PAYWALL",
    given: {
      rules: [rule("r1", 1, { match: { path: "/20*/opinion/*" }, action: { policy: "PAYWALL" } })],
    },
    want: { outcome: "full", policy: "PAYWALL", charge: metered(50_000) },
  },
  {
    name: "ignores a glob rule that does not match the pathname",
    given: {
      rules: [rule("r1", 1, { match: { path: "/20*/news/*" }, action: { policy: "BLOCKED" } })],
    },
    want: { outcome: "full", policy: "OBSERVE", matchedRuleIds: [] },
  },
  {
    name: "applies the lower priority number first",
    given: {
      rules: [
        rule("r2", 2, { action: { policy: "BLOCKED" } }),
        rule("r1", 1, { action: { policy: "PAYWALL" } }),
      ],
    },
    want: { outcome: "full", policy: "PAYWALL", matchedRuleIds: ["r1"] },
  },
  {
    name: "paywalls an article inside its embargo",
    given: {
      rules: [
        rule("embargo", 1, { match: { publishedWithinHours: 24 }, action: { policy: "PAYWALL" } }),
      ],
    },
    want: { policy: "PAYWALL", charge: metered(50_000) },
  },
  {
    name: "ends an embargo exactly at its age limit",
    given: {
      rules: [
        rule("embargo", 1, { match: { publishedWithinHours: 24 }, action: { policy: "PAYWALL" } }),
      ],
      now: DAY_END,
    },
    want: { policy: "OBSERVE", charge: null, matchedRuleIds: [] },
  },
  // Rights and book ceilings (steps c and d).
  {
    name: "limits display to the summary when the publisher withholds display",
    given: { publisher: { rights: { ...ALL, display: false } } },
    want: {
      outcome: "license_limited",
      deliver: "summary",
      charge: null,
      reasonMatches: /summar.*Cite https:/,
    },
  },
  {
    name: "denies display when neither display nor summarization is granted",
    given: { publisher: { rights: { ...ALL, display: false, summarization: false } } },
    want: { outcome: "license_denied", deliver: "none", reasonMatches: /request_license/ },
  },
  {
    name: "denies summarization the publisher withholds",
    given: { use: "summarization", publisher: { rights: { ...ALL, summarization: false } } },
    want: { outcome: "license_denied", reasonMatches: /request_license/ },
  },
  {
    name: "keeps rag for a licensee after the publisher's default withholds it (the rights table)",
    given: {
      use: "rag",
      publisher: { rights: { ...ALL, rag: false } },
      requester: { licensedUses: ["rag"] },
    },
    want: { outcome: "full", deliver: "passages", charge: null },
  },
  {
    name: "denies rag to a buyer without a license when the publisher withholds it",
    given: { use: "rag", publisher: { rights: { ...ALL, rag: false } } },
    want: { outcome: "license_denied", deliver: "none" },
  },
  {
    name: "denies display when the book ceiling withholds it even to a licensed buyer",
    given: {
      article: { ...CHAPTER_NO_DISPLAY, ...PAYWALL },
      requester: { licensedUses: ["display"] },
    },
    want: {
      outcome: "license_limited",
      deliver: "summary",
      charge: null,
      rights: { summarization: true, display: false, rag: true, fine_tuning: false },
    },
  },
  {
    name: "denies rag when the book ceiling withholds it",
    given: { use: "rag", article: { bookCeiling: { ...ALL, rag: false } } },
    want: { outcome: "license_denied", rights: { ...PUBLISHER.rights, rag: false } },
  },
  {
    name: "denies fine_tuning without an approved license when the publisher withholds it",
    given: { use: "fine_tuning" },
    want: { outcome: "license_denied", reasonMatches: /request_license/ },
  },
  {
    name: "grants fine_tuning to everyone when the publisher grants it, priced like display",
    given: { use: "fine_tuning", publisher: { rights: ALL }, article: PAYWALL },
    want: { outcome: "full", deliver: "body", rights: ALL, charge: metered(50_000, "fine_tuning") },
  },
  {
    name: "grants fine_tuning through an approved license request",
    given: {
      use: "fine_tuning",
      article: PAYWALL,
      requester: { licensedUses: ["fine_tuning"], approvedUses: ["fine_tuning"] },
    },
    want: {
      outcome: "full",
      deliver: "body",
      charge: null,
      // The license block tells this buyer the truth: fine_tuning is granted to it.
      rights: { ...PUBLISHER.rights, fine_tuning: true },
    },
  },
  {
    name: "grants display the publisher approved for this buyer beyond its default rights",
    given: {
      article: PAYWALL,
      publisher: { rights: { ...ALL, display: false } },
      requester: { licensedUses: ["display"], approvedUses: ["display"] },
    },
    want: { outcome: "full", charge: null, rights: ALL },
  },
  {
    name: "keeps a withdrawn use for a subscriber to the end of the paid month, uncharged",
    given: {
      article: PAYWALL,
      publisher: { rights: { ...PUBLISHER.rights, display: false } },
      requester: { licensedUses: ["display"] },
    },
    want: { outcome: "full", charge: null, rights: PUBLISHER.rights },
  },
  {
    name: "keeps an approved use under the book ceiling",
    given: {
      article: CHAPTER_NO_DISPLAY,
      requester: { licensedUses: ["display"], approvedUses: ["display"] },
    },
    want: { outcome: "license_limited" },
  },
  {
    name: "caps a fine_tuning license by the book ceiling",
    given: {
      use: "fine_tuning",
      article: CHAPTER_NO_DISPLAY,
      requester: { licensedUses: ["fine_tuning"] },
    },
    want: { outcome: "license_denied" },
  },
  // Prices (step e) and licenses (step f).
  {
    name: "charges a buyer the publisher's display price on a PAYWALL article",
    given: { article: PAYWALL },
    want: {
      outcome: "full",
      deliver: "body",
      charge: metered(50_000),
      pricingUsdCents: PAYWALL_CENTS,
    },
  },
  {
    name: "prefers the article price override to the publisher price",
    given: { article: { ...PAYWALL, priceMicros: 30_000 } },
    want: { charge: metered(30_000), pricingUsdCents: { ...PAYWALL_CENTS, display: 3 } },
  },
  {
    name: "prefers the article override to a rule price inside its window (SPEC: overrides win)",
    given: {
      article: { ...PAYWALL, priceMicros: 30_000 },
      rules: [windowPrice(DAY_START, DAY_END)],
    },
    want: {
      charge: metered(30_000),
      pricingUsdCents: { ...PAYWALL_CENTS, display: 3 },
      matchedRuleIds: ["window"],
    },
  },
  {
    name: "prefers a rule price inside its window to the publisher price",
    given: { article: PAYWALL, rules: [windowPrice(DAY_START, DAY_END)] },
    want: {
      charge: metered(70_000),
      pricingUsdCents: { ...PAYWALL_CENTS, display: 7 },
      matchedRuleIds: ["window"],
    },
  },
  {
    name: "prefers the article override to the price of a rule that makes the article PAYWALL",
    given: {
      article: { priceMicros: 30_000 },
      rules: [rule("paywall", 1, { action: { policy: "PAYWALL", priceMicros: 70_000 } })],
    },
    want: { policy: "PAYWALL", charge: metered(30_000), matchedRuleIds: ["paywall"] },
  },
  {
    name: "applies a windowed rule price at the window start",
    given: { article: PAYWALL, rules: [windowPrice(NOW, DAY_END)] },
    want: { charge: metered(70_000) },
  },
  {
    name: "drops a windowed rule price at the window end",
    given: { article: { ...PAYWALL, priceMicros: 30_000 }, rules: [windowPrice(DAY_START, NOW)] },
    want: { charge: metered(30_000), matchedRuleIds: [] },
  },
  {
    name: "drops a windowed rule price before the window opens",
    given: { article: PAYWALL, rules: [windowPrice(DAY_END, "2025-06-17T00:00:00.000Z")] },
    want: { charge: metered(50_000), matchedRuleIds: [] },
  },
  {
    name: "applies a rule price to display only",
    given: { use: "summarization", article: PAYWALL, rules: [windowPrice(DAY_START, DAY_END)] },
    want: { outcome: "full", deliver: "summary", charge: metered(2_000, "summarization") },
  },
  {
    name: "charges nothing for a rule price on an OBSERVE article",
    given: { rules: [rule("r1", 1, { action: { priceMicros: 70_000 } })] },
    want: { outcome: "full", charge: null, pricingUsdCents: FREE_CENTS },
  },
  {
    name: "serves a zero-priced PAYWALL article free without metering",
    given: { article: { ...PAYWALL, priceMicros: 0 }, requester: ANON, usage: { meterCount: 3 } },
    want: { outcome: "full", charge: null, countsAgainstMeter: false },
  },
  {
    name: "suppresses the charge when a license covers the use",
    given: { article: PAYWALL, requester: { licensedUses: ["display"] } },
    want: { outcome: "full", deliver: "body", charge: null, pricingUsdCents: PAYWALL_CENTS },
  },
  {
    name: "still charges for a use the license does not cover",
    given: {
      use: "rag",
      article: PAYWALL,
      requester: { licensedUses: ["display", "summarization"] },
    },
    want: { outcome: "full", deliver: "passages", charge: metered(5_000, "rag") },
  },
  {
    name: "serves a licensed non-buyer on PAYWALL without counting the meter",
    given: {
      article: PAYWALL,
      requester: { ...ANON, identity: "oauth:c1", licensedUses: ["display"] },
    },
    want: { outcome: "full", charge: null, countsAgainstMeter: false },
  },
  // The monthly cap (step g).
  {
    name: "charges a buyer whose spend reaches the cap exactly",
    given: { article: PAYWALL, usage: { spentThisMonthMicros: METERED_CAP_MICROS - 50_000 } },
    want: { outcome: "full", charge: metered(50_000), capped: false },
  },
  {
    name: "falls back to the summary when the monthly cap is reached",
    given: { article: PAYWALL, usage: { spentThisMonthMicros: METERED_CAP_MICROS - 50_000 + 1 } },
    want: {
      outcome: "license_limited",
      deliver: "summary",
      charge: null,
      capped: true,
      reasonMatches: /cap/,
    },
  },
  {
    name: "denies rag once the monthly cap is reached",
    given: { use: "rag", article: PAYWALL, usage: { spentThisMonthMicros: METERED_CAP_MICROS } },
    want: { outcome: "license_denied", deliver: "none", charge: null, capped: true },
  },
  {
    name: "denies display at the cap when summarization is withheld",
    given: {
      article: PAYWALL,
      publisher: { rights: { ...ALL, summarization: false } },
      usage: { spentThisMonthMicros: METERED_CAP_MICROS },
    },
    want: { outcome: "license_denied", capped: true },
  },
  // The buyer's own budgets (step g), below the cap and the same way.
  {
    name: "charges a buyer whose budget covers the read exactly",
    given: { article: PAYWALL, usage: { budgetLeftMicros: 50_000 } },
    want: { outcome: "full", charge: metered(50_000), capped: false },
  },
  {
    name: "falls back to the summary when the buyer's budget does not cover the read",
    given: { article: PAYWALL, usage: { budgetLeftMicros: 49_999 } },
    want: {
      outcome: "license_limited",
      deliver: "summary",
      charge: null,
      capped: true,
      reasonMatches: /budget/,
    },
  },
  {
    name: "denies rag when the budget is spent",
    given: { use: "rag", article: PAYWALL, usage: { budgetLeftMicros: 0 } },
    want: { outcome: "license_denied", capped: true, reasonMatches: /budget/ },
  },
  {
    name: "names the cap, not the budget, when the cap binds first",
    given: {
      article: PAYWALL,
      usage: { spentThisMonthMicros: METERED_CAP_MICROS, budgetLeftMicros: 10_000_000 },
    },
    want: { outcome: "license_limited", capped: true, reasonMatches: /cap/ },
  },
  {
    name: "ignores budgets on a read a license covers",
    given: {
      article: PAYWALL,
      requester: { licensedUses: ["display"] },
      usage: { budgetLeftMicros: 0 },
    },
    want: { outcome: "full", charge: null, capped: false },
  },
  // The landing/WAF path: price + 4.7% fee.
  {
    name: "charges a buyer on the landing path the price plus the platform fee",
    given: { article: PAYWALL, requester: { surface: "landing" } },
    want: {
      outcome: "full",
      charge: { micros: 52_350, use: "display", kind: "landing", feeMicros: 2_350 },
    },
  },
  {
    name: "charges a half-cent landing read 5000 micros plus a 235 micro fee",
    given: { article: { ...PAYWALL, priceMicros: 5_000 }, requester: { surface: "landing" } },
    want: { charge: { micros: 5_235, use: "display", kind: "landing", feeMicros: 235 } },
  },
  {
    name: "counts the landing fee against the monthly cap",
    given: {
      article: PAYWALL,
      requester: { surface: "landing" },
      usage: { spentThisMonthMicros: METERED_CAP_MICROS - 52_349 },
    },
    want: { outcome: "license_limited", capped: true, charge: null },
  },
  {
    name: "quotes price plus fee to a non-buyer on the landing path",
    given: {
      article: PAYWALL,
      requester: { ...ANON, identity: "crawler:gptbot", surface: "landing" },
    },
    want: {
      outcome: "payment_required",
      deliver: "none",
      charge: null,
      quote: { micros: 52_350, feeMicros: 2_350 },
      countsAgainstMeter: false,
    },
  },
  // A paying crawler's terms on the landing path: charged, or escalated by robots.txt.
  {
    name: "escalates an OBSERVE article to PAYWALL for a charged crawler, at the crawler price",
    given: {
      requester: {
        surface: "landing",
        crawl: { why: "charge", priceMicros: 10_000 },
      },
    },
    want: {
      outcome: "full",
      policy: "PAYWALL",
      charge: { micros: 10_470, use: "display", kind: "landing", feeMicros: 470 },
    },
  },
  {
    name: "quotes a robots-disallowed crawler the publisher's display price on an OBSERVE article",
    given: {
      requester: {
        ...ANON,
        identity: "crawler:GPTBot",
        surface: "landing",
        crawl: { why: "robots", priceMicros: null },
      },
    },
    want: { outcome: "payment_required", quote: { micros: 52_350, feeMicros: 2_350 } },
  },
  {
    name: "keeps the per-article price over the crawler price",
    given: {
      article: { ...PAYWALL, priceMicros: 20_000 },
      requester: { surface: "landing", crawl: { why: "charge", priceMicros: 10_000 } },
    },
    want: { charge: { micros: 20_940, use: "display", kind: "landing", feeMicros: 940 } },
  },
  {
    name: "keeps a rule's price over the crawler price",
    given: {
      rules: [{ id: "r1", priority: 1, match: {}, action: { priceMicros: 30_000 } }],
      requester: { surface: "landing", crawl: { why: "robots", priceMicros: 10_000 } },
    },
    want: { charge: { micros: 31_410, use: "display", kind: "landing", feeMicros: 1_410 } },
  },
  {
    name: "never unblocks a BLOCKED article for a paying crawler",
    given: {
      article: { policy: "BLOCKED" },
      requester: { surface: "landing", crawl: { why: "charge", priceMicros: 10_000 } },
    },
    want: { outcome: "blocked", charge: null },
  },
  {
    name: "lets a licensed buyer's crawler read an escalated page without charge",
    given: {
      requester: {
        surface: "landing",
        licensedUses: ["display"],
        crawl: { why: "charge", priceMicros: 10_000 },
      },
    },
    want: { outcome: "full", policy: "PAYWALL", charge: null },
  },
  // The paywall meter for non-buyers (step h).
  {
    name: "serves and counts a non-buyer's last free metered read",
    given: { article: PAYWALL, requester: ANON, usage: { meterCount: 2 } },
    want: { outcome: "full", deliver: "body", charge: null, countsAgainstMeter: true },
  },
  {
    name: "upsells a non-buyer whose meter is used up",
    given: { article: PAYWALL, requester: ANON, usage: { meterCount: 3 } },
    want: { outcome: "paywall_upsell", deliver: "none", charge: null, countsAgainstMeter: false },
  },
  {
    name: "upsells at once when the meter limit is zero",
    given: { article: PAYWALL, requester: ANON, publisher: { paywallMeterLimit: 0 } },
    want: { outcome: "paywall_upsell", reasonMatches: /buyer/ },
  },
];

for (const c of cases) {
  Deno.test(`decide() ${c.name}`, () => {
    const { reasonMatches, ...want } = c.want;
    const got = decide(given(c.given));
    const picked = Object.fromEntries(Object.keys(want).map((k) => [k, got[k as keyof Decision]]));
    assert.deepEqual(picked, want);
    if (reasonMatches) assert.match(got.reason, reasonMatches);
    assert.ok(got.reason.length > 0);
  });
}

Deno.test("decide() is pure: same input, same decision, input untouched", () => {
  const input = given({ article: PAYWALL, rules: [windowPrice(DAY_START, DAY_END), usDeny] });
  const snapshot = structuredClone(input);
  assert.deepEqual(decide(input), decide(input));
  assert.deepEqual(input, snapshot);
});

Deno.test("rightsOf() a caller without licenses: publisher rights ∩ the book ceiling", () => {
  const { requester } = given({});
  assert.deepEqual(
    rightsOf({ publisher: PUBLISHER, article: ARTICLE, requester }),
    PUBLISHER.rights,
  );
  const chapter = { ...ARTICLE, ...CHAPTER_NO_DISPLAY };
  assert.deepEqual(
    rightsOf({ publisher: { ...PUBLISHER, rights: ALL }, article: chapter, requester }),
    {
      summarization: true,
      display: false,
      rag: true,
      fine_tuning: false,
    },
  );
});

Deno.test("termsOf() names what set the policy and the display price", () => {
  const pub = { pricesMicros: PUBLISHER.pricesMicros };
  const paywall = { policy: "PAYWALL" as const, priceMicros: null };
  assert.deepEqual(termsOf(pub, paywall, {}), {
    policy: "PAYWALL",
    prices: PUBLISHER.pricesMicros,
    policyFrom: "article",
    priceFrom: "publisher",
    ruleId: null,
  });
  const byRule = { ruleId: "r1", policy: "PAYWALL" as const, priceMicros: 70_000 };
  const observe = { policy: "OBSERVE" as const, priceMicros: null };
  assert.deepEqual(termsOf(pub, observe, byRule), {
    policy: "PAYWALL",
    prices: { ...PUBLISHER.pricesMicros, display: 70_000 },
    policyFrom: "rule",
    priceFrom: "rule",
    ruleId: "r1",
  });
  const own = termsOf(pub, { ...observe, priceMicros: 0 }, byRule);
  assert.equal(own.prices.display, 0);
  assert.equal(own.priceFrom, "article");
  // A price rule on an OBSERVE article prices nothing.
  const free = termsOf(pub, observe, { ruleId: "r2", priceMicros: 70_000 });
  assert.deepEqual([free.prices.display, free.priceFrom, free.policyFrom], [0, null, "article"]);
  // A paying crawler: OBSERVE becomes PAYWALL; the crawler price comes after article and rule.
  const crawl = { why: "robots" as const, priceMicros: 9_000 };
  const escalated = termsOf(pub, observe, {}, crawl);
  assert.deepEqual(
    [escalated.policy, escalated.policyFrom, escalated.prices.display, escalated.priceFrom],
    ["PAYWALL", "crawler", 9_000, "crawler"],
  );
  assert.equal(termsOf(pub, { ...observe, priceMicros: 1_000 }, {}, crawl).priceFrom, "article");
  assert.equal(
    termsOf(pub, observe, { ruleId: "r2", priceMicros: 70_000 }, crawl).priceFrom,
    "rule",
  );
});
