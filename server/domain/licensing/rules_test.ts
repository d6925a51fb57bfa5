import assert from "node:assert/strict";
import { articlePathname, matchRules, pathMatches, type RuleMatch } from "./rules.ts";
import type { ArticleFacts, ContentRule, Requester } from "./types.ts";

const NOW = "2025-06-15T12:00:00.000Z";
const START = "2025-06-15T00:00:00.000Z";
const END = "2025-06-16T00:00:00.000Z";
const LATER = "2025-06-17T00:00:00.000Z";
const ARTICLE: ArticleFacts = {
  id: "a1",
  url: "https://news.example/2025/opinion/why-it-matters?utm=x",
  citeUrl: "https://news.example/2025/opinion/why-it-matters",
  publishedAt: "2025-06-15T00:00:00.000Z",
  policy: "OBSERVE",
  priceMicros: null,
  bookCeiling: null,
};
const REQUESTER: Requester = {
  identity: "buyer:b1",
  buyerId: "b1",
  licensedUses: [],
  approvedUses: [],
  territory: "US",
  surface: "rest",
};

Deno.test("pathMatches() matches prefixes and full-length globs", () => {
  const cases: [pattern: string, pathname: string, expected: boolean][] = [
    ["/premium/", "/premium/a", true],
    ["/premium/", "/premium", false],
    ["/premium/", "/free/premium/a", false],
    ["/", "/anything", true],
    ["/20*/opinion/*", "/2025/opinion/why", true],
    ["/20*/opinion/*", "/2025/opinion/", true],
    ["/20*/opinion/*", "/2025/news/why", false],
    ["/20*/opinion/*", "/archive/2025/opinion/why", false],
    ["*/opinion/*", "/2025/x/opinion/y", true],
    ["/a.b*", "/axb", false],
    ["/a.b*", "/a.b/c", true],
    ["/books/*/chapter-1", "/books/x/chapter-1", true],
    ["/books/*/chapter-1", "/books/x/chapter-10", false],
  ];
  for (const [pattern, pathname, expected] of cases) {
    assert.equal(pathMatches(pattern, pathname), expected, `${pattern} vs ${pathname}`);
  }
});

Deno.test("articlePathname() reads the pathname of a URL and keeps a bare path", () => {
  assert.equal(articlePathname(ARTICLE.url), "/2025/opinion/why-it-matters");
  assert.equal(articlePathname("/books/b1/ch-2"), "/books/b1/ch-2");
});

function rule(id: string, priority: number, extra: Partial<ContentRule>): ContentRule {
  return { id, priority, match: {}, action: {}, ...extra };
}

interface Case {
  name: string;
  rules: ContentRule[];
  article?: Partial<ArticleFacts>;
  requester?: Partial<Requester>;
  now?: string;
  want: RuleMatch;
}

const NONE: RuleMatch = { denied: false, denyRuleIds: [], matchedRuleIds: [] };

const cases: Case[] = [
  { name: "matches nothing when there are no rules", rules: [], want: NONE },
  {
    name: "lets an empty match apply to every read",
    rules: [rule("r1", 1, { action: { policy: "PAYWALL" } })],
    want: { ...NONE, policy: "PAYWALL", matchedRuleIds: ["r1"] },
  },
  {
    name: "evaluates the lower priority number first",
    rules: [
      rule("late", 5, { action: { policy: "BLOCKED" } }),
      rule("early", 1, { action: { policy: "PAYWALL", priceMicros: 7 } }),
    ],
    want: { ...NONE, policy: "PAYWALL", priceMicros: 7, matchedRuleIds: ["early"] },
  },
  {
    name: "breaks priority ties by id",
    rules: [
      rule("b", 1, { action: { policy: "BLOCKED" } }),
      rule("a", 1, { action: { policy: "PAYWALL" } }),
    ],
    want: { ...NONE, policy: "PAYWALL", matchedRuleIds: ["a"] },
  },
  {
    name: "ANDs match fields together",
    rules: [
      rule("r1", 1, {
        match: { path: "/2025/", territories: ["FR"] },
        action: { policy: "BLOCKED" },
      }),
    ],
    want: NONE,
  },
  {
    name: "matches a territory case-insensitively",
    rules: [rule("r1", 1, { match: { territories: ["us"] }, action: { deny: true } })],
    want: { denied: true, denyRuleIds: ["r1"], matchedRuleIds: ["r1"] },
  },
  {
    name: "never matches a territory rule for an unknown territory",
    rules: [rule("r1", 1, { match: { territories: ["US"] }, action: { deny: true } })],
    requester: { territory: null },
    want: NONE,
  },
  {
    name: "stacks every matching denial whatever the priority order",
    rules: [
      rule("allow", 1, { match: { territories: ["US"] }, action: { policy: "OBSERVE" } }),
      rule("deny-b", 9, { match: { territories: ["US", "CA"] }, action: { deny: true } }),
      rule("deny-a", 3, { match: { territories: ["US"] }, action: { deny: true } }),
    ],
    want: {
      denied: true,
      denyRuleIds: ["deny-a", "deny-b"],
      policy: "OBSERVE",
      matchedRuleIds: ["allow", "deny-a", "deny-b"],
    },
  },
  {
    name: "matches an embargo just inside its age limit",
    rules: [rule("r1", 1, { match: { publishedWithinHours: 12 }, action: { policy: "PAYWALL" } })],
    now: "2025-06-15T11:59:59.999Z",
    want: { ...NONE, policy: "PAYWALL", matchedRuleIds: ["r1"] },
  },
  {
    name: "ends an embargo exactly at its age limit",
    rules: [rule("r1", 1, { match: { publishedWithinHours: 12 }, action: { policy: "PAYWALL" } })],
    want: NONE,
  },
  {
    name: "treats an unparseable publish date as fresh for embargo rules",
    rules: [rule("r1", 1, { match: { publishedWithinHours: 1 }, action: { policy: "BLOCKED" } })],
    article: { publishedAt: "not a date" },
    want: { ...NONE, policy: "BLOCKED", matchedRuleIds: ["r1"] },
  },
  {
    name: "applies a windowed price at the window start",
    rules: [rule("r1", 1, { action: { priceMicros: 9, window: { start: NOW, end: END } } })],
    want: { ...NONE, priceMicros: 9, matchedRuleIds: ["r1"] },
  },
  {
    name: "skips a price-only rule at its window end so a later rule applies",
    rules: [
      rule("r1", 1, { action: { priceMicros: 9, window: { start: START, end: NOW } } }),
      rule("r2", 2, { action: { policy: "PAYWALL" } }),
    ],
    want: { ...NONE, policy: "PAYWALL", matchedRuleIds: ["r2"] },
  },
  {
    name: "keeps a rule's policy but drops its price outside the window",
    rules: [
      rule("r1", 1, {
        action: { policy: "PAYWALL", priceMicros: 9, window: { start: END, end: LATER } },
      }),
      rule("r2", 2, { action: { priceMicros: 11 } }),
    ],
    want: { ...NONE, policy: "PAYWALL", matchedRuleIds: ["r1"] },
  },
];

for (const c of cases) {
  Deno.test(`matchRules() ${c.name}`, () => {
    const got = matchRules(c.rules, {
      article: { ...ARTICLE, ...c.article },
      requester: { ...REQUESTER, ...c.requester },
      now: new Date(c.now ?? NOW),
    });
    const { ruleId, ...rest } = got;
    assert.deepEqual(rest, c.want);
    // ruleId names the rule that set policy or price: the one matched rule that is no denial.
    assert.equal(ruleId, c.want.matchedRuleIds.find((id) => !c.want.denyRuleIds.includes(id)));
  });
}
