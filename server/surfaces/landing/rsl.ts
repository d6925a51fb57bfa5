/**
 * The publisher's RSL 1.0 license document, served at `https://{publisher_host}/license.xml` as
 * `application/rsl+xml` and named by the host's robots.txt `License:` line (`robots_txt.ts`).
 *
 * Reference: Really Simple Licensing (RSL) 1.0, https://rslstandard.org/rsl (namespace
 * `https://rslstandard.org/rsl`; §2.2 media type; §3 document model: `<rsl>` → `<content url>` →
 * `<license>` → `<permits>`/`<prohibits type="usage|user|geo">`, `<payment type>` with `<amount
 * currency>`, `<standard>`, `<custom>`, `<legal>`; `<copyright>` and `<terms>` under `<content>`;
 * §3.4.1 the usage vocabulary `all ai-all ai-train ai-input ai-index search`; §3.7 payment types
 * `purchase subscription training crawl use contribution attribution free`).
 *
 * Pure: everything comes in through `RslInput`; every text and attribute is escaped. What a path
 * costs is not decided here: it is `termsOf()`'s answer (server/domain/licensing/decide.ts, the
 * one decision) for a crawler with the publisher's default terms, so license.xml states what the
 * landing path charges (server/surfaces/landing/rsl_terms_test.ts).
 *
 * @module
 */

import type { ContentRule, Policy } from "../../../store/vocabulary.ts";
import { type CrawlTerms, pathMatches, termsOf } from "../../domain/licensing/mod.ts";
import { permittedUsages, type Usage } from "../../domain/rsl/usages.ts";
import { licenseChallenge } from "../../domain/rsl/license_tokens.ts";
export { crawlTermsOf } from "../../domain/rsl/usages.ts";
import {
  PLATFORM_FEE_BPS,
  PLATFORM_FEE_TEXT,
  usdDecimal,
  withPlatformFee,
} from "../../platform/money.ts";

/** RSL 1.0 §2.2: the media type of a standalone RSL document. */
export const RSL_CONTENT_TYPE = "application/rsl+xml";

/**
 * The `Link` header value that points a crawler at license.xml (RFC 8288), with its media type so a
 * crawler knows it is RSL without fetching it. Every landing answer that carries one uses this.
 */
export function licenseLink(licenseXmlUrl: string): string {
  return `<${licenseXmlUrl}>; rel="license"; type="${RSL_CONTENT_TYPE}"`;
}

/**
 * The Crawler Authorization Protocol's challenge on a paid page asked without a credential: a
 * license token from the server license.xml names is one way in (docs/decisions/rsl.md), beside
 * pay-per-crawl's price headers on the same 402.
 */
export const LICENSE_REQUIRED = licenseChallenge(
  "invalid_request",
  "A license is required: acquire a token from the license server license.xml names",
);

/** RSL 1.0: the one namespace of every RSL element. */
export const RSL_NAMESPACE = "https://rslstandard.org/rsl";

/** What the license document is built from. Money is integer micro-dollars. */
export interface RslInput {
  publisherName: string;
  /** "https://news.example": the content the license covers is `${origin}/`. */
  origin: string;
  /** The human-readable terms page. */
  termsUrl: string;
  /** Where licenses are obtained: the marketplace, e.g. "https://folio.example/buyer". */
  licenseServer: string;
  /**
   * The RSL license server (OLP, docs/decisions/rsl.md) named by every `<content server>`, e.g.
   * "https://folio.example/api/olp"; absent in documents written without one.
   */
  olpServer?: string;
  rights: { summarization: boolean; display: boolean; rag: boolean; fine_tuning: boolean };
  /** The publisher's per-use prices; `display` is the page price when nothing else sets one. */
  pricesMicros: { summarization: number; display: number; rag: number };
  /** A crawler's terms by the publisher's default (`crawlTermsOf()`): charged for every page, or null. */
  crawl: CrawlTerms | null;
  /** The platform fee in basis points; must be money.ts's PLATFORM_FEE_BPS (470). */
  platformFeeBps: number;
  /** Content rules: path-scoped policies/prices and territory denials are mapped where RSL can. */
  rules: ContentRule[];
  /** Articles with terms of their own (not OBSERVE, or an own price), by their path on the host. */
  articles?: RslArticle[];
}

/** An article whose own policy or price differs from the site's: a `<content>` of its own. */
export interface RslArticle {
  path: string;
  policy: Policy;
  priceMicros: number | null;
}

/** A page on the site no article or rule sets apart: OBSERVE, the publisher's prices. */
const PLAIN_PAGE = { policy: "OBSERVE", priceMicros: null } as const;

/** What a path costs a crawler: free, a per-page price (publisher's, before the fee), or no AI. */
type Terms =
  | { kind: "free" }
  | { kind: "paid"; priceMicros: number }
  | { kind: "blocked" };

/** A rule policy/price RSL can express: one URL pattern (or the whole site) and its effect. */
interface ScopedRule {
  id: string;
  /** Folio's pattern (prefix or `*` glob); undefined: every article. */
  path?: string;
  policy?: "OBSERVE" | "PAYWALL" | "BLOCKED";
  priceMicros?: number;
}

/** A territory denial: geo codes (or everyone) under a path (or everywhere). */
interface Denial {
  path?: string;
  /** ISO 3166-1 alpha-2, upper case; null: denied to every reader. */
  territories: string[] | null;
}

/** The publisher's RSL 1.0 document: well-formed XML, every text and attribute escaped. */
export function rslDocument(input: RslInput): string {
  const { header, root } = rslTree(input);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    ...header.map((line) => `<!-- ${commentText(line)} -->`),
    rslXml(root),
    "",
  ].join("\n");
}

/** The `<rsl>` element alone as XML (also what a page embeds: RSL 1.0's embedded licenses). */
export function rslXml(root: XmlNode): string {
  return render(root, 0);
}

/**
 * The document as a tree: the `<rsl>` element and the header lines said in its comments, for
 * the XML (`rslDocument`) and for the page that says it in words (ui/site/license.tsx).
 */
export function rslTree(input: RslInput): { header: string[]; root: XmlNode } {
  if (input.platformFeeBps !== PLATFORM_FEE_BPS) {
    // money.ts is the one place that does price arithmetic, and its fee is PLATFORM_FEE_BPS.
    throw new RangeError(
      `Cannot price the RSL document with a ${input.platformFeeBps} bps fee: ` +
        `the platform fee is ${PLATFORM_FEE_BPS} bps (server/platform/money.ts)`,
    );
  }
  const origin = input.origin.replace(/\/+$/, "");
  const notes: string[] = [];
  const { scoped, denials } = expressibleRules(input.rules, notes);
  const articles = (input.articles ?? []).filter((a) => {
    const ok = rslPattern(a.path) !== null;
    if (!ok) notes.push("an article whose path is not an RSL URL pattern was left out");
    return ok;
  });

  // Terms at a pattern: termsOf() for the article there (else the article whose path covers it,
  // else a plain page) under the first rule that matches it (an article's path as the decision
  // matches it; another pattern when the rule's covers it), for a crawler on default terms.
  const termsAt = (pattern: string): Terms => {
    const own = articles.find((a) => a.path === pattern);
    const outer = articles.filter((a) => covers(a.path, pattern))
      .sort((a, b) => b.path.length - a.path.length)[0];
    const article = own ?? outer ?? PLAIN_PAGE;
    const rule = scoped.find((r) =>
      r.path === undefined || (own ? pathMatches(r.path, pattern) : covers(r.path, pattern))
    );
    const decided = termsOf(
      input,
      article,
      { policy: rule?.policy, priceMicros: rule?.priceMicros, ruleId: rule?.id },
      input.crawl,
    );
    if (decided.policy === "BLOCKED") return { kind: "blocked" };
    if (decided.policy === "OBSERVE") return { kind: "free" };
    return { kind: "paid", priceMicros: decided.prices.display };
  };

  // One <content> per distinct pattern: the site, each article set apart, each rule's path.
  const patterns = ["/"];
  const paths = [...articles.map((a) => a.path), ...scoped.map((r) => r.path)];
  for (const p of [...paths, ...denials.map((d) => d.path)]) {
    if (p !== undefined && !patterns.includes(p)) patterns.push(p);
  }

  const usages = permittedUsages(input.rights);
  const contents = patterns.map((pattern) => {
    const applying = denials.filter((d) => d.path === undefined || covers(d.path, pattern));
    const deniedToAll = applying.some((d) => d.territories === null);
    const geo = [...new Set(applying.flatMap((d) => d.territories ?? []))].sort();
    const terms: Terms = deniedToAll ? { kind: "blocked" } : termsAt(pattern);
    const server: Record<string, string> = input.olpServer ? { server: input.olpServer } : {};
    return el("content", { url: `${origin}${rslPattern(pattern)}`, ...server }, [
      ...licenses(terms, deniedToAll, geo, usages, input),
      el("copyright", { type: "organization" }, input.publisherName),
      el("terms", {}, input.termsUrl),
    ]);
  });

  const header = [
    `RSL 1.0 license (${RSL_NAMESPACE}).`,
    `Amounts are USD per crawled page and include the ${PLATFORM_FEE_TEXT} platform fee.`,
    "Usage: ai-input stands for display, summarization and rag; ai-index and search for rag.",
    input.rights.fine_tuning
      ? "ai-train (fine_tuning) is granted with every read, and on an approved license request."
      : "ai-train (fine_tuning) is licensed only on an approved license request: the training license.",
    "Metered per-read prices for marketplace buyers are on the terms page.",
    ...(input.olpServer
      ? [
        `content@server is Folio's RSL license server (OLP): POST ${input.olpServer}/token with`,
        "grant_type=rsl, a <license> and the resource, as a buyer's OLP client; read with",
        "Authorization: License <token>. No encrypted assets are offered: there is no key endpoint.",
      ]
      : []),
    ...notes.map((n) => `Not expressed in RSL: ${n}.`),
  ];
  return { header, root: el("rsl", { xmlns: RSL_NAMESPACE }, contents) };
}

// ---- rules --------------------------------------------------------------------------------

/** The rules RSL can express, in Folio's evaluation order; the rest are named in `notes`. */
function expressibleRules(
  rules: readonly ContentRule[],
  notes: string[],
): { scoped: ScopedRule[]; denials: Denial[] } {
  const scoped: ScopedRule[] = [];
  const denials: Denial[] = [];
  // Folio's order (server/domain/licensing/rules.ts): lower priority first, ties by id (code units).
  const ordered = [...rules].sort((a, b) =>
    a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
  for (const rule of ordered) {
    const { path, publishedWithinHours, territories } = rule.match;
    const { policy, priceMicros, window, deny } = rule.action;
    const id = rule.id;
    if (publishedWithinHours !== undefined) {
      notes.push(`rule ${id}, an embargo by article age (RSL has no notion of publication age)`);
      continue;
    }
    if (path !== undefined && rslPattern(path) === null) {
      notes.push(`rule ${id}, whose path is not an RSL URL pattern`);
      continue;
    }
    if (deny) {
      const codes = territories?.map((t) => t.toUpperCase());
      if (codes && !codes.every((c) => /^[A-Z]{2}$/.test(c))) {
        notes.push(`rule ${id}, a denial naming a territory that is not an ISO 3166-1 code`);
        continue;
      }
      // RSL 1.0 §3.4: <prohibits type="geo"> takes ISO 3166-1 alpha-2 codes. Folio matches the
      // reader's territory; RSL's geo restricts where a licensee may use the content (the literal
      // reading we take). A denial without territories denies every reader.
      denials.push({ path, territories: codes ?? null });
      continue;
    }
    if (territories !== undefined) {
      notes.push(`rule ${id}, a policy or price for readers in some territories only`);
      continue;
    }
    // A price bounded in time cannot be stated in a document without dates: RSL has none.
    const price = window === undefined ? priceMicros : undefined;
    if (priceMicros !== undefined && window !== undefined) {
      notes.push(`the time window of rule ${id}'s price (the price is left out)`);
    }
    if (policy === undefined && price === undefined) continue;
    scoped.push({ id, path, policy, priceMicros: price });
  }
  return { scoped, denials };
}

/**
 * Folio's pattern as an RSL `content@url` path (RFC 9309 matching, RSL 1.0 §3.3): a prefix stays a
 * prefix; a glob, which Folio matches in full, gets RFC 9309's end anchor `$` unless it ends in
 * `*`. Null when it cannot be written: not a path, control characters, or a literal trailing `$`.
 */
function rslPattern(pattern: string): string | null {
  // deno-lint-ignore no-control-regex
  if (!pattern.startsWith("/") || /[\u0000-\u0020\u007f#]/.test(pattern)) return null;
  if (pattern.endsWith("$")) return null;
  return pattern.includes("*") && !pattern.endsWith("*") ? `${pattern}$` : pattern;
}

/** Whether Folio pattern `outer` matches every URL `inner` matches (conservatively: prefixes). */
function covers(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  return !outer.includes("*") && inner.startsWith(outer);
}

// ---- licenses -----------------------------------------------------------------------------

function licenses(
  terms: Terms,
  deniedToAll: boolean,
  geo: string[],
  usages: Usage[],
  input: RslInput,
): XmlNode[] {
  const geoProhibits = geo.length ? [el("prohibits", { type: "geo" }, geo.join(" "))] : [];
  const contact = el("legal", { type: "contact" }, input.licenseServer);
  if (terms.kind === "blocked") {
    // BLOCKED: no AI use at all (ai-all); a denial to every reader: no use at all (all).
    return [el("license", {}, [
      el("prohibits", { type: "usage" }, deniedToAll ? "all" : "ai-all"),
      contact,
    ])];
  }
  const denied: Usage[] = (["ai-input", "ai-index", "search"] as const).filter((u) =>
    !usages.includes(u)
  );
  // Unless the publisher grants fine_tuning to all, only an approved license request does.
  if (!input.rights.fine_tuning) denied.push("ai-train");
  const usageTerms = [
    ...(usages.length ? [el("permits", { type: "usage" }, usages.join(" "))] : []),
    ...(denied.length ? [el("prohibits", { type: "usage" }, denied.join(" "))] : []),
    ...geoProhibits,
  ];
  const out: XmlNode[] = [];
  if (usages.length === 0) {
    out.push(el("license", {}, [...usageTerms, contact]));
  } else if (terms.kind === "free" || terms.priceMicros === 0) {
    out.push(el("license", {}, [...usageTerms, el("payment", { type: "free" }, []), contact]));
  } else {
    const { total } = withPlatformFee(terms.priceMicros);
    out.push(
      el("license", {}, [
        ...usageTerms,
        el("payment", { type: "crawl" }, [
          el("amount", { currency: "USD" }, usdDecimal(total)),
          el("custom", {}, input.termsUrl),
        ]),
        contact,
      ]),
      el("license", {}, [
        ...usageTerms,
        el("payment", { type: "subscription" }, [el("custom", {}, input.licenseServer)]),
        contact,
      ]),
    );
  }
  // Training is licensed per buyer on request, at terms agreed there (no amount to state).
  out.push(el("license", {}, [
    el("permits", { type: "usage" }, "ai-train"),
    ...geoProhibits,
    el("payment", { type: "training" }, [el("custom", {}, input.licenseServer)]),
    contact,
  ]));
  return out;
}

// ---- XML ----------------------------------------------------------------------------------

/** An element of the document: its name, attributes, and text or child elements. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  body: string | XmlNode[];
}

function el(name: string, attrs: Record<string, string>, body: string | XmlNode[]): XmlNode {
  return { name, attrs, body };
}

function render(node: XmlNode, depth: number): string {
  const pad = "  ".repeat(depth);
  const attrs = Object.entries(node.attrs).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join("");
  if (typeof node.body === "string") {
    return `${pad}<${node.name}${attrs}>${escapeXml(node.body)}</${node.name}>`;
  }
  if (node.body.length === 0) return `${pad}<${node.name}${attrs}/>`;
  const inner = node.body.map((child) => render(child, depth + 1)).join("\n");
  return `${pad}<${node.name}${attrs}>\n${inner}\n${pad}</${node.name}>`;
}

/** Escape for text and attribute values; characters XML 1.0 forbids are dropped. */
function escapeXml(text: string): string {
  // With the u flag, [\ud800-\udfff] matches only unpaired surrogates.
  return text
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udfff]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    // Keep line ends and tabs in attribute values as they are (attribute normalization).
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/** A comment's text: no "--", no trailing "-", no characters XML forbids. */
function commentText(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f]/g, " ").replace(/-{2,}/g, "-").replace(/-$/, "- ");
}
