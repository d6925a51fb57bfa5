import assert from "node:assert/strict";
import list from "./crawlers.json" with { type: "json" };
import { checkCrawlerList, classifyAgent, crawlerFamily, CRAWLERS } from "./crawlers.ts";

// Real User-Agent strings as the operators document them (crawlers.json `docs`).
const AGENTS: [string, string | null, string | null][] = [
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    "GPTBot",
    "training",
  ],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
    "OAI-SearchBot",
    "search",
  ],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    "ChatGPT-User",
    "user",
  ],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
    "ClaudeBot",
    "training",
  ],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)",
    "Claude-SearchBot",
    "search",
  ],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
    "Claude-User",
    "user",
  ],
  ["anthropic-ai", "anthropic-ai", "training"],
  ["CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", "training"],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
    "PerplexityBot",
    "search",
  ],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
    "Perplexity-User",
    "user",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
    "Applebot",
    "search",
  ],
  [
    "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
    "Bytespider",
    "training",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)",
    "Amazonbot",
    "training",
  ],
  [
    "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
    "meta-externalagent",
    "training",
  ],
  [
    "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
    "meta-externalfetcher",
    "user",
  ],
  [
    "Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)",
    "FacebookBot",
    "training",
  ],
  [
    "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.118 Safari/537.36 (compatible; Diffbot/0.1; +http://www.diffbot.com)",
    "Diffbot",
    "training",
  ],
  ["cohere-ai", "cohere-ai", "user"],
  ["cohere-training-data-crawler", "cohere-training-data-crawler", "training"],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; YouBot (+http://www.you.com))",
    "YouBot",
    "search",
  ],
  ["DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)", "DuckAssistBot", "search"],
  [
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
    "MistralAI-User",
    "user",
  ],
  [
    "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)",
    "PetalBot",
    "search",
  ],
  ["Timpibot/0.8 (+http://www.timpi.io)", "Timpibot", "training"],
  ["Mozilla/5.0 (compatible; ImagesiftBot; +imagesift.com)", "ImagesiftBot", "training"],
  ["omgili/0.5 +http://omgili.com", "omgili", "training"],
  ["Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler)", "AI2Bot", "training"],
  [
    "Mozilla/5.0 (compatible) Ai2Bot-Dolma (+https://www.allenai.org/crawler)",
    "Ai2Bot-Dolma",
    "training",
  ],
  [
    "Mozilla/5.0 (compatible; Kangaroo Bot/1.0; +https://kangaroollm.com.au/kangaroo-bot/)",
    "Kangaroo Bot",
    "training",
  ],
  ["Mozilla/5.0 (compatible; PanguBot;+https://zhiban.huawei.com)", "PanguBot", "training"],
  // Not AI crawlers of the list: browsers, tools, search engines and link previews.
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    null,
    null,
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    null,
    null,
  ],
  ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", null, null],
  ["curl/8.11.0", null, null],
  [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    null,
    null,
  ],
  [
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    null,
    null,
  ],
  ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", null, null],
  ["FolioBot/1.0 (+https://folio.example/bot)", null, null],
  ["", null, null],
];

Deno.test("classifyAgent names each crawler by its real User-Agent, and nothing else", () => {
  for (const [ua, family, cls] of AGENTS) {
    const got = classifyAgent(ua);
    assert.deepEqual(got?.family ?? null, family, ua);
    assert.deepEqual(got?.class ?? null, cls, ua);
  }
  assert.deepEqual(classifyAgent(null), null);
  assert.deepEqual(classifyAgent(undefined), null);
});

Deno.test("classifyAgent: the most specific entry wins", () => {
  // Both AI2Bot and Ai2Bot-Dolma match the Dolma agent case-insensitively.
  assert.deepEqual(
    classifyAgent("Ai2Bot-Dolma (+https://www.allenai.org/crawler)")?.family,
    "Ai2Bot-Dolma",
  );
  // A UA naming two crawlers: the longer, more specific name wins wherever it sits.
  assert.deepEqual(classifyAgent("ClaudeBot-ish Claude-SearchBot/1.0")?.family, "Claude-SearchBot");
  assert.deepEqual(classifyAgent("GPTBot OAI-SearchBot/1.0")?.family, "OAI-SearchBot");
  assert.deepEqual(classifyAgent("compatible; Claude-User/1.0")?.family, "Claude-User");
  // Case does not matter.
  assert.deepEqual(classifyAgent("mozilla/5.0 (compatible; gptbot/1.1)")?.family, "GPTBot");
  assert.deepEqual(classifyAgent("Kangaroobot/1.0")?.family, "Kangaroo Bot");
});

Deno.test("robots-only tokens never match a User-Agent", () => {
  for (const family of ["Google-Extended", "Applebot-Extended", "Webzio-Extended"]) {
    const entry = CRAWLERS.find((c) => c.family === family);
    assert.deepEqual(entry?.robotsTokens, [family]);
    // The token alone, as a UA, is still not that crawler (it never appears in one).
    assert.deepEqual(classifyAgent(family)?.family === family, false, family);
  }
  // Apple crawls with Applebot for both purposes: the UA says Applebot.
  assert.deepEqual(classifyAgent("Applebot-Extended")?.family, "Applebot");
});

Deno.test("CRAWLERS lists every entry, frozen", () => {
  assert.deepEqual(CRAWLERS.length, list.length);
  assert.deepEqual(Object.isFrozen(CRAWLERS), true);
  assert.deepEqual(Object.isFrozen(CRAWLERS[0]), true);
  assert.deepEqual(Object.keys(CRAWLERS[0]).sort(), [
    "class",
    "family",
    "operator",
    "robotsTokens",
  ]);
  // The brief's required families are all present.
  for (
    const f
      of "GPTBot OAI-SearchBot ChatGPT-User ClaudeBot Claude-SearchBot Claude-User anthropic-ai CCBot PerplexityBot Perplexity-User Google-Extended Applebot-Extended Applebot Bytespider Amazonbot meta-externalagent meta-externalfetcher FacebookBot Diffbot cohere-ai cohere-training-data-crawler YouBot DuckAssistBot MistralAI-User PetalBot Timpibot ImagesiftBot omgili AI2Bot Ai2Bot-Dolma PanguBot Webzio-Extended"
        .split(" ")
  ) assert.equal(crawlerFamily(f), f);
});

Deno.test("crawlerFamily is case-insensitive and returns the canonical name", () => {
  assert.deepEqual(crawlerFamily("gptbot"), "GPTBot");
  assert.deepEqual(crawlerFamily("CLAUDE-USER"), "Claude-User");
  assert.deepEqual(crawlerFamily(" kangaroo bot "), "Kangaroo Bot");
  assert.deepEqual(crawlerFamily("Googlebot"), null);
  assert.deepEqual(crawlerFamily(""), null);
});

Deno.test("a bad crawler list is refused with the entry and field named", () => {
  const good = {
    family: "X",
    operator: "Y",
    class: "training",
    pattern: "X",
    robotsTokens: ["X"],
    docs: "https://x.example",
  };
  assert.deepEqual(checkCrawlerList([good]).length, 1);
  const cases: [unknown, string][] = [
    [{}, "crawlers.json: expected an array"],
    [[null], "entry 0: expected an object"],
    [[{ ...good, family: "" }], "entry 0: family must be"],
    [[{ ...good, class: "spy" }], "entry 0 (X): class must be one of training, search, user"],
    [[{ ...good, pattern: "(" }], "entry 0 (X): pattern must be a valid regular expression"],
    [[{ ...good, pattern: "x?" }], "does not match the empty string"],
    [[{ ...good, robotsTokens: [] }], "robotsTokens must be"],
    [[{ ...good, docs: "http://x.example" }], "docs must be an https URL"],
    [[{ ...good, colour: "red" }], "colour must be absent"],
    [[good, { ...good, family: "x" }], "entry 1 (x): family must be unique"],
  ];
  for (const [raw, message] of cases) {
    assert.throws(() => checkCrawlerList(raw), (e: Error) => e.message.includes(message), message);
  }
});

Deno.test("classifyAgent answers a browser with null and a bot with its crawler, call after call", () => {
  // How long this takes is a benchmark's figure, not a test's: a test asserts only the answers.
  const browser = AGENTS.find(([ua]) => ua.includes("Chrome/131"))![0];
  const [bot, family] = AGENTS[0];
  for (let i = 0; i < 1_000; i++) {
    assert.equal(classifyAgent(browser), null);
    assert.equal(classifyAgent(bot)?.family, family);
  }
});
