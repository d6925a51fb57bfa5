/**
 * Search benchmark: a synthetic catalog (Zipf vocabulary with topics, 400-800-word bodies with
 * sections, titles, summaries, tags) bulk-loaded by SQL, then index build time, hybrid search
 * latency through the SearchService, FTS5-only latency on the same data, restart to serving and
 * resident memory. Prints JSON lines, then a table. With `--publishers N` the catalog is dealt
 * round-robin to N publishers and each query asks one of them, as a node serving many would.
 *
 *   deno run -A scripts/bench_search.ts [--sizes 10000,100000] [--queries 300] [--publishers 1]
 *   deno run -A scripts/bench_search.ts --sizes 1000000 --publishers 100   # issue 15's node
 */
import { openStore } from "../store/db.ts";
import { loadConfig } from "../server/platform/config.ts";
import { sitePathOf } from "../store/articles.ts";
import { createSearchService, type SearchServiceOptions } from "../search/mod.ts";
import { catalog } from "./synthetic_corpus.ts";
import { check, type Checked, line, tally, TARGETS, verdict } from "./targets.ts";

const args = Deno.args.join(" ");
const sizes = (/--sizes[ =]([\d,]+)/.exec(args)?.[1] ?? "10000,100000").split(",").map(Number);
const queryCount = Number(/--queries[ =](\d+)/.exec(args)?.[1] ?? 300);
const publisherCount = Number(/--publishers[ =](\d+)/.exec(args)?.[1] ?? 1);
/** Publisher ids; one publisher keeps the id earlier runs used. */
const PUBS = publisherCount === 1
  ? ["pub_bench"]
  : Array.from({ length: publisherCount }, (_, i) => `pub_bench_${String(i).padStart(3, "0")}`);

/** A query and the publisher it is asked of. */
interface Asked {
  pub: string;
  q: string;
}

function pct(xs: number[], p: number): number {
  const s = xs.toSorted((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * Each phase runs in its own process: loading, building and serving. A serving node's memory is
 * then measured as it would be after a restart, and native memory the libSQL driver keeps after
 * bulk writes (tursodatabase/libsql-client-ts#333) is not charged to the serving figures.
 */
async function bench(size: number): Promise<Record<string, number | string>> {
  const dir = await Deno.makeTempDir({ prefix: "folio-bench-" });
  try {
    const load = await phase(["--load", dir, String(size)]);
    const build = await phase(["--build", dir]);
    const served = await phase(["--serve", dir]);
    let snapshotBytes = 0;
    for await (const e of Deno.readDir(`${dir}/data/search`)) {
      snapshotBytes += (await Deno.stat(`${dir}/data/search/${e.name}`)).size;
    }
    return {
      articles: size,
      publishers: PUBS.length,
      ...load,
      ...build,
      ...served,
      snapshotMB: round(snapshotBytes / 1e6),
    };
  } finally {
    if (args.includes("--keep")) console.log(`kept ${dir}`);
    else await Deno.remove(dir, { recursive: true });
  }
}

async function phase(argv: string[]): Promise<Record<string, number | string>> {
  const config = new URL("../deno.json", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      "--config",
      config,
      new URL(import.meta.url).pathname,
      ...argv,
      `--publishers=${PUBS.length}`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`Benchmark phase ${argv[0]} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

/** Child mode: bulk-load the catalog by SQL (FTS triggers index as rows land); save the queries. */
async function loadPhase(dir: string, size: number): Promise<void> {
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  const t = Date.now();
  await store.db.batch(
    PUBS.map((id, i) => ({
      sql: "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      args: [id, i === 0 ? "bench" : `bench-${i}`, `Bench ${i}`, t, t],
    })),
    "write",
  );
  const gen = catalog(size);
  const t0 = performance.now();
  for (let i = 0; i < size; i += 2000) {
    const rows = Array.from({ length: Math.min(2000, size - i) }, (_, j) => gen.article(i + j));
    await store.db.batch(
      rows.map((r, j) => ({
        // site_path as an upsert writes it, so a serving node starts with nothing to backfill.
        sql: `INSERT INTO articles (id, publisher_id, url, title, summary, tags, body, published_at,
                content_hash, created_at, updated_at, site_path)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          r.id,
          PUBS[(i + j) % PUBS.length],
          r.url,
          r.title,
          r.summary,
          JSON.stringify(r.tags),
          r.body,
          r.publishedAt,
          r.id,
          t,
          t,
          sitePathOf({
            url: r.url,
            canonicalUrl: null,
            kind: "article",
            bookId: null,
            chapterNo: null,
          }),
        ],
      })),
      "write",
    );
  }
  const loadAndFtsMs = Math.round(performance.now() - t0);
  await Deno.writeTextFile(
    `${dir}/queries.json`,
    JSON.stringify(
      Array.from({ length: queryCount }, (_, i): Asked => ({
        pub: PUBS[(i * 37) % PUBS.length],
        q: gen.query(),
      })),
    ),
  );
  store.close();
  console.log(JSON.stringify({ loadAndFtsMs }));
}

/** Child mode: chunk, train the model and embed everything, as the background loop would. */
async function buildPhase(dir: string): Promise<void> {
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  const service = createSearchService({
    db: store.db,
    now: () => new Date(),
    dataDir: `${dir}/data`,
  });
  const t0 = performance.now();
  const trainer = trainerPeak();
  let embedded = 0;
  for (const pub of PUBS) {
    while (await service.embedPending({ publisherId: pub, max: 20_000 }) > 0) { /* until done */ }
    embedded += (await service.coverage(pub)).embedded;
  }
  const buildMs = Math.round(performance.now() - t0);
  const rssTrainerPeakMB = await trainer.stop();
  const chunks = Number((await store.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n);
  for (const pub of PUBS) await service.search(pub, "warm", { limit: 1 }); // first snapshots
  await service.close();
  store.close();
  console.log(
    JSON.stringify({
      chunks,
      embedded,
      buildMs,
      rssBuildMB: Math.round(Deno.memoryUsage().rss / 1e6),
      // The model trains in a child process (search/trainer.ts): its peak, sampled by `ps`.
      rssTrainerPeakMB,
    }),
  );
}

/** Samples the resident memory of this process's children every 250 ms; stop() gives the peak. */
function trainerPeak(): { stop: () => Promise<number> } {
  let peak = 0;
  let running = true;
  const sampled = (async () => {
    while (running) {
      const out = await new Deno.Command("ps", {
        args: ["-o", "rss=,comm=", "--ppid", String(Deno.pid)],
        stdout: "piped",
        stderr: "null",
      }).output();
      const kb = new TextDecoder().decode(out.stdout).split("\n")
        .map((line) => line.trim().split(/\s+/))
        .filter(([rss, comm]) => rss && comm !== "ps") // ps is a child too while it runs
        .reduce((sum, [rss]) => sum + Number(rss), 0);
      peak = Math.max(peak, kb / 1024);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    async stop() {
      running = false;
      await sampled;
      return Math.round(peak);
    },
  };
}

/** Child mode: open the store, answer the first query, then time the query set; print one JSON line. */
async function serve(dir: string): Promise<void> {
  const queries: Asked[] = JSON.parse(await Deno.readTextFile(`${dir}/queries.json`));
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  // Each variant times the search itself: no result is answered again from the result cache.
  // Full text runs on search threads as in a Folio process (server/runtime.ts).
  const threads = { storePath: `${dir}/folio.db`, count: loadConfig({}).searchThreads };
  const timed = (extra: Partial<SearchServiceOptions> = {}) =>
    createSearchService({
      db: store.db,
      now: () => new Date(),
      dataDir: `${dir}/data`,
      resultCache: false,
      threads,
      ...extra,
    });
  const service = timed();
  const first = await service.search(queries[0].pub, queries[0].q, { limit: 10 });
  const restartMs = performance.now(); // since this process started
  // Every publisher's index loaded and every query asked once before timing, by each service in
  // turn: a service timed on a first pass read the store's pages cold for the ones timed after it
  // (at a million articles the hybrid, timed first, was 2.9× the same hybrid without feedback).
  const warm = [...PUBS.map((pub, i) => ({ pub, q: queries[i % queries.length].q })), ...queries];
  const time = async (s: typeof service, qs: Asked[]) => {
    const out: number[] = [];
    const modes: Record<string, number> = {};
    for (const { pub, q } of qs) {
      const a = performance.now();
      const r = await s.search(pub, q, { limit: 10 });
      out.push(performance.now() - a);
      modes[r.mode] = (modes[r.mode] ?? 0) + 1;
    }
    return { out, modes };
  };
  await time(service, warm); // warm-up: JIT the scan
  const hybrid = await time(service, queries);
  const rss = Deno.memoryUsage().rss;
  const fts = timed({ dataDir: null, legs: "fts" });
  await time(fts, warm);
  const ftsOnly = await time(fts, queries);
  // The same hybrid without Rocchio's second pass: what the cross-validated feedback costs.
  const plain = timed({ feedback: { semantic: null } });
  await time(plain, warm);
  const noFeedback = await time(plain, queries);
  const semantic = timed({ legs: "semantic" });
  await time(semantic, warm);
  const semOnly = await time(semantic, queries);
  for (const s of [service, fts, plain, semantic]) await s.close();
  store.close();
  console.log(JSON.stringify({
    restartMs: Math.round(restartMs),
    restartMode: first.mode,
    hybridP50: round(pct(hybrid.out, 50)),
    hybridP95: round(pct(hybrid.out, 95)),
    hybridP99: round(pct(hybrid.out, 99)),
    noFeedbackP50: round(pct(noFeedback.out, 50)),
    noFeedbackP95: round(pct(noFeedback.out, 95)),
    ftsP50: round(pct(ftsOnly.out, 50)),
    ftsP95: round(pct(ftsOnly.out, 95)),
    semanticP50: round(pct(semOnly.out, 50)),
    semanticP95: round(pct(semOnly.out, 95)),
    ratioP95: round(pct(hybrid.out, 95) / pct(ftsOnly.out, 95)),
    hybridShare: round((hybrid.modes.hybrid ?? 0) / queries.length),
    rssServeMB: Math.round(rss / 1e6),
  }));
}

const child = /--(load|build|serve) (\S+)(?: (\d+))?/.exec(args);
if (child) {
  if (child[1] === "load") await loadPhase(child[2], Number(child[3]));
  if (child[1] === "build") await buildPhase(child[2]);
  if (child[1] === "serve") await serve(child[2]);
  Deno.exit(0);
}

const results: Record<string, number | string>[] = [];
for (const size of sizes) {
  const r = await bench(size);
  results.push(r);
  // The build's memory target is set at 100k (issue 15 sets none at a million), the serving
  // node's at a million articles across a hundred publishers; restart holds at every size.
  const rss = size >= 100_000 && size < 1_000_000
    ? verdict(TARGETS.buildRss100k, Number(r.rssBuildMB))
    : null;
  const node = size >= 1_000_000 && PUBS.length >= 100;
  const p95 = node ? verdict(TARGETS.search1MP95, Number(r.hybridP95)) : null;
  const serveRss = node ? verdict(TARGETS.serveRss1M, Number(r.rssServeMB)) : null;
  const restart = verdict(TARGETS.restartToFirstAnswer, Number(r.restartMs));
  console.log(JSON.stringify({
    bench: "search",
    ...r,
    ...(rss ? { rssBuildTarget: rss.target, rssBuildMet: rss.met } : {}),
    ...(p95 ? { hybridP95Target: p95.target, hybridP95Met: p95.met } : {}),
    ...(serveRss ? { rssServeTarget: serveRss.target, rssServeMet: serveRss.met } : {}),
    restartTarget: restart.target,
    restartMet: restart.met,
  }));
}
// The raw figures per size; the lines after judge them.
const keys = Object.keys(results[0] ?? {});
console.log(
  `\n${"metric".padEnd(18)}${results.map((r) => String(r.articles).padStart(12)).join("")}`,
);
for (const k of keys) {
  console.log(`${k.padEnd(18)}${results.map((r) => String(r[k]).padStart(12)).join("")}`);
}

// Every figure beside its target (docs/PERFORMANCE.md); latencies are judged at p95, with their
// p50 and p99 shown beside it.
const checks: Checked[] = [];
for (const r of results) {
  const n = (k: string) => Number(r[k]);
  const at = `${r.articles}`;
  const ms = (k: string) => `${r[k]} ms`;
  const rows: [Checked, string][] = [
    [
      check(`${at}: hybrid p95 / full-text p95`, n("ratioP95"), TARGETS.searchHybridOverFts),
      `${r.ratioP95}× (${ms("hybridP95")} / ${ms("ftsP95")})`,
    ],
    [
      check(
        `${at}: hybrid p95 / hybrid without feedback p95`,
        Number((n("hybridP95") / n("noFeedbackP95")).toFixed(2)),
        TARGETS.searchFeedbackCost,
      ),
      `${(n("hybridP95") / n("noFeedbackP95")).toFixed(2)}× (without feedback p50 ${
        ms("noFeedbackP50")
      }, p95 ${ms("noFeedbackP95")})`,
    ],
    [
      check(
        `${at}: semantic leg p95 / hybrid p95`,
        Number((n("semanticP95") / n("hybridP95")).toFixed(2)),
        TARGETS.searchSemanticShare,
      ),
      `${(n("semanticP95") / n("hybridP95")).toFixed(2)}× (semantic p50 ${ms("semanticP50")}, p95 ${
        ms("semanticP95")
      })`,
    ],
    [
      check(`${at}: articles embedded`, n("embedded") / n("articles"), TARGETS.searchEmbedded),
      `${r.embedded} of ${r.articles} (${r.chunks} chunks)`,
    ],
    [
      check(`${at}: queries answered hybrid`, n("hybridShare"), TARGETS.searchHybridShare),
      `${r.hybridShare} (first answer after restart: ${r.restartMode})`,
    ],
    [
      check(`${at}: restart to first answer`, n("restartMs"), TARGETS.restartToFirstAnswer),
      ms("restartMs"),
    ],
  ];
  // The 100k targets hold at 100k; at a million the node's below do (its build RSS has none).
  if (n("articles") >= 100_000 && n("articles") < 1_000_000) {
    rows.push(
      [
        check(`${at}: hybrid p95`, n("hybridP95"), TARGETS.searchHybridP95At100k),
        `${ms("hybridP95")} (p50 ${ms("hybridP50")}, p99 ${ms("hybridP99")})`,
      ],
      [
        check(`${at}: full-text p95`, n("ftsP95"), TARGETS.searchFtsP95At100k),
        `${ms("ftsP95")} (p50 ${ms("ftsP50")})`,
      ],
      [
        check(`${at}: build RSS`, n("rssBuildMB"), TARGETS.buildRss100k),
        `${r.rssBuildMB} MB (${r.buildMs} ms to chunk, train and embed; load and FTS5 ${r.loadAndFtsMs} ms)`,
      ],
      [
        check(
          `${at}: build RSS + trainer peak`,
          n("rssBuildMB") + n("rssTrainerPeakMB"),
          TARGETS.buildWithTrainer,
        ),
        `${r.rssBuildMB} + ${r.rssTrainerPeakMB} MB`,
      ],
    );
  }
  if (n("articles") >= 1_000_000 && PUBS.length >= 100) {
    rows.push(
      [check(`${at}: hybrid p95`, n("hybridP95"), TARGETS.search1MP95), ms("hybridP95")],
      [
        check(`${at}: serving RSS`, n("rssServeMB"), TARGETS.serveRss1M),
        `${r.rssServeMB} MB (snapshots ${r.snapshotMB} MB)`,
      ],
    );
  }
  for (const [c, shown] of rows) {
    checks.push(c);
    console.log(line(c, shown));
  }
}
console.log(tally(checks));
