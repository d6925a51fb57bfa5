/**
 * Per-query leg weighting learnt across collections, left one collection out (issue 41 part 1;
 * tried and not shipped, docs/decisions/search.md "Where the legs disagree"). On the runs
 * `deno task eval:search:suite --save` keeps, a logistic model of twelve features of the two legs'
 * lists (each leg's confidence and top-two gap, top-10 overlap, the top cosine and its fall to the
 * tenth, where each leg's top hit stands in the other, list length, the BM25 top score) predicts
 * which leg the query's judgements prefer (weighted by how far apart the legs are, each
 * collection weighing the same); head-first adaptive fusion then weights the legs p and 1 − p.
 * Each collection is scored by the model trained on the other eight (`--family`: on the other
 * families, Cranfield, CISI, BBC, since a family's variants share their queries).
 *
 *   deno run -A --lock=deno.lock scripts/fusion_select.ts [--family]
 */
import { confidence, fuseScored, type LegHit } from "../search/fusion.ts";
import { mean, ndcg10 } from "./cranfield_cv.ts";
import { paired } from "./cranfield_stats.ts";
import { disagree, perQuery, savedRuns, SUITE_COLLECTIONS } from "./eval_search_suite.ts";
import { goals, judgedApart } from "./fusion_candidates.ts";

const NAMES = SUITE_COLLECTIONS;
const HEAD = 20;
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

/** What the two lists say about the query, known at query time. */
export function features(fts: LegHit[], semantic: LegHit[]): number[] {
  const f = fts.slice(0, HEAD).map((h) => h.score);
  const s = semantic.slice(0, HEAD).map((h) => h.score);
  const gap = (xs: number[]) => xs.length > 1 && sd(xs) > 0 ? (xs[0] - xs[1]) / sd(xs) : 0;
  const top = new Set(fts.slice(0, 10).map((h) => h.articleId));
  const overlap = semantic.slice(0, 10).filter((h) => top.has(h.articleId)).length / 10;
  const rankIn = (id: string | undefined, leg: LegHit[]) => {
    const i = leg.findIndex((h) => h.articleId === id);
    return Math.log(2 + (i < 0 ? leg.length + 10 : i));
  };
  return [
    Math.log(confidence(f)),
    Math.log(confidence(s)),
    overlap,
    s[0] ?? 0,
    (s[0] ?? 0) - (s[Math.min(9, s.length - 1)] ?? 0),
    gap(f),
    gap(s),
    rankIn(fts[0]?.articleId, semantic),
    rankIn(semantic[0]?.articleId, fts),
    Math.log(1 + fts.length),
    f.length ? f[0] / (mean(f) || 1) : 0,
    Math.log(1 + (f[0] ?? 0)),
  ];
}

interface Row {
  x: number[];
  /** 1 when the full-text leg's nDCG@10 is the higher. */
  y: number;
  /** How far apart the legs are on the query. */
  w: number;
  collection: number;
}

/** Weighted logistic regression (standardised features, small L2, gradient descent). */
function train(rows: Row[]): (x: number[]) => number {
  const d = rows[0].x.length;
  const mu = Array.from({ length: d }, (_, j) => mean(rows.map((r) => r.x[j])));
  const sg = Array.from({ length: d }, (_, j) => sd(rows.map((r) => r.x[j])) || 1);
  const per = new Map<number, number>();
  for (const r of rows) per.set(r.collection, (per.get(r.collection) ?? 0) + r.w);
  const b = new Array(d + 1).fill(0);
  const p = (x: number[]) =>
    1 / (1 + Math.exp(-(b[d] + x.reduce((s, v, j) => s + ((v - mu[j]) / sg[j]) * b[j], 0))));
  for (let it = 0; it < 400; it++) {
    const g = new Array(d + 1).fill(0);
    for (const r of rows) {
      if (r.w === 0) continue;
      const e = (r.w / per.get(r.collection)!) * (p(r.x) - r.y);
      r.x.forEach((v, j) => g[j] += e * (v - mu[j]) / sg[j]);
      g[d] += e;
    }
    for (let j = 0; j <= d; j++) b[j] -= 0.5 * (g[j] / per.size + (j < d ? 0.01 * b[j] : 0));
  }
  return p;
}

if (import.meta.main) {
  const byFamily = Deno.args.includes("--family");
  const family = (c: number) => NAMES[c].split("-")[0];
  const runs = await Promise.all(NAMES.map((n) => savedRuns(n)));
  const scores = runs.map((r) => ({
    fts: perQuery(r.rankings.fts, r.judged),
    semantic: perQuery(r.rankings.semantic, r.judged),
    bm25: perQuery(r.rankings.bm25, r.judged),
  }));
  const rows: Row[] = runs.flatMap((r, c) =>
    r.legs.map((l, i) => ({
      x: features(l.fts, l.semantic),
      y: scores[c].fts[i] > scores[c].semantic[i] ? 1 : 0,
      w: Math.abs(scores[c].fts[i] - scores[c].semantic[i]),
      collection: c,
    }))
  );
  const f = (x: number) => x.toFixed(3);
  console.log("| left out | hybrid | − default hybrid | goals |");
  console.log("| --- | ---: | --- | --- |");
  runs.forEach((r, c) => {
    const model = train(
      rows.filter((q) => byFamily ? family(q.collection) !== family(c) : q.collection !== c),
    );
    const hybrid = Float64Array.from(r.legs, (l, i) => {
      const p = model(features(l.fts, l.semantic));
      const fused = fuseScored(l.fts, l.semantic, {
        method: "adaptive",
        k: 60,
        ftsWeight: p,
        semanticWeight: 1 - p,
        head: HEAD,
      });
      return ndcg10(fused.slice(0, 100).map((h) => r.docOf[h.articleId]), r.judged[i]);
    });
    const base = perQuery(r.rankings.hybrid, r.judged);
    const d = paired(hybrid, base, () => true, { flips: false });
    const verdict = goals(
      hybrid,
      scores[c],
      disagree(r),
      judgedApart(scores[c].fts, scores[c].semantic),
    );
    console.log(
      `| ${r.name} | ${f(mean(hybrid))} | ${d.meanDiff >= 0 ? "+" : ""}${f(d.meanDiff)} (p ${
        f(d.tP)
      }) | ${verdict.text} |`,
    );
  });
}
