/**
 * The publisher host's own `/robots.txt` (RFC 9309): the RSL `License:` line, a group that blocks
 * the crawlers the publisher blocks, a group for the crawlers that pay per page, and the `*` group.
 *
 * Every value comes from settings, so nothing can add a line: product tokens outside the charset
 * are left out, paths must be plain paths, and URLs lose control characters (CR/LF) and fragments.
 *
 * @module
 */

/** What the host's robots.txt says. */
export interface RobotsTxtInput {
  /** Emitted as the global "License: <url>" line (RSL 1.0 §4.4, before every group). */
  licenseXmlUrl: string;
  sitemapUrl?: string | null;
  /** Robots product tokens of crawlers the publisher blocks ("GPTBot", "CCBot"...). */
  blocked: string[];
  /** Tokens of crawlers that must pay: allowed to crawl, each page answers HTTP 402 with a price. */
  charged: string[];
  /** Path prefixes no one may crawl (e.g. "/api/", "/ask"). */
  disallowPaths: string[];
  /** Cloudflare's content signals (contentsignals.org), written as a `Content-Signal:` line. */
  signals?: { search: boolean; aiInput: boolean; aiTrain: boolean };
}

/**
 * RFC 9309 §2.2.1's product-token charset is letters, `-` and `_`; digits are accepted too
 * because real tokens carry them ("AI2Bot"). Nothing else can reach the file.
 */
const PRODUCT_TOKEN = /^[A-Za-z0-9_-]+$/;

/** The robots.txt text, ending with a newline. */
export function robotsTxt(input: RobotsTxtInput): string {
  const blocked = tokens(input.blocked, []);
  const charged = tokens(input.charged, blocked);
  const paths = [...new Set(input.disallowPaths.filter(isPlainPath))];
  const signal = input.signals ? contentSignal(input.signals) : [];
  const open = [...signal, "Allow: /", ...paths.map((p) => `Disallow: ${p}`)];

  const sections: string[][] = [];
  // RSL: the License line goes before any group, so it is global and not one group's.
  const license = cleanUrl(input.licenseXmlUrl);
  if (license) sections.push([`License: ${license}`]);
  if (blocked.length) {
    sections.push([
      "# Blocked by the publisher.",
      ...blocked.map((t) => `User-agent: ${t}`),
      "Disallow: /",
    ]);
  }
  if (charged.length) {
    sections.push([
      "# Charged: may crawl; each page answers HTTP 402 with its price until paid.",
      ...charged.map((t) => `User-agent: ${t}`),
      ...open,
    ]);
  }
  sections.push(["User-agent: *", ...open]);
  const sitemap = input.sitemapUrl ? cleanUrl(input.sitemapUrl) : null;
  if (sitemap) sections.push([`Sitemap: ${sitemap}`]);
  return sections.map((lines) => lines.join("\n")).join("\n\n") + "\n";
}

/** Valid tokens, first spelling kept, case-insensitively distinct (RFC 9309 §2.2.1) and not in `taken`. */
function tokens(values: readonly string[], taken: readonly string[]): string[] {
  const seen = new Set(taken.map((t) => t.toLowerCase()));
  const out: string[] = [];
  for (const value of values) {
    if (!PRODUCT_TOKEN.test(value) || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    out.push(value);
  }
  return out;
}

/** A path rule value: starts with "/", no control characters, spaces or "#" (a comment). */
function isPlainPath(path: string): boolean {
  // deno-lint-ignore no-control-regex
  return path.startsWith("/") && !/[\u0000-\u0020\u007f#]/.test(path);
}

/** An absolute http(s) URL on one line: control characters dropped, no fragment ("#" comments). */
function cleanUrl(url: string): string | null {
  // deno-lint-ignore no-control-regex
  const text = url.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  parsed.hash = "";
  return parsed.href;
}

function contentSignal(s: NonNullable<RobotsTxtInput["signals"]>): string[] {
  const yn = (b: boolean) => (b ? "yes" : "no");
  return [
    `Content-Signal: search=${yn(s.search)}, ai-input=${yn(s.aiInput)}, ai-train=${yn(s.aiTrain)}`,
  ];
}
