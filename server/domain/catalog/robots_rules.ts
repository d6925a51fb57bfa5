/**
 * robots.txt rules (RFC 9309) as a pure function of the file's text. The `robots-parser` package
 * groups agents, merges groups and picks the longest match (allow on ties, `*` and `$`) the way
 * RFC 9309 section 2.2 says; the text it is handed is first rewritten into the plain form it reads
 * correctly, because on its own it misses product tokens followed by more words, rule lines
 * without a colon, percent-encoding equivalence and the size limit (scripts/eval_robots.ts counts
 * the difference).
 */
import robotsParserModule from "robots-parser";

/** Our product token: the start of the fetcher's User-Agent (server/runtime.ts USER_AGENT). */
export const ROBOTS_TOKEN = "FolioBot";
/** RFC 9309 section 2.5: crawlers must parse at least 500 KiB; what follows is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

interface Parsed {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
// The package's typings declare an ambient module, which hides its default export's signature.
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => Parsed;
const BASE = "http://robots.invalid";

/** The rules of one robots.txt, ready to answer for any URL path. */
export interface RobotsRules {
  /** Whether `url` (absolute, or a path) may be fetched by the crawler with `token`. */
  isAllowed(url: string, token?: string): boolean;
}

/** Parses `body`, the text of a robots.txt, keeping the first ROBOTS_MAX_BYTES of it. */
export function parseRobots(body: string): RobotsRules {
  const robots = robotsParser(`${BASE}/robots.txt`, normaliseRobots(body));
  return {
    isAllowed(url, token = ROBOTS_TOKEN) {
      const u = new URL(url, BASE);
      // RFC 9309 section 2.2.2: "/robots.txt" is implicitly allowed.
      if (u.pathname === "/robots.txt") return true;
      const path = canonicalPath(u.pathname + u.search, false);
      return robots.isAllowed(`${BASE}${path}`, productToken(token) || "*") !== false;
    },
  };
}

// Google's parser (github.com/google/robotstxt, robots.cc) accepts these frequent misspellings.
const KEYS: Record<string, "user-agent" | "allow" | "disallow"> = {
  "user-agent": "user-agent",
  "useragent": "user-agent",
  "user agent": "user-agent",
  "allow": "allow",
  "disallow": "disallow",
  "dissallow": "disallow",
  "dissalow": "disallow",
  "disalow": "disallow",
  "diasllow": "disallow",
  "disallaw": "disallow",
};

/**
 * The file rewritten as only `user-agent`, `allow` and `disallow` lines in canonical form, cut at
 * ROBOTS_MAX_BYTES. Other records (sitemap, crawl-delay, typos of nothing) are dropped so they
 * cannot split a run of user-agent lines (section 2.2: other records must not interfere).
 */
export function normaliseRobots(body: string): string {
  const out: string[] = [];
  for (const raw of truncate(body).replace(/^\uFEFF/, "").split(/\r\n|\r|\n/)) {
    const kv = keyValue(raw.replace(/#.*/, "").trim());
    if (!kv) continue;
    const key = KEYS[kv[0].toLowerCase().replace(/\s+/g, " ")];
    if (key === "user-agent") {
      const token = productToken(kv[1]);
      if (token) out.push(`user-agent: ${token}`);
    } else if (key) {
      out.push(`${key}: ${kv[1] ? canonicalPath(kv[1], true) : ""}`);
    }
  }
  // A last group with no rules still names its agents, who may then fetch everything (section
  // 2.2.2); robots-parser only records an agent once a rule line follows it.
  if (out.at(-1)?.startsWith("user-agent:")) out.push("disallow:");
  return out.join("\n");
}

/** The first ROBOTS_MAX_BYTES of UTF-8, without the line the cut falls in. */
function truncate(body: string): string {
  const bytes = new TextEncoder().encode(body);
  if (bytes.length <= ROBOTS_MAX_BYTES) return body;
  const cut = new TextDecoder().decode(bytes.subarray(0, ROBOTS_MAX_BYTES));
  return cut.slice(0, Math.max(0, cut.search(/[\r\n][^\r\n]*$/)));
}

/**
 * Key and value of a line. Without a colon, whitespace separates them when the line is exactly
 * two words ("Disallow /private"), as Google's parser accepts; anything else is not a record.
 */
function keyValue(line: string): [string, string] | null {
  const colon = line.indexOf(":");
  if (colon >= 0) return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  const words = line.split(/[ \t]+/);
  return words.length === 2 ? [words[0], words[1]] : null;
}

/**
 * The product token a user-agent line names: "*" alone, or its leading letters, "-" and "_"
 * (RFC 9309 section 2.2.1 defines the token by those characters; Google's parser reads
 * "FolioBot/1.2" and "FolioBot extra words" as FolioBot the same way).
 */
function productToken(value: string): string {
  if (/^\*(\s|$)/.test(value)) return "*";
  return /^[A-Za-z_-]*/.exec(value)![0].toLowerCase();
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// Kept as written on both sides: reserved characters that are data, and "?" before the query.
const KEEP = /^[!$&()*+,;=:@/?]$/;

/**
 * One spelling for equivalent paths (RFC 9309 section 2.2.2): non-ASCII and unsafe characters
 * percent-encoded in upper case, encoded unreserved characters decoded ("%7E" is "~"), ":" and "@"
 * decoded (the path allows them bare) and "/" and "?" too inside the query. In a URL, a literal
 * "*" or "$" becomes %2A or %24 so only a rule's own wildcards are special (section 2.2.3). The
 * result is left unchanged by robots-parser's own encoding and by the URL parser.
 */
export function canonicalPath(s: string, pattern: boolean): string {
  let out = "";
  let inQuery = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "%" && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      const hex = s.slice(i + 1, i + 3).toUpperCase();
      const ch = String.fromCharCode(parseInt(hex, 16));
      const bare = UNRESERVED.test(ch) || ch === ":" || ch === "@" ||
        (inQuery && (ch === "/" || ch === "?"));
      out += bare ? ch : `%${hex}`;
      i += 2;
      continue;
    }
    if (c === "?") inQuery = true;
    if (!pattern && (c === "*" || c === "$")) out += c === "*" ? "%2A" : "%24";
    else if (UNRESERVED.test(c) || KEEP.test(c)) out += c;
    else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      if (ch.length === 2) i++;
      for (const b of new TextEncoder().encode(ch)) {
        out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
      }
    }
  }
  return out;
}

/**
 * What a robots.txt answer means (RFC 9309 section 2.3.1): 2xx its rules; 4xx but 429, or a 3xx
 * left after the fetcher's 5 redirects, no rules ("unavailable"); 5xx, 429 and no answer (0)
 * disallow all ("unreachable"; 429 as Google treats it).
 */
export function statusRule(status: number): "parse" | "allow_all" | "disallow_all" {
  if (status >= 200 && status < 300) return "parse";
  if (status >= 300 && status < 500 && status !== 429) return "allow_all";
  return "disallow_all";
}
