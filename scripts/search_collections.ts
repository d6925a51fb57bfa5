/**
 * Test collections for the search evaluation (scripts/eval_search_suite.ts): any folder in the
 * Cranfield format (`cran.all.1400` of `.I/.T/.A/.W` records, `queries.train.tsv`,
 * `qrels.train.tsv`), and collections built from it or from public data, so that fusion is judged
 * on catalogs unlike the one it was first tuned on:
 * - `<name>-half-titles`: every other document keeps only its title, as a catalog of headlines
 *   beside long essays (issue 41's third collection had half its documents titles only);
 * - `bbc-headlines`: the 2,225 BBC articles without their headlines, each headline a query whose
 *   one relevant document is its own article (a known-item collection).
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

/** A folder in the Cranfield format. */
export async function loadCranfieldFormat(dir: string, name = dir): Promise<Collection> {
  const raw = await Deno.readTextFile(`${dir}/cran.all.1400`);
  const docs = raw.split(/^\.I /m).slice(1).map((rec) => {
    const id = rec.split("\n", 1)[0].trim();
    const field = (f: string) =>
      (new RegExp(`^\\.${f}\\n([\\s\\S]*?)(?=^\\.[TABWX]\\n|$(?![\\s\\S]))`, "m").exec(rec)?.[1] ??
        "")
        .replace(/\s+/g, " ").trim();
    return { id, title: field("T"), author: field("A"), body: field("W") };
  });
  const queries = (await Deno.readTextFile(`${dir}/queries.train.tsv`)).trim().split("\n")
    .map((l) => l.split("\t")).filter((p) => p.length === 2 && /^\d+$/.test(p[0]))
    .map(([id, text]) => [id, text] as [string, string]);
  const qrels: Record<string, Judged> = {};
  const lines = (await Deno.readTextFile(`${dir}/qrels.train.tsv`)).trim().split("\n").slice(1);
  for (const line of lines) {
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

/** The BBC articles without their headlines; every seventh headline is a query for its article. */
export async function bbcHeadlines(dir = `${SHARED}bbc`): Promise<Collection> {
  const docs: Collection["docs"] = [];
  const queries: Collection["queries"] = [];
  const qrels: Record<string, Judged> = {};
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
      const id = String(docs.length + 1);
      docs.push({ id, title: "", author: "", body: rest.join("\n").trim() });
      if (docs.length % 7 === 0) {
        queries.push([id, headline.trim()]);
        qrels[id] = new Map([[id, 1]]);
      }
    }
  }
  return { name: "bbc-headlines", docs, queries, qrels };
}

/** A collection by name: a folder path, `cranfield`, `cisi`, `bbc-headlines`, or `<x>-half-titles`. */
export async function collection(name: string): Promise<Collection> {
  if (name === "bbc-headlines") return await bbcHeadlines();
  const half = name.endsWith("-half-titles");
  const base = half ? name.slice(0, -"-half-titles".length) : name;
  const dir = base.includes("/") ? base : `${SHARED}${base}`;
  const c = await loadCranfieldFormat(dir, base.includes("/") ? base.split("/").at(-1)! : base);
  return half ? halfTitles(c) : c;
}
