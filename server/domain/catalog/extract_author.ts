/**
 * The author of an article page (docs/decisions/ingestion.md "Extraction precedence"): the first
 * source that names someone, with decoys (a desk, a domain, the site standing in for a writer)
 * dropped only on evidence. On a personal site the author is the site: a name equal to the
 * site's is kept unless something says it is an organisation (issue 30).
 */
import { byline, clean, decodeEntities, same, str, types } from "./extract_meta.ts";

type Obj = Record<string, unknown>;

/** The word before a name in a byline. */
const BY = /^by\s+/i;
/** Names that stand for a site or a desk, never for the person who wrote the piece. */
const GENERIC_AUTHORS =
  /^(admin|administrator|root|editor|editors|staff|staff writer|team|newsroom|webmaster|redaktion|rédaction|redacción|redazione|redação|editorial|editorial team|guest|anonymous|unknown)$/i;
/** A desk of a newsroom: "Herald Staff", "Metro Desk", "Editorial Team". */
const DESK = /\b(staff|desk|team|newsroom|editors|redaktion|redazione|rédaction|redacción)\b/i;
/** Words an organisation's name has and a person's has not (the site's own name is judged by). */
const ORGANISATION =
  /&|\b(the|news|times|post|journal|magazine|press|media|daily|weekly|gazette|herald|tribune|inc|ltd|llc|gmbh|network|group|team|staff|desk|co-?op|kitchen|blog)\b/i;

/** What the page says about who is who: the site's names, people and organisations. */
export interface AuthorEvidence {
  sites: string[];
  /** Names structured data types as a Person (JSON-LD, microdata, Highwire citation_author). */
  people: string[];
  /** Names JSON-LD types as an Organization. */
  orgs: string[];
}

/**
 * How a candidate name counts: "decoy" (never an author: empty, a URL or domain, a generic desk,
 * the site's name with evidence it is an organisation or a desk of it), "site" (the site's own
 * name and nothing more known: kept when no other source names anyone) or "name".
 */
export function authorKind(
  n: string,
  e: AuthorEvidence,
  options: { visible?: boolean } = {},
): "decoy" | "site" | "name" {
  if (!n || GENERIC_AUTHORS.test(n) || /^https?:\/\//i.test(n) || /^[^\s]+\.[a-z]{2,}$/i.test(n)) {
    return "decoy";
  }
  // Structured data typing a name as a Person is kept, a desk's name too ("BBC Business desk").
  if (e.people.some((p) => same(p, n))) return "name";
  // A desk printed as the page's byline is who the page says wrote it: kept when nobody else is
  // named. In a meta tag it is the site's house default, a decoy.
  if (DESK.test(n)) return options.visible ? "site" : "decoy";
  const equal = e.sites.some((s) => same(s, n));
  // "Redazione Gazzetta Veneta", "Herald Staff": a desk of the site.
  const desk = !equal && e.sites.some((s) => containsWords(n, s));
  if (!equal && !desk) return "name";
  if (desk && options.visible) return "site";
  return desk || e.orgs.some((o) => same(o, n)) || ORGANISATION.test(n) ? "decoy" : "site";
}

/**
 * The author: JSON-LD Person names (references by @id followed), article:author that is not a
 * URL, DC.creator, Highwire citation_author, microdata, rel=author, a byline element, then
 * <meta name=author>. A source naming only the site is passed over for a later one naming
 * someone else, and used when none does.
 */
export function pickAuthor(
  doc: Document,
  meta: Map<string, string[]>,
  ld: { article: Obj | null; byId: Map<string, Obj>; people: string[]; orgs: string[] },
  sites: string[],
): string {
  const citation = (meta.get("citation_author") ?? []).map(uninverted);
  const evidence: AuthorEvidence = {
    sites,
    orgs: ld.orgs,
    people: [
      ...ld.people,
      ...citation,
      ...[...doc.querySelectorAll("[itemtype*='schema.org/Person' i]")].map((el) =>
        clean(el.querySelector("[itemprop~=name]")?.textContent)
      ),
    ],
  };
  const lists: string[][] = [
    ldPeople(ld.article?.author, ld.byId),
    meta.get("article:author") ?? [],
    meta.get("dc.creator") ?? meta.get("dcterms.creator") ?? [],
    citation,
    [...doc.querySelectorAll("[itemprop~=author]")].map((el) =>
      clean(el.querySelector("[itemprop~=name]")?.textContent ?? el.textContent)
    ),
    [...doc.querySelectorAll('a[rel~="author"]')].map((a) => clean(a.textContent)),
    visible(doc, ".byline .author, .byline [class*=name], .author-name, .author"),
    // A byline with no element inside naming the author: "<p class="byline">By Ana Silva</p>".
    visible(doc, ".byline:not(:has(*))"),
    meta.get("author") ?? [],
    meta.get("parsely-author") ?? meta.get("sailthru.author") ?? [],
  ];
  let siteOnly = "";
  for (const list of lists) {
    // "By Ann Lee" in a meta tag is Ann Lee.
    const names = [...new Set(list.map((n) => clean(decodeEntities(n)).replace(BY, "")))]
      .filter((n) => n.length <= 100);
    const kinds = names.map((n) => authorKind(n, evidence, { visible: BYLINES.has(list) }));
    const named = names.filter((_, i) => kinds[i] === "name");
    if (named.length) return named.join(", ");
    siteOnly ||= names.filter((_, i) => kinds[i] === "site").join(", ");
  }
  return siteOnly;
}

/** The lists of names read off bylines a reader sees (not off metadata). */
const BYLINES = new WeakSet<string[]>();

/** The names in the page's byline elements matching `selector`, outside comments. */
function visible(doc: Document, selector: string): string[] {
  const names = [...doc.querySelectorAll(selector)]
    .filter((el) => !el.closest("[class*=comment], [id*=comment]"))
    .map((el) => byline(el.textContent));
  BYLINES.add(names);
  return names;
}

/** "Marsh, Elena" (Highwire's order) as "Elena Marsh". */
function uninverted(name: string): string {
  const parts = clean(name).split(/\s*,\s*/);
  return parts.length === 2 && parts[0] && parts[1] ? `${parts[1]} ${parts[0]}` : clean(name);
}

/** Whether `name` holds the words of `site` in a row, whole ("Redazione Gazzetta Veneta"). */
function containsWords(name: string, site: string): boolean {
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const n = words(name).join(" ");
  const s = words(site).join(" ");
  return s !== "" && ` ${n} `.includes(` ${s} `);
}
function ldPeople(v: unknown, byId: Map<string, Obj>): string[] {
  return ([] as unknown[]).concat(v ?? []).map((a) => {
    if (typeof a === "string") return a;
    if (!a || typeof a !== "object") return "";
    let o = a as Obj;
    if (typeof o["@id"] === "string" && !o.name) o = byId.get(o["@id"]) ?? o;
    return types(o).includes("organization") ? "" : str(o.name);
  }).filter(Boolean);
}
