import assert from "node:assert/strict";
import robotsParserModule from "robots-parser";
import { robotsTxt, type RobotsTxtInput } from "./robots_txt.ts";

interface Parsed {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getSitemaps(): string[];
}
// The package's typings declare an ambient module, which hides its default export's signature.
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => Parsed;

const TYPICAL: RobotsTxtInput = {
  licenseXmlUrl: "https://news.example/license.xml",
  sitemapUrl: "https://news.example/sitemap.xml",
  blocked: ["GPTBot", "CCBot"],
  charged: ["Bytespider", "PerplexityBot"],
  disallowPaths: ["/api/", "/ask"],
  signals: { search: true, aiInput: true, aiTrain: false },
};

Deno.test("robotsTxt: the exact text for a typical publisher", () => {
  assert.deepEqual(
    robotsTxt(TYPICAL),
    `License: https://news.example/license.xml

# Blocked by the publisher.
User-agent: GPTBot
User-agent: CCBot
Disallow: /

# Charged: may crawl; each page answers HTTP 402 with its price until paid.
User-agent: Bytespider
User-agent: PerplexityBot
Content-Signal: search=yes, ai-input=yes, ai-train=no
Allow: /
Disallow: /api/
Disallow: /ask

User-agent: *
Content-Signal: search=yes, ai-input=yes, ai-train=no
Allow: /
Disallow: /api/
Disallow: /ask

Sitemap: https://news.example/sitemap.xml
`,
  );
});

Deno.test("robotsTxt: the least input is a License line and an open * group", () => {
  assert.deepEqual(
    robotsTxt({
      licenseXmlUrl: "https://news.example/license.xml",
      blocked: [],
      charged: [],
      disallowPaths: [],
    }),
    "License: https://news.example/license.xml\n\nUser-agent: *\nAllow: /\n",
  );
});

Deno.test("robotsTxt: injection attempts are left out, never written", () => {
  const text = robotsTxt({
    licenseXmlUrl: "https://news.example/license.xml\r\nUser-agent: *\nDisallow: /",
    sitemapUrl: "https://news.example/sitemap.xml\nDisallow: /#frag",
    blocked: ["GPTBot\nDisallow: /", "CCBot\r", "Bad Bot", "*", "Bot:x", "", "Good_Bot-2"],
    charged: ["Evil\nAllow: /", "gptbot2#x", "AI2Bot"],
    disallowPaths: ["/api/\nAllow: /", "no-slash", "/has space", "/ok/", "/c#comment", "/ask"],
  });
  const lines = text.split("\n");
  // Every line is one we generate.
  for (const line of lines) {
    assert.ok(
      line === "" || line.startsWith("#") ||
        /^(License|Sitemap|User-agent|Allow|Disallow|Content-Signal): \S+/.test(line),
      `unexpected line ${JSON.stringify(line)}`,
    );
  }
  assert.deepEqual(lines.filter((l) => l.startsWith("User-agent:")), [
    "User-agent: Good_Bot-2",
    "User-agent: AI2Bot",
    "User-agent: *",
  ]);
  assert.deepEqual(lines.filter((l) => l.startsWith("Disallow:")), [
    "Disallow: /", // Good_Bot-2's group
    "Disallow: /ok/",
    "Disallow: /ask",
    "Disallow: /ok/",
    "Disallow: /ask",
  ]);
  // CR/LF are stripped from URLs: what was meant as a new line is now part of one URL.
  assert.deepEqual(
    lines[0],
    "License: https://news.example/license.xmlUser-agent:%20*Disallow:%20/",
  );
  assert.deepEqual(lines.at(-2), "Sitemap: https://news.example/sitemap.xmlDisallow:%20/");
  assert.ok(text.endsWith("\n"));
  assert.ok(!text.includes("\r"));
});

Deno.test("robotsTxt: a URL that is not an absolute http(s) URL is left out", () => {
  const text = robotsTxt({
    licenseXmlUrl: "javascript:alert(1)",
    sitemapUrl: "/sitemap.xml",
    blocked: [],
    charged: [],
    disallowPaths: [],
  });
  assert.deepEqual(text, "User-agent: *\nAllow: /\n");
});

Deno.test("robotsTxt: a token both blocked and charged is blocked; duplicates are written once", () => {
  const text = robotsTxt({
    ...TYPICAL,
    blocked: ["GPTBot", "gptbot"],
    charged: ["GPTBOT", "Bytespider", "bytespider"],
    signals: undefined,
  });
  assert.deepEqual(
    text.split("\n").filter((l) => l.startsWith("User-agent:")),
    ["User-agent: GPTBot", "User-agent: Bytespider", "User-agent: *"],
  );
  assert.ok(!text.includes("Content-Signal"));
});

Deno.test("robotsTxt: robots-parser reads blocked tokens as disallowed and charged ones as allowed", () => {
  const robots = robotsParser("https://news.example/robots.txt", robotsTxt(TYPICAL));
  const page = "https://news.example/2030/01/01/story.html";
  for (
    const ua of [
      "GPTBot",
      "CCBot",
      "GPTBot/1.2",
    ]
  ) {
    assert.deepEqual(robots.isAllowed(page, ua), false, ua);
  }
  for (const ua of ["Bytespider", "PerplexityBot", "Googlebot"]) {
    assert.deepEqual(robots.isAllowed(page, ua), true, ua);
    assert.deepEqual(robots.isAllowed("https://news.example/api/v1/articles", ua), false, ua);
    assert.deepEqual(robots.isAllowed("https://news.example/ask?q=x", ua), false, ua);
  }
  assert.deepEqual(robots.getSitemaps(), ["https://news.example/sitemap.xml"]);
});
