/**
 * Test collections for the search evaluation (scripts/eval_search_suite.ts): any folder in the
 * Cranfield format (`cran.all.1400` of `.I/.T/.A/.W` records, `queries.train.tsv`,
 * `qrels.train.tsv`), and collections built from it or from public data, so that fusion is judged
 * on catalogs unlike the one it was first tuned on:
 * - `<name>-half-titles`: every other document keeps only its title, as a catalog of headlines
 *   beside long essays (issue 41's third collection had half its documents titles only);
 * - `bbc-headlines`: the 2,225 BBC articles without their headlines, each headline a query whose
 *   one relevant document is its own article (a known-item collection);
 * - `bbc-leads`: the articles with their headlines but without their first sentence, which is the
 *   query for its article (a different seventh of the articles from `bbc-headlines`);
 * - `bbc-briefs`: a catalog of briefs, each article cut to its headline and first paragraph,
 *   searched by the first sentence of its last paragraph (words the brief need not share);
 * - `<name>-titles`: every document cut to its title (a catalog of headlines alone).
 */
import type { Judged } from "./cranfield_cv.ts";

/** One collection: documents, queries and judgements (grades as in Cranfield: 1 best, -1 not). */
export interface Collection {
  name: string;
  docs: { id: string; title: string; author: string; body: string }[];
  queries: [id: string, text: string][];
  qrels: Record<string, Judged>;
}

const SHARED = new URL("../../shared/data/", import.meta.url).pathname;

/**
 * A folder in the Cranfield format. A field runs to the next marker line of any letter, so the
 * other classic collections' markers (CACM's `.K` keywords, `.N`, `.X`) end it too; CRLF files
 * read as LF.
 */
export async function loadCranfieldFormat(dir: string, name = dir): Promise<Collection> {
  const lines = async (file: string) =>
    (await Deno.readTextFile(`${dir}/${file}`)).replace(/\r\n?/g, "\n");
  const raw = await lines("cran.all.1400");
  const docs = raw.split(/^\.I /m).slice(1).map((rec) => {
    const id = rec.split("\n", 1)[0].trim();
    const field = (f: string) =>
      (new RegExp(`^\\.${f}[ \\t]*\\n([\\s\\S]*?)(?=^\\.[A-Z][ \\t]*\\n|$(?![\\s\\S]))`, "m")
        .exec(rec)?.[1] ?? "")
        .replace(/\s+/g, " ").trim();
    return { id, title: field("T"), author: field("A"), body: field("W") };
  });
  const queries = (await lines("queries.train.tsv")).trim().split("\n")
    .map((l) => l.split("\t")).filter((p) => p.length === 2 && /^\d+$/.test(p[0].trim()))
    .map(([id, text]) => [id.trim(), text.trim()] as [string, string]);
  const qrels: Record<string, Judged> = {};
  for (const line of (await lines("qrels.train.tsv")).trim().split("\n").slice(1)) {
    const [q, d, g] = line.trim().split(/\s+/);
    (qrels[q] ??= new Map()).set(d, Number(g));
  }
  return { name, docs, queries, qrels };
}

/** Every other document (odd ids) cut to its title. */
export function halfTitles(c: Collection): Collection {
  return {
    ...c,
    name: `${c.name}-half-titles`,
    docs: c.docs.map((d, i) => i % 2 === 1 ? { ...d, body: "" } : d),
  };
}

/** The BBC articles, in folder order: headline and paragraphs (sport/199.txt is Latin-1). */
async function bbcArticles(dir: string): Promise<{ headline: string; paragraphs: string[] }[]> {
  const out: { headline: string; paragraphs: string[] }[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (const topic of ["business", "entertainment", "politics", "sport", "tech"]) {
    const names = [...Deno.readDirSync(`${dir}/${topic}`)].map((e) => e.name)
      .filter((n) => n.endsWith(".txt")).sort();
    for (const file of names) {
      const bytes = await Deno.readFile(`${dir}/${topic}/${file}`);
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        text = new TextDecoder("latin1").decode(bytes);
      }
      const [headline, ...rest] = text.trim().split("\n");
      const paragraphs = rest.map((p) => p.trim()).filter(Boolean);
      out.push({ headline: headline.trim(), paragraphs });
    }
  }
  return out;
}

/** A paragraph's first sentence and the rest of it ("Mr", "St" and decimals do not end one). */
export function firstSentence(paragraph: string): [string, string] {
  const end =
    /(?<!\b(?:Mr|Mrs|Ms|Dr|St|Mt|No|vs|Jr|Sr|Gen|Sen|Rep|Prof|[A-Z]))[.!?]["'”]?\s+(?=["'“]?[A-Z0-9])/
      .exec(paragraph);
  if (!end) return [paragraph, ""];
  const at = end.index + end[0].length;
  return [paragraph.slice(0, at).trim(), paragraph.slice(at).trim()];
}

/**
 * A known-item collection over the BBC articles: every seventh article (from `offset`) is asked
 * for by its query; `shape` gives each article's indexed document and its query.
 */
async function bbcKnownItem(
  name: string,
  offset: number,
  shape: (a: { headline: string; paragraphs: string[] }) => {
    doc: { title: string; body: string };
    query: string;
  },
  dir: string,
): Promise<Collection> {
  const docs: Collection["docs"] = [];
  const queries: Collection["queries"] = [];
  const qrels: Record<string, Judged> = {};
  for (const article of await bbcArticles(dir)) {
    const id = String(docs.length + 1);
    const { doc, query } = shape(article);
    docs.push({ id, author: "", ...doc });
    if (docs.length % 7 === offset && query) {
      queries.push([id, query]);
      qrels[id] = new Map([[id, 1]]);
    }
  }
  return { name, docs, queries, qrels };
}

/** The BBC articles without their headlines; every seventh headline is a query for its article. */
export function bbcHeadlines(dir = `${SHARED}bbc`): Promise<Collection> {
  return bbcKnownItem("bbc-headlines", 0, (a) => ({
    doc: { title: "", body: a.paragraphs.join("\n\n") },
    query: a.headline,
  }), dir);
}

/** The BBC articles without their first sentence, which asks for its article. */
export function bbcLeads(dir = `${SHARED}bbc`): Promise<Collection> {
  return bbcKnownItem("bbc-leads", 3, (a) => {
    const [lead, rest] = firstSentence(a.paragraphs[0] ?? "");
    return {
      doc: { title: a.headline, body: [rest, ...a.paragraphs.slice(1)].join("\n\n").trim() },
      query: lead,
    };
  }, dir);
}

/** Briefs (headline and first paragraph) asked for by their last paragraph's first sentence. */
export function bbcBriefs(dir = `${SHARED}bbc`): Promise<Collection> {
  return bbcKnownItem("bbc-briefs", 5, (a) => ({
    doc: { title: a.headline, body: a.paragraphs[0] ?? "" },
    query: a.paragraphs.length > 2 ? firstSentence(a.paragraphs.at(-1)!)[0] : "",
  }), dir);
}

/** Every document cut to its title. */
export function titlesOnly(c: Collection): Collection {
  return { ...c, name: `${c.name}-titles`, docs: c.docs.map((d) => ({ ...d, body: "" })) };
}

/**
 * A collection by name: a folder path, `cranfield`, `cisi`, `bbc-headlines`, `bbc-leads`,
 * `bbc-briefs`, or `<x>-half-titles` / `<x>-titles` of a folder collection.
 */
export async function collection(name: string): Promise<Collection> {
  if (name === "bbc-headlines") return await bbcHeadlines();
  if (name === "bbc-leads") return await bbcLeads();
  if (name === "bbc-briefs") return await bbcBriefs();
  const variant = /-(half-titles|titles)$/.exec(name)?.[1];
  const base = variant ? name.slice(0, -variant.length - 1) : name;
  const dir = base.includes("/") ? base : `${SHARED}${base}`;
  const c = await loadCranfieldFormat(dir, base.includes("/") ? base.split("/").at(-1)! : base);
  return variant === "half-titles" ? halfTitles(c) : variant === "titles" ? titlesOnly(c) : c;
}
