/**
 * Who visits the demo publisher in its made-up past (server/seed/history.ts): AI crawlers on the
 * landing path, three buyers' agents on REST, MCP and A2A, and anonymous MCP and NLWeb callers.
 * Each has a share of the day's calls, a trend over the 30 days, and the calls it makes.
 */
import type { Surface, UseCase } from "../../store/vocabulary.ts";

/** One kind of call a visitor makes: the logged tool, its weight, and the use when it reads. */
export interface Move {
  tool: string;
  weight: number;
  /** The article read for this use; absent for calls that read none (search, robots.txt). */
  use?: UseCase;
}

/** A visitor of the past. `buyer` ones become demo buyers, with this name. */
export interface Visitor {
  surface: Surface;
  userAgent: string;
  /** `crawler:<family>`, `sess:…`, `ip:…`; a buyer's is `buyer:<id>` once created. */
  identity?: string;
  buyer?: { name: string; email: string };
  /** Its share of a day's calls at the start of the window, and at its end. */
  share: [start: number, end: number];
  moves: Move[];
  /** Reads only OBSERVE articles (a caller without a buyer key stays within the free ones). */
  freeOnly?: boolean;
}

const LANDING: Move[] = [
  { tool: "_landing:article", weight: 12, use: "display" },
  { tool: "_landing:robots.txt", weight: 1 },
  { tool: "_landing:home", weight: 1 },
];

const crawler = (family: string, ua: string, share: [number, number]): Visitor => ({
  surface: "landing",
  identity: `crawler:${family}`,
  userAgent: ua,
  share,
  moves: LANDING,
});

/** The cast, busiest first at the end of the window. */
export const VISITORS: Visitor[] = [
  crawler(
    "GPTBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
    [16, 22],
  ),
  crawler(
    "ClaudeBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
    [12, 14],
  ),
  crawler(
    "PerplexityBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
    [6, 12],
  ),
  crawler(
    "OAI-SearchBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
    [3, 8],
  ),
  crawler("CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)", [9, 3]),
  crawler(
    "Bytespider",
    "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
    [5, 2],
  ),
  {
    surface: "rest",
    userAgent: "northwind-research/2.3 (+https://northwind.example/bot)",
    buyer: { name: "Northwind Research", email: "agents@northwind.example" },
    share: [10, 14],
    moves: [
      { tool: "_rest:search_articles", weight: 4 },
      { tool: "_rest:get_article", weight: 5, use: "display" },
      { tool: "_rest:retrieve_passages", weight: 2, use: "rag" },
    ],
  },
  {
    surface: "mcp",
    userAgent: "atlas-assistant/1.4 (MCP; +https://atlas.example)",
    buyer: { name: "Atlas Assistant", email: "billing@atlas.example" },
    share: [4, 12],
    moves: [
      { tool: "search_articles", weight: 3 },
      { tool: "get_article", weight: 4, use: "display" },
      { tool: "retrieve_passages", weight: 3, use: "rag" },
    ],
  },
  {
    surface: "a2a",
    userAgent: "quill-agents/0.9 (A2A)",
    buyer: { name: "Quill Labs", email: "ops@quill.example" },
    share: [3, 5],
    moves: [
      { tool: "search_articles", weight: 2 },
      { tool: "get_article", weight: 3, use: "summarization" },
    ],
  },
  {
    surface: "mcp",
    identity: "sess:demo-history",
    userAgent: "claude-ai/0.1.0 (MCP)",
    share: [6, 6],
    freeOnly: true,
    moves: [
      { tool: "search_articles", weight: 3 },
      { tool: "get_article", weight: 2, use: "display" },
    ],
  },
  {
    surface: "nlweb",
    identity: "ip:203.0.113.7",
    userAgent: "nlweb-client/0.5",
    share: [2, 3],
    moves: [{ tool: "_nlweb:ask", weight: 1 }],
  },
];

/** What end users asked before a read (reader intents), with the article's title put in. */
export const PROMPTS = [
  (t: string) => `Summarise "${t}" for a briefing note`,
  (t: string) => `What are the main findings of ${t}?`,
  (t: string) => `Is "${t}" still accurate this year?`,
  (t: string) => `Give me three quotes from ${t} with citations`,
  (t: string) => `Explain ${t} to a ten-year-old`,
];
