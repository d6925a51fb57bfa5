/**
 * Search quality across collections (scripts/search_collections.ts): for each, the production
 * search's two legs, its hybrid, and plain FTS5 BM25 over the same documents, nDCG@10 and
 * recall@100, with paired per-query statistics (scripts/cranfield_stats.ts) of the hybrid against
 * each leg and BM25, and issue 41's goals checked (met / NOT MET). Nothing here is fitted: the
 * defaults run as shipped.
 *
 *   deno task eval:search:suite [cranfield cisi cranfield-half-titles ... | a folder]
 *     --save            keep each collection's runs in /tmp/folio-suite-<name>.json
 *     --saved           read those runs instead of searching again
 *     --candidates      also replay other fusions on the legs each query captured
 *     --pseudo-queries  also print the semantic weight the catalog's own pseudo-queries choose
 *     --select          choose the fusion's head for each collection on the others (leave one
 *                       collection out) and score it on the one left out
 *     --fts-weights=0,4,1,1,1  bm25 column weights (pub, title, summary, tags, body) for the
 *                       full-text leg instead of the production ones (search/fts.ts)
 */
import { openStore } from "../store/db.ts";
import { upsertArticle } from "../store/articles.ts";
import { createSearchService } from "../search/mod.ts";
import { loadModel } from "../search/models.ts";
import { DEFAULT_FUSION, type LegHit } from "../search/fusion.ts";
import { mean, ndcg10, recall100 } from "./cranfield_cv.ts";
import { paired } from "./cranfield_stats.ts";
import {
  CANDIDATES,
  chooseHead,
  fusedRankings,
  goals,
  HEADS,
  judgedApart,
  MARGIN,
  oracle,
  preferredWeight,
  type Scored,
  scoreHeads,
} from "./fusion_candidates.ts";
import { calibrate, type Calibration, CALIBRATION_SAMPLE } from "./pseudo_queries.ts";
import { type Collection, collection } from "./search_collections.ts";

/** The five collections the adaptive fusion was designed on, then four built to test it. */
export const SUITE_COLLECTIONS = [
  "cranfield",
  "cisi",
  "cranfield-half-titles",
  "cisi-half-titles",
  "bbc-headlines",
  "bbc-leads",
  "bbc-briefs",
  "cranfield-titles",
  "cisi-titles",
];
const PUB = "suite";
/** The suite reads t-tests only (eval:search prints the randomisation test beside them). */
const NO_FLIPS = { flips: false };

/** Each query's rankings (document ids, best first) by every system, and the legs' raw hits. */
export interface Runs {
  name: string;
  judged: Collection["qrels"][string][];
  rankings: Record<"fts" | "semantic" | "hybrid" | "bm25", string[][]>;
  legs: { fts: LegHit[]; semantic: LegHit[] }[];
  docOf: Record<string, string>;
  /** Words in each document's searchable text, by document id (for corpus statistics). */
  docWords: Record<string, number>;
  /** What the catalog's own pseudo-queries chose (with `pseudoQueries`). */
  pseudo?: Calibration;
}

export async function runCollection(
  c: Collection,
  options: { pseudoQueries?: boolean; ftsWeights?: number[] } = {},
): Promise<Runs> {
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
        ftsWeights: options.ftsWeights,
        onLegs: onLegs ? (l) => onLegs.push(l) : undefined,
      });
    const trainer = service("both");
    await trainer.rebuild(PUB);
    await trainer.close();
    let pseudo: Calibration | undefined;
    const model = options.pseudoQueries ? await loadModel(store.db, PUB) : null;
    if (model) {
      const stride = Math.max(1, Math.floor(c.docs.length / CALIBRATION_SAMPLE));
      const sample = c.docs.filter((_, i) => i % stride === 0).slice(0, CALIBRATION_SAMPLE)
        .map((d) => ({ title: d.title || `Document ${d.id}`, body: d.body }));
      pseudo = await calibrate(sample, model.embedder.embed, {
        minSemanticScore: 0.2,
        fusion: DEFAULT_FUSION,
      });
    }
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
      pseudo,
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

function report(r: Runs, options: { candidates: boolean }): Scored {
  const score = (k: keyof Runs["rankings"]) => perQuery(r.rankings[k], r.judged);
  const rec = (k: keyof Runs["rankings"]) =>
    mean(r.rankings[k].map((x, i) => recall100(x, r.judged[i])));
  const f = (x: number) => x.toFixed(3);
  const cells = (["fts", "semantic", "hybrid", "bm25"] as const).map((k) =>
    `${f(mean(score(k)))} (R@100 ${f(rec(k))})`
  );
  console.log(`| ${r.name} | ${r.judged.length} | ${cells.join(" | ")} |`);
  const legs = { fts: score("fts"), semantic: score("semantic"), bm25: score("bm25") };
  const apart = disagree(r);
  const judged = judgedApart(legs.fts, legs.semantic);
  const best = oracle(legs.fts, legs.semantic);
  const lines: string[] = [];
  for (const k of ["fts", "semantic", "bm25"] as const) {
    lines.push(`hybrid − ${k}: ${diff(paired(score("hybrid"), legs[k], () => true, NO_FLIPS))}`);
  }
  for (const k of ["fts", "semantic"] as const) {
    const p = paired(score("hybrid"), legs[k], (i) => apart[i], NO_FLIPS);
    lines.push(`legs disagree (${p.n}): hybrid − ${k} ${diff(p)}`);
  }
  for (const k of ["fts", "semantic"] as const) {
    const p = paired(score("hybrid"), legs[k], (i) => judged[i], NO_FLIPS);
    lines.push(`nDCG@10 apart by > ${MARGIN} (${p.n}): hybrid − ${k} ${diff(p)}`);
  }
  for (const [on, subset] of [[apart, "top 10s disagree"], [judged, "judged apart"]] as const) {
    const said = (["fts", "semantic"] as const).map((k) =>
      `− ${k} ${diff(paired(best, legs[k], (i) => on[i], NO_FLIPS))}`
    );
    lines.push(`better leg per query in hindsight, ${subset}: ${said.join(", ")}`);
  }
  console.log(`|   | | ${lines.join("; ")} |`);
  console.log(`|   | | goals: ${goals(score("hybrid"), legs, apart, judged).text} |`);
  if (r.pseudo) {
    const w = preferredWeight(r.legs, r.docOf, r.judged);
    console.log(
      `|   | | pseudo-queries (${r.pseudo.queries}) choose semantic ×${r.pseudo.semanticWeight} (${
        r.pseudo.scores.map((s) => `×${s.weight} ${f(s.ndcg)}`).join(", ")
      }); the real queries prefer ×${w.weight} (${f(w.ndcg)}) |`,
    );
  }
  if (options.candidates) {
    for (const [name, fuse] of CANDIDATES) {
      const h = perQuery(fusedRankings(r.legs, r.docOf, fuse), r.judged);
      console.log(`|   | | ${name}: ${f(mean(h))}; ${goals(h, legs, apart, judged).text} |`);
    }
  }
  return scoreHeads(r.name, r.legs, r.docOf, r.judged, legs);
}

/** Leave one collection out: each collection scored with the head chosen on the others. */
function select(all: Scored[], apart: boolean[][]) {
  console.log("\n| left out | head chosen on the others | hybrid | goals |");
  console.log("| --- | ---: | ---: | --- |");
  all.forEach((c, i) => {
    const h = chooseHead(all.filter((_, j) => j !== i));
    const scores = c.byHead[h];
    const head = HEADS[h] || "whole lists";
    console.log(
      `| ${c.name} | ${head} | ${mean(scores).toFixed(3)} | ${
        goals(scores, c.legs, apart[i]).text
      } |`,
    );
  });
  console.log(`| (all) | ${HEADS[chooseHead(all)] || "whole lists"} | | |`);
}

/** Queries where the legs disagree: at most 3 of their top 10 in common, so fusion must choose. */
export function disagree(r: Pick<Runs, "rankings">): boolean[] {
  const top = (xs: string[]) => new Set(xs.slice(0, 10));
  return r.rankings.fts.map((f, i) => {
    const a = top(f);
    return [...top(r.rankings.semantic[i])].filter((d) => a.has(d)).length <= 3;
  });
}

function diff(p: ReturnType<typeof paired>): string {
  const sign = p.meanDiff >= 0 ? "+" : "";
  const pv = p.tP < 0.0001 ? "<0.0001" : p.tP.toFixed(4);
  return `${sign}${p.meanDiff.toFixed(3)} (p ${pv}, ${p.wins}/${p.losses})`;
}

/** A collection's runs as `--save` kept them in `dir` (folio-suite-<name>.json). */
export async function savedRuns(name: string, dir = "/tmp"): Promise<Runs> {
  const file = `${dir}/folio-suite-${name.split("/").at(-1)}.json`;
  const raw = JSON.parse(await Deno.readTextFile(file));
  return { ...raw, judged: raw.judged.map((j: [string, number][]) => new Map(j)) };
}

if (import.meta.main) {
  const names = Deno.args.filter((a) => !a.startsWith("--"));
  const flag = (f: string) => Deno.args.includes(f);
  const weights = Deno.args.find((a) => a.startsWith("--fts-weights="))?.split("=")[1];
  console.log("| collection | queries | full-text leg | semantic leg | hybrid | plain BM25 |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  const scored: Scored[] = [];
  const apart: boolean[][] = [];
  for (const name of names.length ? names : SUITE_COLLECTIONS) {
    const runs = flag("--saved")
      ? await savedRuns(name)
      : await runCollection(await collection(name), {
        pseudoQueries: flag("--pseudo-queries"),
        ftsWeights: weights?.split(",").map(Number),
      });
    if (flag("--save")) {
      await Deno.writeTextFile(
        `/tmp/folio-suite-${runs.name}.json`,
        JSON.stringify({ ...runs, judged: runs.judged.map((j) => [...j]) }),
      );
    }
    scored.push(report(runs, { candidates: flag("--candidates") }));
    apart.push(disagree(runs));
  }
  if (flag("--select")) select(scored, apart);
}
