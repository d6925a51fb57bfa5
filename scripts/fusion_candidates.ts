/**
 * Fusions tried against the production default on the legs each query captured
 * (scripts/eval_search_suite.ts `--candidates`), and issue 41's goals as a verdict per collection:
 * the hybrid never significantly below its better leg nor below plain BM25, and significantly
 * above both legs where they disagree (paired t-test, two-sided, 5%). "Where they disagree" is
 * read two ways (docs/decisions/search.md "Where the legs disagree"): by the legs' own lists (at
 * most 3 of their top 10 shared, `disagree()` in eval_search_suite.ts, known at query time) and
 * by the judgements (their nDCG@10 differ by more than `MARGIN`, `judgedApart()`).
 */
import { confidence, fuseScored, type LegHit } from "../search/fusion.ts";
import { mean, ndcg10 } from "./cranfield_cv.ts";
import { paired } from "./cranfield_stats.ts";
import type { Judged } from "./cranfield_cv.ts";

/** A fusion of one query's legs into article ids, best first. */
export type Fuse = (fts: LegHit[], semantic: LegHit[]) => string[];

const ids = (hits: { articleId: string }[]) => hits.map((h) => h.articleId);
/** Adaptive fusion over whole lists (the default before issue 41's head-first fusion). */
const adaptive = (semanticWeight: number): Fuse => (f, s) =>
  ids(fuseScored(f, s, { method: "adaptive", k: 60, ftsWeight: 1, semanticWeight }));

/**
 * CombMAX of the legs' adaptive contributions plus `other` times the smaller one: an article
 * keeps what its stronger leg gives it, so a confident leg's top hit is not outvoted.
 */
export function combMax(other: number): Fuse {
  return (fts, semantic) => {
    const parts = new Map<string, [number, number]>();
    [fts, semantic].forEach((leg, at) => {
      if (leg.length === 0) return;
      const scores = leg.map((h) => h.score);
      const m = mean(scores);
      const sd = Math.sqrt(mean(scores.map((x) => (x - m) ** 2)));
      const z = scores.map((x) => sd > 0 ? (x - m) / sd : 0);
      const low = Math.min(...z);
      const weight = confidence(scores);
      leg.forEach((h, i) => {
        const p = parts.get(h.articleId) ?? [0, 0];
        p[at] = weight * (z[i] - low);
        parts.set(h.articleId, p);
      });
    });
    return [...parts].map(([a, [x, y]]) => [a, Math.max(x, y) + other * Math.min(x, y)] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a);
  };
}

/** Adaptive fusion judging each leg by its top `n` (search/fusion.ts `head`); 0: whole lists. */
export function topOnly(n: number): Fuse {
  return (f, s) =>
    ids(fuseScored(f, s, { method: "adaptive", k: 60, ftsWeight: 1, semanticWeight: 1, head: n }));
}

/**
 * Head-first fusion whose head candidates keep their real score from each leg's whole list (an
 * article 50th in the other leg counts as 50th, not as the head's last), z-scores and confidence
 * over the whole list: what a leg knows below its head, used.
 */
export function deepScores(n: number): Fuse {
  return (fts, semantic) => {
    const head = new Set([...ids(fts.slice(0, n)), ...ids(semantic.slice(0, n))]);
    const score = new Map<string, number>();
    for (const leg of [fts, semantic]) {
      if (leg.length === 0) continue;
      const scores = leg.map((h) => h.score);
      const m = mean(scores);
      const sd = Math.sqrt(mean(scores.map((x) => (x - m) ** 2)));
      const weight = confidence(scores);
      const of = new Map(leg.map((h) => [h.articleId, h.score]));
      const low = Math.min(...scores);
      for (const a of head) {
        const z = sd > 0 ? ((of.get(a) ?? low) - m) / sd : 0;
        score.set(a, (score.get(a) ?? 0) + weight * z);
      }
    }
    const ranked = [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a);
    return ranked.concat(ids(fuseScored(fts, semantic)).filter((a) => !head.has(a)));
  };
}

/** Head-first fusion with each leg's confidence the gap between its top two, in deviations. */
export function gapConfidence(n: number): Fuse {
  const gap = (leg: LegHit[]) => {
    const s = leg.slice(0, n).map((h) => h.score);
    const m = mean(s);
    const sd = Math.sqrt(mean(s.map((x) => (x - m) ** 2)));
    return s.length > 1 && sd > 0 ? Math.max(0.1, (s[0] - s[1]) / sd) : 0.1;
  };
  return (fts, semantic) => {
    const [wf, ws] = [
      gap(fts) / confidence(fts.slice(0, n).map((h) => h.score)),
      gap(semantic) /
      confidence(semantic.slice(0, n).map((h) => h.score)),
    ];
    return ids(fuseScored(fts, semantic, {
      method: "adaptive",
      k: 60,
      ftsWeight: wf,
      semanticWeight: ws,
      head: n,
    }));
  };
}

/** Semantic weights offered to the adaptive fusion (1 is the default). */
export const SEMANTIC_WEIGHTS = [0, 0.25, 0.5, 1, 2, 4];

export const CANDIDATES: [string, Fuse][] = [
  ["adaptive, head 20 (default)", (f, s) => ids(fuseScored(f, s))],
  ["adaptive, whole lists (before)", adaptive(1)],
  [
    "z-score CombSUM 1:1",
    (f, s) => ids(fuseScored(f, s, { method: "zscore", k: 60, ftsWeight: 1, semanticWeight: 1 })),
  ],
  [
    "RRF k 60 1:1",
    (f, s) => ids(fuseScored(f, s, { method: "rrf", k: 60, ftsWeight: 1, semanticWeight: 1 })),
  ],
  ["adaptive, semantic ×0.25", adaptive(0.25)],
  ["adaptive, semantic ×4", adaptive(4)],
  ["CombMAX + ¼ of the other leg", combMax(0.25)],
  ["adaptive, head 10", topOnly(10)],
  ["adaptive, head 30", topOnly(30)],
  ["adaptive, head 50", topOnly(50)],
  ["head 20, scores from the whole lists", deepScores(20)],
  ["head 20, confidence from the top two's gap", gapConfidence(20)],
];

/** Each query's fused ranking, as collection document ids (first 100). */
export function fusedRankings(
  legs: { fts: LegHit[]; semantic: LegHit[] }[],
  docOf: Record<string, string>,
  fuse: Fuse,
): string[][] {
  return legs.map((l) => fuse(l.fts, l.semantic).slice(0, 100).map((a) => docOf[a]));
}

/** The semantic weight whose adaptive fusion the collection's own queries score best. */
export function preferredWeight(
  legs: { fts: LegHit[]; semantic: LegHit[] }[],
  docOf: Record<string, string>,
  judged: Judged[],
): { weight: number; ndcg: number } {
  return SEMANTIC_WEIGHTS.map((weight) => ({
    weight,
    ndcg: mean(fusedRankings(legs, docOf, adaptive(weight)).map((r, i) => ndcg10(r, judged[i]))),
  })).reduce((a, b) => b.ndcg > a.ndcg + 1e-12 ? b : a);
}

/** Significance level of the goals. */
const ALPHA = 0.05;

/** Judged disagreement: the legs' nDCG@10 on the query differ by more than this. */
export const MARGIN = 0.1;

/** Queries whose two legs' nDCG@10 differ by more than MARGIN (needs the judgements). */
export function judgedApart(fts: ArrayLike<number>, semantic: ArrayLike<number>): boolean[] {
  return Array.from(fts, (x, i) => Math.abs(x - semantic[i]) > MARGIN);
}

/** The better leg of each query in hindsight: what choosing one leg per query can reach. */
export function oracle(fts: ArrayLike<number>, semantic: ArrayLike<number>): Float64Array {
  return Float64Array.from(fts, (x, i) => Math.max(x, semantic[i]));
}

/**
 * Issue 41's goals for per-query nDCG@10 of a hybrid against its legs and BM25; with
 * `judged`, the third goal also on the queries the judgements say the legs disagree on.
 */
export function goals(
  hybrid: ArrayLike<number>,
  legs: { fts: ArrayLike<number>; semantic: ArrayLike<number>; bm25: ArrayLike<number> },
  apart: boolean[],
  judged?: boolean[],
): { met: boolean[]; text: string } {
  const all = () => true;
  const better = mean(legs.fts) >= mean(legs.semantic) ? legs.fts : legs.semantic;
  const below = (b: ArrayLike<number>) => {
    const p = paired(hybrid, b, all, { flips: false });
    return p.meanDiff < 0 && p.tP < ALPHA;
  };
  const above = (b: ArrayLike<number>, on: boolean[]) => {
    const p = paired(hybrid, b, (i) => on[i], { flips: false });
    return p.n > 1 && p.meanDiff > 0 && p.tP < ALPHA;
  };
  const both = (on: boolean[]) => above(legs.fts, on) && above(legs.semantic, on);
  const met = [!below(better), !below(legs.bm25), both(apart)];
  if (judged) met.push(both(judged));
  const say = (ok: boolean) => ok ? "met" : "NOT MET";
  return {
    met,
    text: `not below its better leg ${say(met[0])}, not below BM25 ${say(met[1])}, ` +
      `above both legs where they disagree ${say(met[2])}` +
      (judged ? ` (top 10s; judged: ${say(met[3])})` : ""),
  };
}

/** Heads the leave-one-collection-out selection chooses among (0: whole lists). */
export const HEADS = [0, 50, 30, 20, 10];

/** One collection's per-query nDCG@10: legs, BM25, and the hybrid with each of HEADS. */
export interface Scored {
  name: string;
  legs: { fts: Float64Array; semantic: Float64Array; bm25: Float64Array };
  byHead: Float64Array[];
}

/** Scores a collection's captured legs for the selection. */
export function scoreHeads(
  name: string,
  legs: { fts: LegHit[]; semantic: LegHit[] }[],
  docOf: Record<string, string>,
  judged: Judged[],
  scored: Scored["legs"],
): Scored {
  const byHead = HEADS.map((n) =>
    Float64Array.from(fusedRankings(legs, docOf, topOnly(n)), (r, i) => ndcg10(r, judged[i]))
  );
  return { name, legs: scored, byHead };
}

/**
 * The head a collection's fusion would get had it not been seen: over the other collections,
 * the head whose worst paired t statistic (hybrid − its better leg, hybrid − BM25) is highest,
 * the goal "never significantly below" as a criterion; ties go to the earlier head.
 */
export function chooseHead(train: Scored[]): number {
  const worst = HEADS.map((_, h) =>
    Math.min(...train.flatMap((c) => {
      const better = mean(c.legs.fts) >= mean(c.legs.semantic) ? c.legs.fts : c.legs.semantic;
      return [tStat(c.byHead[h], better), tStat(c.byHead[h], c.legs.bm25)];
    }))
  );
  return worst.reduce((best, w, h) => w > worst[best] + 1e-9 ? h : best, 0);
}

/** Paired t statistic of a − b (0 when every difference is the same). */
function tStat(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const d = Array.from(a, (x, i) => x - b[i]);
  const m = mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, d.length - 1));
  return sd > 0 ? m / (sd / Math.sqrt(d.length)) : 0;
}
