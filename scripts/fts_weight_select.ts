/**
 * The full-text leg's title weight chosen leaving one collection out (issue 41 part 1). Reads the
 * runs `deno task eval:search:suite --fts-weights=0,W,1,1,1 --save` keeps, one folder per title
 * weight W (move /tmp/folio-suite-*.json into it after each run); W = 1 is every field alike.
 * For each collection, the weight whose mean paired t statistic (hybrid at W − hybrid with flat
 * weights, per-query nDCG@10) over the other collections is highest is scored on the one left out.
 *
 *   deno run -A --lock=deno.lock scripts/fts_weight_select.ts 1=/tmp/w1 2=/tmp/w2 4=/tmp/w4 ...
 */
import { mean } from "./cranfield_cv.ts";
import { paired } from "./cranfield_stats.ts";
import { disagree, perQuery, savedRuns, SUITE_COLLECTIONS } from "./eval_search_suite.ts";
import { goals, judgedApart } from "./fusion_candidates.ts";

const NAMES = SUITE_COLLECTIONS;

/** Paired t statistic of a − b (0 when every difference is the same). */
function tStat(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const d = Array.from(a, (x, i) => x - b[i]);
  const m = mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, d.length - 1));
  return sd > 0 ? m / (sd / Math.sqrt(d.length)) : 0;
}

if (import.meta.main) {
  const dirs = Deno.args.map((a) => a.split("=")).map(([w, d]) => ({ w: Number(w), d }));
  if (!dirs.some((x) => x.w === 1)) throw new Error("give the flat weights' runs as 1=DIR");
  const runs = await Promise.all(
    dirs.map(async ({ d }) => await Promise.all(NAMES.map((n) => savedRuns(n, d)))),
  );
  const flat = dirs.findIndex((x) => x.w === 1);
  const hybrid = runs.map((byName) => byName.map((r) => perQuery(r.rankings.hybrid, r.judged)));
  const t = hybrid.map((byName) => byName.map((h, c) => tStat(h, hybrid[flat][c])));
  const f = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;
  console.log(
    `| left out | title weight chosen on the others | hybrid − flat weights | goals at the choice |`,
  );
  console.log("| --- | ---: | --- | --- |");
  NAMES.forEach((name, c) => {
    const others = NAMES.map((_, j) => j).filter((j) => j !== c);
    const score = dirs.map((_, w) => mean(others.map((j) => t[w][j])));
    const w = score.reduce((best, s, i) => s > score[best] + 1e-9 ? i : best, flat);
    const r = runs[w][c];
    const p = paired(hybrid[w][c], hybrid[flat][c], () => true, { flips: false });
    const legs = {
      fts: perQuery(r.rankings.fts, r.judged),
      semantic: perQuery(r.rankings.semantic, r.judged),
      bm25: perQuery(r.rankings.bm25, r.judged),
    };
    const verdict = goals(hybrid[w][c], legs, disagree(r), judgedApart(legs.fts, legs.semantic));
    console.log(
      `| ${name} | ×${dirs[w].w} | ${f(p.meanDiff)} (p ${p.tP.toFixed(3)}) | ${verdict.text} |`,
    );
  });
  console.log("\nEach weight against flat, hybrid nDCG@10 (paired t p):");
  dirs.forEach(({ w }, i) => {
    const cells = NAMES.map((n, c) => {
      const p = paired(hybrid[i][c], hybrid[flat][c], () => true, { flips: false });
      return `${n} ${f(p.meanDiff)} (${p.tP.toFixed(3)})`;
    });
    console.log(`×${w}: ${cells.join(", ")}`);
  });
}
