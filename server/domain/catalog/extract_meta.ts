/**
 * What a page says about itself, read before Readability touches the document: JSON-LD (CDATA
 * wrappers, @graph and @id references included), OpenGraph, Dublin Core, microdata and the
 * visible <h1>, byline and <time>. Each field has its own precedence (docs/decisions/ingestion.md);
 * the title's is in extract_title.ts, the author's in extract_author.ts.
 */
import { pickDate } from "./dates.ts";

type Obj = Record<string, unknown>;

const CONTENT_TYPES = new Set([
  "article",
  "newsarticle",
  "blogposting",
  "reportagenewsarticle",
  "analysisnewsarticle",
  "opinionnewsarticle",
  "backgroundnewsarticle",
  "reviewnewsarticle",
  "techarticle",
  "scholarlyarticle",
  "report",
  "liveblogposting",
  "socialmediaposting",
  "discussionforumposting",
  "recipe",
  "howto",
  "review",
]);
/** Reads `<meta>` tags: lower-cased name or property → contents in document order. */
export function metaTags(doc: Document): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of doc.querySelectorAll("meta")) {
    const key = (m.getAttribute("property") ?? m.getAttribute("name") ?? "").trim().toLowerCase();
    const content = clean(m.getAttribute("content"));
    if (!key || !content) continue;
    out.set(key, [...(out.get(key) ?? []), content]);
  }
  return out;
}

/** Every JSON-LD node of the page, flattened, with the first content (article) node. */
export function jsonLd(
  doc: Document,
): { article: Obj | null; byId: Map<string, Obj>; people: string[]; orgs: string[] } {
  const nodes: Obj[] = [];
  for (const script of doc.querySelectorAll('script[type="application/ld+json" i]')) {
    // CDATA wrappers, bare or inside // and /* */ comments, are common in XHTML-era templates.
    const raw = (script.textContent ?? "")
      .replace(/^\s*(?:\/\/|\/\*)?\s*<!\[CDATA\[(?:\s*\*\/)?/, "")
      .replace(/(?:\/\/|\/\*)?\s*\]\]>\s*(?:\*\/)?\s*$/, "");
    try {
      collect(JSON.parse(raw), nodes, 0);
    } catch {
      continue; // a broken block is common in the wild; the others may still be good
    }
  }
  const byId = new Map<string, Obj>();
  for (const n of nodes) if (typeof n["@id"] === "string") byId.set(n["@id"], n);
  const article = nodes.find((n) => types(n).some((t) => CONTENT_TYPES.has(t))) ?? null;
  // Every node typed Person or Organization, nested ones (an author, a publisher) included.
  const people: string[] = [];
  const orgs: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    const o = v as Obj;
    const name = clean(str(o.name));
    if (name && types(o).includes("person")) people.push(name);
    if (name && types(o).some((t) => /organization|corporation/.test(t))) orgs.push(name);
    for (const [k, x] of Object.entries(o)) if (k !== "@graph") walk(x, depth + 1);
  };
  nodes.forEach((n) => walk(n, 0));
  return { article, byId, people, orgs };
}

function collect(node: unknown, out: Obj[], depth: number): void {
  if (depth > 6 || node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out, depth + 1);
    return;
  }
  out.push(node as Obj);
  collect((node as Obj)["@graph"], out, depth + 1);
}

export function types(n: Obj): string[] {
  return ([] as unknown[]).concat(n["@type"] ?? []).map((t) => String(t).toLowerCase());
}

/** Names the site goes by: og:site_name, the JSON-LD publisher, application-name. */
export function siteNames(meta: Map<string, string[]>, ld: Obj | null): string[] {
  const publisher = ld?.publisher as Obj | undefined;
  return [
    meta.get("og:site_name")?.[0],
    typeof publisher?.name === "string" ? publisher.name : undefined,
    meta.get("application-name")?.[0],
  ].map((s) => clean(s)).filter(Boolean);
}

/**
 * The publication date: JSON-LD datePublished, article:published_time, Dublin Core, the other
 * <meta> dates, microdata, then a <time> that is not an update's; refined by pickDate() (dates.ts).
 */
export function pickPublished(
  doc: Document,
  meta: Map<string, string[]>,
  ld: Obj | null,
): string | null {
  const m = (...keys: string[]) => keys.map((k) => meta.get(k)?.[0]);
  const itemprop = doc.querySelector("[itemprop~=datePublished]");
  const times = [...doc.querySelectorAll("time[datetime]")].filter((t) =>
    !t.closest("nav, aside, footer, [class*=related], [class*=comment]") &&
    !/updat|modif|aktualisiert|mis à jour|actualiz/i.test(
      `${t.getAttribute("class") ?? ""} ${t.parentElement?.textContent ?? ""}`,
    )
  );
  const articleTime = times.find((t) => t.closest("article, main, [itemprop=articleBody]"));
  return pickDate([
    str(ld?.datePublished),
    ...m("article:published_time", "og:article:published_time"),
    ...m("dc.date.issued", "dcterms.issued", "dc.date", "dcterms.created", "dc.date.created"),
    ...m("date", "pubdate", "publishdate", "publish-date", "publication_date", "sailthru.date"),
    ...m("parsely-pub-date", "citation_publication_date"),
    itemprop?.getAttribute("content") ?? itemprop?.getAttribute("datetime") ?? undefined,
    doc.querySelector("time[pubdate]")?.getAttribute("datetime") ?? undefined,
    (articleTime ?? times[0])?.getAttribute("datetime") ?? undefined,
  ]);
}

/** A byline element's text without its "By" and the job title after a comma. */
export function byline(s: string | null | undefined): string {
  return clean(s).replace(/^(by|von|par|por|di|de)\s+/i, "").replace(/,\s.*$/, "")
    .replace(/\s+[·|]\s.*$/, "");
}

/** Equal once case, spaces and punctuation are set aside. */
export function same(a: string, b: string): boolean {
  const ka = sameKey(a);
  return ka !== "" && ka === sameKey(b);
}

function sameKey(s: string): string {
  return s.toLowerCase().replace(/[\s\p{P}]+/gu, "");
}

/** Entities authors leave encoded inside JSON-LD and attributes ("Tom &amp; Jerry"). */
export function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  // The parser has decoded the markup once; these are the second layer templates leave, so the
  // numeric ones and the typographic names suffice (no full entity table).
  return s.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[e.toLowerCase()] ?? whole;
  });
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  hellip: "…",
  laquo: "«",
  raquo: "»",
  middot: "·",
};

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function clean(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}
