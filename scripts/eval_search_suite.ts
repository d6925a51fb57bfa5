/**
 * Search quality across collections (scripts/search_collections.ts): for each, the production
 * search's two legs, its hybrid, and plain FTS5 BM25 over the same documents, nDCG@10 and
 * recall@100, with paired per-query statistics (scripts/cranfield_stats.ts) of the hybrid against
 * each leg and BM25. Nothing here is fitted: the defaults run as shipped.
 *
 *   deno task eval:search:suite [cranfield cisi cranfield-half-titles ... | a folder]
 */
import { openStore } from "../store/db.ts";
import { upsertArticle } from "../store/articles.ts";
import { createSearchService } from "../search/mod.ts";
import type { LegHit } from "../search/fusion.ts";
import { mean, ndcg10, recall100 } from "./cranfield_cv.ts";
import { paired } from "./cranfield_stats.ts";
import { type Collection, collection } from "./search_collections.ts";

const DEFAULT = ["cranfield", "cisi", "cranfield-half-titles", "cisi-half-titles", "bbc-headlines"];
const PUB = "suite";

/** Each query's rankings (document ids, best first) by every system, and the legs' raw hits. */
export interface Runs {
  name: string;
  judged: Collection["qrels"][string][];
  rankings: Record<"fts" | "semantic" | "hybrid" | "bm25", string[][]>;
  legs: { fts: LegHit[]; semantic: LegHit[] }[];
  docOf: Record<string, string>;
  /** Words in each document's searchable text, by document id (for corpus statistics). */
  docWords: Record<string, number>;
}

export async function runCollection(c: Collection): Promise<Runs> {
  const tmp = await Deno.makeTempDir({ prefix: "folio-suite-" });
  const store = await openStore(`file:${tmp}/folio.db`, { now: new Date() });
  try {
    const now = new Date();
    await store.db.execute({
      sql: "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      args: [PUB, PUB, c.name, now.getTime(), now.getTime()],
    });
    const docOf: Record<string, string> = {};
    const docWords: Record<string, number> = {};
    await store.db.execute(
      "CREATE VIRTUAL TABLE plain_bm25 USING fts5(doc, title, body, tokenize='porter unicode61')",
    );
    for (const d of c.docs) {
      const { id } = await upsertArticle(store.db, PUB, {
        url: `https://suite.test/${d.id}`,
        title: d.title || `Document ${d.id}`,
        author: d.author,
        body: d.body,
      }, { now });
      docOf[id] = d.id;
      docWords[d.id] = `${d.title} ${d.body}`.split(/\s+/).filter(Boolean).length;
      await store.db.execute({
        sql: "INSERT INTO plain_bm25 (doc, title, body) VALUES (?, ?, ?)",
        args: [d.id, d.title, d.body],
      });
    }
    const service = (legs: "both" | "fts" | "semantic", onLegs?: Runs["legs"][number][]) =>
      createSearchService({
        db: store.db,
        now: () => new Date(),
        dataDir: null,
        resultCache: false,
        legs,
        onLegs: onLegs ? (l) => onLegs.push(l) : undefined,
      });
    const trainer = service("both");
    await trainer.rebuild(PUB);
    await trainer.close();
    const rankings = { fts: [], semantic: [], hybrid: [], bm25: [] } as Runs["rankings"];
    const legs: Runs["legs"] = [];
    for (
      const [kind, system] of [["fts", "fts"], ["semantic", "semantic"], [
        "both",
        "hybrid",
      ]] as const
    ) {
      const captured: Runs["legs"] = [];
      const s = service(kind, kind === "both" ? captured : undefined);
      for (const [, text] of c.queries) {
        const { hits } = await s.search(PUB, text, { limit: 100 });
        rankings[system].push(hits.map((h) => docOf[h.articleId]));
      }
      await s.close();
      if (kind === "both") legs.push(...captured);
    }
    for (const [, text] of c.queries) {
      const terms = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      const match = terms.map((t) => `"${t}"`).join(" OR ");
      const rs = match
        ? await store.db.execute({
          sql:
            "SELECT doc FROM plain_bm25 WHERE plain_bm25 MATCH ? ORDER BY bm25(plain_bm25) LIMIT 100",
          args: [`{title body} : (${match})`],
        })
        : { rows: [] };
      rankings.bm25.push(rs.rows.map((r) => String(r.doc)));
    }
    return {
      name: c.name,
      judged: c.queries.map(([q]) => c.qrels[q] ?? new Map()),
      rankings,
      legs,
      docOf,
      docWords,
    };
  } finally {
    store.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

/** nDCG@10 of every query of `rankings`. */
export function perQuery(rankings: string[][], judged: Runs["judged"]): Float64Array {
  return Float64Array.from(rankings, (r, i) => ndcg10(r, judged[i]));
}

function report(r: Runs) {
  const score = (k: keyof Runs["rankings"]) => perQuery(r.rankings[k], r.judged);
  const rec = (k: keyof Runs["rankings"]) =>
    mean(r.rankings[k].map((x, i) => recall100(x, r.judged[i])));
  const f = (x: number) => x.toFixed(3);
  const cells = (["fts", "semantic", "hybrid", "bm25"] as const).map((k) =>
    `${f(mean(score(k)))} (R@100 ${f(rec(k))})`
  );
  console.log(`| ${r.name} | ${r.judged.length} | ${cells.join(" | ")} |`);
  const hybrid = score("hybrid");
  const lines: string[] = [];
  for (const k of ["fts", "semantic", "bm25"] as const) {
    const p = paired(hybrid, score(k), () => true);
    lines.push(
      `hybrid − ${k}: ${p.meanDiff >= 0 ? "+" : ""}${p.meanDiff.toFixed(3)} (p ${
        p.tP < 0.0001 ? "<0.0001" : p.tP.toFixed(4)
      }, ${p.wins}/${p.losses})`,
    );
  }
  // Where the legs disagree (at most 3 of their top 10 in common), fusion has to choose.
  const top = (xs: string[]) => new Set(xs.slice(0, 10));
  const apart = r.rankings.fts.map((f, i) => {
    const a = top(f);
    return [...top(r.rankings.semantic[i])].filter((d) => a.has(d)).length <= 3;
  });
  for (const k of ["fts", "semantic"] as const) {
    const p = paired(hybrid, score(k), (i) => apart[i]);
    lines.push(
      `legs disagree (${p.n}): hybrid − ${k} ${p.meanDiff >= 0 ? "+" : ""}${
        p.meanDiff.toFixed(3)
      } (p ${p.tP < 0.0001 ? "<0.0001" : p.tP.toFixed(4)})`,
    );
  }
  console.log(`|   | | ${lines.join("; ")} |`);
}

if (import.meta.main) {
  const names = Deno.args.filter((a) => !a.startsWith("--"));
  console.log("| collection | queries | full-text leg | semantic leg | hybrid | plain BM25 |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const name of names.length ? names : DEFAULT) {
    const runs = await runCollection(await collection(name));
    if (Deno.args.includes("--save")) {
      await Deno.writeTextFile(
        `/tmp/folio-suite-${runs.name}.json`,
        JSON.stringify({ ...runs, judged: runs.judged.map((j) => [...j]) }),
      );
    }
    report(runs);
  }
}
