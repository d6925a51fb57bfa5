/**
 * Search quality on Cranfield (../shared/data/cranfield, or FOLIO_CRANFIELD_DIR): loads the 1,400
 * abstracts as one publisher, runs the TRAIN queries through full text only, semantic only and
 * hybrid, and prints nDCG@10 (gain 5 - grade for grades 1-4) and recall@100.
 * `--tune` also grids fusion, bm25 and LSA settings (on the TRAIN queries only: nothing else here).
 *
 *   deno run -A scripts/eval_cranfield.ts [--tune]
 */
import { openStore } from "../store/db.ts";
import { upsertArticle } from "../store/articles.ts";
import { createSearchService, type SearchServiceOptions } from "../search/mod.ts";
import { DEFAULT_FUSION, fuse, type FusionOptions } from "../search/fusion.ts";
import type { LsaOptions } from "../search/lsa.ts";
import { FTS_WEIGHTS } from "../search/fts.ts";

const PUB = "cranfield";
const dir = Deno.env.get("FOLIO_CRANFIELD_DIR") ??
  new URL("../../shared/data/cranfield", import.meta.url).pathname;

interface Qrels {
  [query: string]: Map<string, number>;
}

/** nDCG@10 with gain 5 - grade for grades 1..4 (1 is the best answer), 0 otherwise. */
function ndcg10(ranked: string[], judged: Map<string, number>): number {
  const gain = (g: number | undefined) => (g !== undefined && g >= 1 && g <= 4 ? 5 - g : 0);
  const dcg = ranked.slice(0, 10).reduce(
    (s, d, i) => s + gain(judged.get(d)) / Math.log2(i + 2),
    0,
  );
  const ideal = [...judged.values()].map(gain).sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

function recall100(ranked: string[], judged: Map<string, number>): number {
  const relevant = [...judged].filter(([, g]) => g >= 1 && g <= 4).map(([d]) => d);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, 100));
  return relevant.filter((d) => top.has(d)).length / relevant.length;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

async function main() {
  try {
    await Deno.stat(`${dir}/cran.all.1400`);
  } catch {
    console.log(`Skipping the Cranfield evaluation: no data at ${dir} (set FOLIO_CRANFIELD_DIR)`);
    return;
  }
  const tune = Deno.args.includes("--tune");
  const raw = await Deno.readTextFile(`${dir}/cran.all.1400`);
  const docs = raw.split(/^\.I /m).slice(1).map((rec) => {
    const id = rec.split("\n", 1)[0].trim();
    const field = (f: string) =>
      (new RegExp(`^\\.${f}\\n([\\s\\S]*?)(?=^\\.[TABW]\\n|$(?![\\s\\S]))`, "m").exec(rec)?.[1] ??
        "")
        .replace(/\s+/g, " ").trim();
    return { id, title: field("T"), author: field("A"), body: field("W") };
  });
  const queries = (await Deno.readTextFile(`${dir}/queries.train.tsv`)).trim().split("\n")
    .map((l) => l.split("\t")).filter((p) => p.length === 2 && /^\d+$/.test(p[0]));
  const qrels: Qrels = {};
  for (
    const line of (await Deno.readTextFile(`${dir}/qrels.train.tsv`)).trim().split("\n").slice(1)
  ) {
    const [q, d, g] = line.trim().split(/\s+/);
    (qrels[q] ??= new Map()).set(d, Number(g));
  }

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

    const run = async (extra: Partial<SearchServiceOptions>, legs: "fts" | "semantic" | "both") => {
      const service = createSearchService({
        db: store.db,
        now: () => new Date(),
        dataDir: null,
        ...extra,
        legs,
      });
      const out: string[][] = [];
      for (const [, text] of queries) {
        const { hits } = await service.search(PUB, text, { limit: 100 });
        out.push(hits.map((h) => docOf.get(h.articleId)!));
      }
      await service.close();
      return out;
    };
    const score = (rankings: string[][]) => ({
      ndcg10: mean(rankings.map((r, i) => ndcg10(r, qrels[queries[i][0]] ?? new Map()))),
      recall100: mean(rankings.map((r, i) => recall100(r, qrels[queries[i][0]] ?? new Map()))),
    });
    const build = async (lsa: LsaOptions) => {
      const t0 = performance.now();
      const service = createSearchService({
        db: store.db,
        now: () => new Date(),
        dataDir: null,
        lsa,
      });
      await service.rebuild(PUB);
      await service.close();
      return performance.now() - t0;
    };

    const buildMs = await build({});
    const rows: Record<string, unknown>[] = [];
    for (const leg of ["fts", "semantic", "both"] as const) {
      const s = score(await run({}, leg));
      const row = {
        eval: "cranfield",
        split: "train",
        queries: queries.length,
        leg: leg === "both" ? "hybrid" : leg,
        ...s,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    console.log(
      JSON.stringify({
        eval: "cranfield",
        buildMs: Math.round(buildMs),
        docs: docs.length,
        fusion: DEFAULT_FUSION,
        ftsWeights: FTS_WEIGHTS,
      }),
    );
    console.log("\nleg        nDCG@10  recall@100");
    for (const r of rows) {
      console.log(
        `${String(r.leg).padEnd(10)} ${(r.ndcg10 as number).toFixed(4)}   ${
          (r.recall100 as number).toFixed(4)
        }`,
      );
    }
    if (tune) await tuneAll({ run, score, build });
  } finally {
    store.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

// deno-lint-ignore no-explicit-any
async function tuneAll(t: { run: any; score: any; build: any }) {
  const ftsGrid = [[0, 1, 1, 1, 1], [0, 2, 1, 1, 1], [0, 4, 2, 2, 1], [0, 8, 2, 2, 1]];
  const ftsRuns = new Map<string, string[][]>();
  for (const w of ftsGrid) {
    const r = await t.run({ ftsWeights: w }, "fts");
    ftsRuns.set(w.join(","), r);
    console.log(JSON.stringify({ tune: "fts", weights: w, ...t.score(r) }));
  }
  for (const dims of [128, 192, 256]) {
    for (const sigmaPower of [0, 0.5, 1]) {
      await t.build({ dims, sigmaPower });
      for (const minSemanticScore of [0, 0.2]) {
        const sem: string[][] = await t.run({ minSemanticScore }, "semantic");
        console.log(
          JSON.stringify({ tune: "lsa", dims, sigmaPower, minSemanticScore, ...t.score(sem) }),
        );
        let best = { ndcg10: 0 } as {
          ndcg10: number;
          recall100?: number;
          fusion?: FusionOptions;
          fts?: string;
        };
        for (const [fw, fts] of ftsRuns) {
          for (const k of [5, 10, 20, 40, 60]) {
            for (const semanticWeight of [0.5, 0.75, 1, 1.25, 1.5, 2]) {
              const fusion = { k, ftsWeight: 1, semanticWeight };
              const fused = fts.map((f: string[], i: number) =>
                fuse(f, sem[i], fusion).map((h) => h.articleId)
              );
              const s = t.score(fused);
              if (s.ndcg10 > best.ndcg10) best = { ...s, fusion, fts: fw };
            }
          }
        }
        console.log(JSON.stringify({ tune: "hybrid", dims, sigmaPower, minSemanticScore, best }));
      }
    }
  }
}

if (import.meta.main) await main();
