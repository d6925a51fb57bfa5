/**
 * Search quality on Cranfield (../shared/data/cranfield; or any folder in its format, given as the
 * first argument or FOLIO_CRANFIELD_DIR): loads the 1,400 abstracts as one publisher (the built-in
 * LSA model trains on them: unsupervised, no query labels), then 5-fold cross-validates the
 * configuration on the TRAIN queries. On four folds, in stages: the FTS field weights and RM3
 * feedback by the FTS leg's own nDCG, Rocchio feedback (from the semantic leg's own first pass, or
 * from both legs' first passes fused) by the semantic leg's,
 * then the fusion (RRF k, min-max or z-score, leg weights) given those legs; the held-out fold
 * scores that choice. Stages keep the choice from fitting noise in a joint grid. Prints nDCG@10 per
 * fold and mean ± std for each leg, the old fusion and the cross-validated one, the configuration
 * chosen on all TRAIN queries, the production defaults' figures, and search latency old vs new in
 * the same run, and paired per-query statistics per fold and pooled (scripts/cranfield_stats.ts):
 * the cross-validated hybrid against each leg, its stage 2 and an untuned RRF with no free
 * parameter. `--rm3` also lets the grid pick RM3 feedback on the FTS leg (off in production:
 * latency), and times it; `--tune` also grids the LSA settings (legs alone).
 *
 *   deno run -A scripts/eval_cranfield.ts [--rm3] [--tune]
 */
import { openStore } from "../store/db.ts";
import { upsertArticle } from "../store/articles.ts";
import { createSearchService, type SearchServiceOptions } from "../search/mod.ts";
import { DEFAULT_FUSION, fuseScored, type FusionOptions, type LegHit } from "../search/fusion.ts";
import { DEFAULT_FEEDBACK, type FtsFeedback, type SemanticFeedback } from "../search/feedback.ts";
import type { LsaOptions } from "../search/lsa.ts";
import { FTS_WEIGHTS } from "../search/fts.ts";
import {
  best,
  foldsOf,
  mean,
  meanWhere,
  ndcg10,
  percentile,
  recall100,
  simplest,
  std,
} from "./cranfield_cv.ts";
import { printPaired } from "./cranfield_stats.ts";
import { loadCranfieldFormat } from "./search_collections.ts";
import { plural } from "../server/platform/words.ts";

const PUB = "cranfield";
const FOLDS = 5;
/** Any folder in the Cranfield format: the first argument, FOLIO_CRANFIELD_DIR, or Cranfield. */
const dir = Deno.args.find((a) => !a.startsWith("--")) ?? Deno.env.get("FOLIO_CRANFIELD_DIR") ??
  new URL("../../shared/data/cranfield", import.meta.url).pathname;

/** What the product ran before cross-validation (train-tuned on all TRAIN queries). */
const OLD = {
  fusion: { k: 40, ftsWeight: 1, semanticWeight: 1.5 } as FusionOptions,
  ftsWeights: [0, 4, 2, 2, 1],
  feedback: { fts: null, semantic: null },
};

const FTS_GRID: number[][] = [[0, 4, 2, 2, 1], [0, 1, 1, 1, 1], [0, 8, 2, 2, 1]];
const RM3 = Deno.args.includes("--rm3");
const FTS_FEEDBACK: (FtsFeedback | null)[] = [null];
for (const docs of RM3 ? [5, 10] : []) {
  for (const terms of [10, 20]) {
    for (const weight of [0.5, 0.7]) FTS_FEEDBACK.push({ docs, terms, weight });
  }
}
const SEM_FEEDBACK: (SemanticFeedback | null)[] = [null];
for (const from of ["semantic", "fused"] as const) {
  for (const docs of [3, 5]) {
    for (const beta of [1, 2, 4, 8]) SEM_FEEDBACK.push({ docs, beta, from });
  }
}
const FUSIONS: FusionOptions[] = [OLD.fusion];
for (const k of [20, 60]) {
  for (const w of [1, 1.5, 2, 3, 4]) {
    FUSIONS.push({ method: "rrf", k, ftsWeight: 1, semanticWeight: w });
  }
}
FUSIONS.push({ method: "adaptive", k: 0, ftsWeight: 1, semanticWeight: 1 });
for (const method of ["minmax", "zscore"] as const) {
  for (const w of [1, 1.5, 2, 3, 4]) {
    FUSIONS.push({ method, k: 0, ftsWeight: 1, semanticWeight: w });
  }
}

interface Config {
  ftsWeights: number[];
  ftsFeedback: FtsFeedback | null;
  semFeedback: SemanticFeedback | null;
  fusion: FusionOptions;
}

function describe(c: Config): string {
  const f = c.fusion;
  const fusion = f.method === "rrf" || !f.method
    ? `rrf k=${f.k} sem×${f.semanticWeight}`
    : `${f.method} sem×${f.semanticWeight}`;
  const prf = c.ftsFeedback
    ? ` rm3(${c.ftsFeedback.docs}d,${c.ftsFeedback.terms}t,${c.ftsFeedback.weight})`
    : "";
  const sf = c.semFeedback;
  const roc = sf ? ` rocchio(${sf.docs}d,β${sf.beta}${sf.from === "fused" ? ",fused" : ""})` : "";
  return `${fusion} title×${c.ftsWeights[1]}${prf}${roc}`;
}

async function loadCranfield() {
  const { docs, queries, qrels } = await loadCranfieldFormat(dir);
  return { docs, queries, qrels };
}

async function main() {
  try {
    await Deno.stat(`${dir}/cran.all.1400`);
  } catch {
    console.log(`Skipping the Cranfield evaluation: no data at ${dir} (set FOLIO_CRANFIELD_DIR)`);
    return;
  }
  const { docs, queries, qrels } = await loadCranfield();
  const judged = queries.map(([q]) => qrels[q] ?? new Map());
  const fold = foldsOf(queries.map(([q]) => q), FOLDS);
  const tmp = await Deno.makeTempDir({ prefix: "folio-cranfield-" });
  const store = await openStore(`file:${tmp}/folio.db`, { now: new Date() });
  try {
    const now = new Date();
    await store.db.execute({
      sql: "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      args: [PUB, PUB, "Cranfield", now.getTime(), now.getTime()],
    });
    const docOf = new Map<string, string>();
    for (const d of docs) {
      const { id } = await upsertArticle(store.db, PUB, {
        url: `https://cranfield.test/${d.id}`,
        title: d.title,
        author: d.author,
        body: d.body,
      }, { now });
      docOf.set(id, d.id);
    }
    const service = (extra: Partial<SearchServiceOptions>) =>
      createSearchService({
        db: store.db,
        now: () => new Date(),
        dataDir: null,
        resultCache: false, // latency is timed over repeated queries
        ...extra,
      });
    const build = async (lsa: LsaOptions) => {
      const t0 = performance.now();
      const s = service({ lsa });
      await s.rebuild(PUB);
      await s.close();
      return performance.now() - t0;
    };
    /** Rankings (Cranfield ids) of every query; leg lists with raw scores when both legs run. */
    const run = async (extra: Partial<SearchServiceOptions>, limit: number) => {
      let legs: { fts: LegHit[]; semantic: LegHit[] } = { fts: [], semantic: [] };
      const s = service({ ...extra, onLegs: (l) => legs = l });
      const rankings: string[][] = [];
      const captured: { fts: LegHit[]; semantic: LegHit[] }[] = [];
      for (const [, text] of queries) {
        const { hits } = await s.search(PUB, text, { limit });
        rankings.push(hits.map((h) => docOf.get(h.articleId)!));
        captured.push(legs);
      }
      await s.close();
      return { rankings, legs: captured };
    };
    const perQuery = (rankings: string[][]) =>
      Float64Array.from(rankings, (r, i) => ndcg10(r, judged[i]));

    const buildMs = await build({});
    console.log(
      JSON.stringify({ eval: "cranfield", buildMs: Math.round(buildMs), docs: docs.length }),
    );

    // Old configuration and the defaults, each leg alone and hybrid (limit 100 for recall).
    for (const [name, extra] of [["old", OLD], ["defaults", {}]] as const) {
      const row: Record<string, string> = {};
      for (const legs of ["fts", "semantic", "both"] as const) {
        const { rankings } = await run({ ...extra, legs }, 100);
        row[legs] = `nDCG@10 ${mean(perQuery(rankings)).toFixed(4)} recall@100 ${
          mean(rankings.map((r, i) => recall100(r, judged[i]))).toFixed(4)
        }`;
      }
      console.log(JSON.stringify({ eval: "cranfield", config: name, ...row }));
    }

    // Leg variants at the product's own depth (limit 10: 50 candidates per leg).
    const ftsRuns: { w: number[]; fb: FtsFeedback | null; legs: LegHit[][] }[] = [];
    for (const w of FTS_GRID) {
      for (const fb of FTS_FEEDBACK) {
        const r = await run({ legs: "fts", ftsWeights: w, feedback: { fts: fb } }, 10);
        ftsRuns.push({ w, fb, legs: r.legs.map((l) => l.fts) });
      }
    }
    // Feedback from the fused first passes depends on the FTS leg: one run per FTS weighting.
    const semRuns: { w: number[] | null; fb: SemanticFeedback | null; legs: LegHit[][] }[] = [];
    for (const fb of SEM_FEEDBACK) {
      for (const w of fb?.from === "fused" ? FTS_GRID : [null]) {
        const legs = w ? "both" : "semantic";
        const r = await run({ legs, ftsWeights: w ?? undefined, feedback: { semantic: fb } }, 10);
        semRuns.push({ w, fb, legs: r.legs.map((l) => l.semantic) });
      }
    }
    const ids = (leg: LegHit[]) => leg.map((h) => docOf.get(h.articleId)!);
    const ftsScores = ftsRuns.map((f) => perQuery(f.legs.map(ids)));
    const semScores = semRuns.map((s) => perQuery(s.legs.map(ids)));
    const hybrid = (fi: number, si: number, fusion: FusionOptions) =>
      perQuery(ftsRuns[fi].legs.map((leg, i) => ids(fuseScored(leg, semRuns[si].legs[i], fusion))));
    const flatW = (w: number[]) => w.every((x, i) => x === (i === 0 ? 0 : 1));
    /** The staged choice on the queries `take` admits. */
    const choose = (take: (f: number) => boolean) => {
      const fi = best(ftsScores, fold, take);
      const fits = (s: { w: number[] | null }) => s.w === null || s.w === ftsRuns[fi].w;
      const si = best(semScores.map((x, i) => fits(semRuns[i]) ? x : []), fold, take);
      const runs = FUSIONS.map((fusion) => hybrid(fi, si, fusion));
      const u = best(runs, fold, take);
      const config: Config = {
        ftsWeights: ftsRuns[fi].w,
        ftsFeedback: ftsRuns[fi].fb,
        semFeedback: semRuns[si].fb,
        fusion: FUSIONS[u],
      };
      // The semantic leg alone at its best: feedback from its own first pass only.
      const alone = (s: { fb: SemanticFeedback | null }) => s.fb?.from !== "fused";
      const own = best(semScores.map((x, i) => alone(semRuns[i]) ? x : []), fold, take);
      return { fi, si, own, u, config, scores: runs[u] };
    };
    /**
     * Ablations of a choice: each free parameter set back to its untuned value (flat field
     * weights, no feedback, RRF k 60, semantic weight 1), the rest kept; scores of every query.
     */
    const ablations = (c: { fi: number; si: number; u: number }) => {
      const fb = ftsRuns[c.fi].fb;
      const flatFi = ftsRuns.findIndex((r) => flatW(r.w) && r.fb === fb);
      const sem = semRuns[c.si];
      const flatSi = sem.w === null
        ? c.si
        : semRuns.findIndex((r) => r.fb === sem.fb && r.w === ftsRuns[flatFi].w);
      const f = FUSIONS[c.u];
      return {
        "title weight": hybrid(flatFi, flatSi, f),
        "Rocchio feedback": hybrid(c.fi, 0, f),
        "RRF k": hybrid(c.fi, c.si, { ...f, k: 60 }),
        "semantic weight": hybrid(c.fi, c.si, { ...f, semanticWeight: 1 }),
        "title weight, RRF k": hybrid(flatFi, flatSi, { ...f, k: 60 }),
      };
    };
    /**
     * The same stages, each taking the candidate with the fewest free parameters that is not
     * significantly worse than the stage's best on the queries `take` admits (`simplest`).
     */
    const ftsCost = ftsRuns.map((r) => (flatW(r.w) ? 0 : 1) + (r.fb ? 3 : 0));
    const semCost = semRuns.map((r) => r.fb ? 2 : 0);
    const fusionCost = FUSIONS.map((f) =>
      (f.method && f.method !== "rrf" ? 1 : f.k === 60 ? 0 : 1) + (f.semanticWeight === 1 ? 0 : 1)
    );
    const chooseSimple = (take: (f: number) => boolean) => {
      const fi = simplest(ftsScores, ftsCost, fold, take);
      const fits = (s: { w: number[] | null }) => s.w === null || s.w === ftsRuns[fi].w;
      const si = simplest(
        semScores.map((x, i) => fits(semRuns[i]) ? x : []),
        semCost,
        fold,
        take,
      );
      const runs = FUSIONS.map((fusion) => hybrid(fi, si, fusion));
      const u = simplest(runs, fusionCost, fold, take);
      const config: Config = {
        ftsWeights: ftsRuns[fi].w,
        ftsFeedback: ftsRuns[fi].fb,
        semFeedback: semRuns[si].fb,
        fusion: FUSIONS[u],
      };
      return { config, scores: runs[u], cost: ftsCost[fi] + semCost[si] + fusionCost[u] };
    };
    const oldHybrid = hybrid(0, 0, OLD.fusion);

    // Cross-validation: choose on four folds, score on the fifth. Each query's held-out scores
    // are kept (pooled) for the paired statistics.
    const pooled = {
      cv: new Float64Array(queries.length),
      ftsCv: new Float64Array(queries.length),
      semCv: new Float64Array(queries.length),
      stage2: new Float64Array(queries.length),
      simple: new Float64Array(queries.length),
    };
    const simpleChoices: string[] = [];
    const without: Record<string, Float64Array> = {};
    const table = Array.from({ length: FOLDS }, (_, f) => {
      const c = choose((x) => x !== f);
      for (const [name, scores] of Object.entries(ablations(c))) {
        without[name] ??= new Float64Array(queries.length);
        fold.forEach((x, i) => x === f && (without[name][i] = scores[i]));
      }
      const p = chooseSimple((x) => x !== f);
      simpleChoices.push(`${describe(p.config)} (${plural(p.cost, "free parameter")})`);
      fold.forEach((x, i) => {
        if (x !== f) return;
        pooled.simple[i] = p.scores[i];
        pooled.cv[i] = c.scores[i];
        pooled.ftsCv[i] = ftsScores[c.fi][i];
        pooled.semCv[i] = semScores[c.own][i];
        pooled.stage2[i] = semScores[c.si][i];
      });
      const test = (xs: Float64Array) => meanWhere(xs, fold, (x) => x === f);
      return {
        fold: f + 1,
        n: fold.filter((x) => x === f).length,
        fts: test(ftsScores[0]),
        sem: test(semScores[0]),
        old: test(oldHybrid),
        ftsCv: test(ftsScores[c.fi]),
        semCv: test(semScores[c.own]),
        stage2: test(semScores[c.si]),
        cv: test(c.scores),
        config: describe(c.config),
      };
    });
    const all = choose(() => true);
    type Column = "fts" | "sem" | "old" | "ftsCv" | "semCv" | "stage2" | "cv";
    const col = (k: Column) => table.map((r) => r[k]);
    const ms = (xs: number[]) => `${mean(xs).toFixed(3)} ± ${std(xs).toFixed(3)}`;
    const f3 = (x: number) => x.toFixed(3);
    console.log(
      `\n${FOLDS}-fold CV nDCG@10, ${queries.length} TRAIN queries (each leg alone: plain, then` +
        " with its own feedback; stage 2: the semantic leg after feedback from both legs fused)",
    );
    console.log(
      "fold  n   FTS    sem    hyb-old  FTS+fb sem+fb stage2 hybrid(CV)  chosen on the other folds",
    );
    for (const r of table) {
      const cells = [r.fts, r.sem, r.old, r.ftsCv, r.semCv, r.stage2, r.cv].map(f3);
      console.log([r.fold, r.n, ...cells, r.config].join("  "));
    }
    for (const k of ["fts", "sem", "old", "ftsCv", "semCv", "stage2", "cv"] as const) {
      console.log(`mean ± std ${k.padEnd(6)} ${ms(col(k))}`);
    }
    const plain = table.filter((r) => r.cv > r.fts && r.cv > r.sem).length;
    const tuned = table.filter((r) => r.cv > r.ftsCv && r.cv > r.semCv).length;
    const staged = table.filter((r) => r.cv > r.stage2).length;
    console.log(`hybrid(CV) beats both plain legs in ${plain} of ${FOLDS} folds`);
    console.log(`hybrid(CV) beats both legs with their own feedback in ${tuned} of ${FOLDS} folds`);
    console.log(
      `hybrid(CV) beats its own stage 2 (semantic after fused feedback) in ${staged} of ${FOLDS} folds`,
    );
    // No free parameter: RRF with the literature's k = 60 (Cormack, Clarke, Büttcher 2009), both
    // legs weighted alike, every FTS field alike, no feedback; nothing here was fitted to TRAIN.
    const flat = ftsRuns.findIndex((r) => r.w.every((x, i) => x === (i === 0 ? 0 : 1)) && !r.fb);
    const untuned = hybrid(flat, 0, { method: "rrf", k: 60, ftsWeight: 1, semanticWeight: 1 });
    console.log(
      `mean untuned ${f3(mean(untuned))} (RRF k 60, 1:1, plain legs, flat field weights)`,
    );
    console.log(
      `parsimonious CV (fewest free parameters not significantly below each stage's best, ` +
        `paired t p >= 0.05): mean ${f3(mean(pooled.simple))}; per fold ${
          table.map((r) => f3(meanWhere(pooled.simple, fold, (x) => x === r.fold - 1))).join(" ")
        }`,
    );
    simpleChoices.forEach((c, f) => console.log(`  fold ${f + 1} chose ${c}`));
    const simpleAll = chooseSimple(() => true);
    console.log(
      `  chosen on all ${queries.length}: ${describe(simpleAll.config)} (${
        plural(simpleAll.cost, "free parameter")
      }; train nDCG@10 ${f3(mean(simpleAll.scores))})`,
    );
    printPaired(
      [
        { name: "hybrid(CV) - parsimonious(CV)", a: pooled.cv, b: pooled.simple },
        { name: "parsimonious(CV) - sem+fb(CV)", a: pooled.simple, b: pooled.semCv },
        ...Object.entries(without).map(([name, b]) => ({
          name: `hybrid(CV) - without ${name}`,
          a: pooled.cv,
          b,
        })),
        { name: "hybrid(CV) - FTS+fb(CV)", a: pooled.cv, b: pooled.ftsCv },
        { name: "hybrid(CV) - sem+fb(CV)", a: pooled.cv, b: pooled.semCv },
        { name: "hybrid(CV) - stage2(CV)", a: pooled.cv, b: pooled.stage2 },
        { name: "hybrid(CV) - untuned RRF", a: pooled.cv, b: untuned },
        { name: "untuned RRF - sem plain", a: untuned, b: semScores[0] },
        { name: "untuned RRF - FTS plain", a: untuned, b: ftsScores[flat] },
        ...FTS_GRID.filter((w) => !flatW(w)).map((w) => ({
          name: `FTS leg alone: title×${w[1]} - flat`,
          a: ftsScores[ftsRuns.findIndex((r) => r.w === w && !r.fb)],
          b: ftsScores[flat],
        })),
      ],
      fold,
      FOLDS,
    );
    const same = table.filter((r) => r.config === describe(all.config)).length;
    console.log(
      `chosen on all ${queries.length}: ${describe(all.config)} (train nDCG@10 ${
        f3(mean(all.scores))
      }; the same as ${same} of ${FOLDS} folds' choice)`,
    );

    // What the product runs now (no options: the defaults), and its latency against the old.
    const prod = await run({}, 10);
    console.log(
      JSON.stringify({
        eval: "cranfield",
        defaults: {
          fusion: DEFAULT_FUSION,
          feedback: DEFAULT_FEEDBACK,
          ftsWeights: FTS_WEIGHTS,
        },
        ndcg10: Number(mean(perQuery(prod.rankings)).toFixed(4)),
        chosenOnAll: Number(mean(all.scores).toFixed(4)),
      }),
    );
    await latency(service, queries.map(([, t]) => t));
    if (Deno.args.includes("--tune")) await tuneLsa(build, run, perQuery);
  } finally {
    store.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

/** p50/p95 of one search (limit 10), old configuration vs defaults, interleaved in one run. */
async function latency(
  service: (extra: Partial<SearchServiceOptions>) => ReturnType<typeof createSearchService>,
  texts: string[],
) {
  const rm3 = { docs: 10, terms: 20, weight: 0.7 };
  const runs = [
    ["old", service(OLD)],
    ["cur", service({})],
    ...(RM3 ? [["rm3", service({ feedback: { fts: rm3 } })]] as const : []),
  ] as const;
  const times: Record<string, number[]> = { old: [], cur: [], rm3: [] };
  for (let rep = 0; rep < 6; rep++) {
    for (const text of texts) {
      for (const [name, s] of runs) {
        const t0 = performance.now();
        await s.search(PUB, text, { limit: 10 });
        if (rep > 0) times[name].push(performance.now() - t0); // the first pass warms up
      }
    }
  }
  for (const [, s] of runs) await s.close();
  const p = (xs: number[], q: number) => Number(percentile(xs, q).toFixed(2));
  const ratio = (name: string, q: number) =>
    Number((percentile(times[name], q) / percentile(times.old, q)).toFixed(2));
  for (const [name] of runs) {
    console.log(JSON.stringify({
      eval: "cranfield-latency",
      config: name === "cur" ? "defaults" : name === "rm3" ? "defaults + RM3(10d,20t,0.7)" : name,
      searches: times[name].length,
      p50: p(times[name], 50),
      p95: p(times[name], 95),
      ratioToOld: { p50: ratio(name, 50), p95: ratio(name, 95) },
    }));
  }
}

async function tuneLsa(
  build: (lsa: LsaOptions) => Promise<number>,
  // deno-lint-ignore no-explicit-any
  run: (extra: Partial<SearchServiceOptions>, limit: number) => Promise<any>,
  perQuery: (r: string[][]) => Float64Array,
) {
  for (const dims of [128, 192, 256]) {
    for (const sigmaPower of [0, 0.5, 1]) {
      await build({ dims, sigmaPower });
      const sem = await run({ legs: "semantic" }, 10);
      const ndcg = mean(perQuery(sem.rankings));
      console.log(JSON.stringify({ tune: "lsa", dims, sigmaPower, ndcg10: ndcg }));
    }
  }
  await build({});
}

if (import.meta.main) await main();
