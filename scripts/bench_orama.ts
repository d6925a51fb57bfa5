/**
 * Orama vs libSQL FTS5 on the same synthetic catalog as scripts/bench_search.ts (its generator is
 * not exported, so the minimum is copied below: same seed per size, so the same articles and
 * queries). Per size, each step runs in a fresh process of this script so memory figures are clean:
 *
 *   fts-build      contentless fts5 (porter unicode61), bm25 with quoted ORed terms: build, p50/95/99;
 *                  writes the query set, and the same set with fts.ts's common-term skip applied
 *   fts-serve      restart to serving: reopen the file, first query answered, then p50/95/99 again
 *   orama-build    insertMultiple in batches (rss watched), search p50/p95/p99 with limit 10 at the
 *                  default threshold (1: any term) and threshold 0 (all terms), then save() -> JSON
 *   orama-restore  restart to serving: read the JSON, parse, create + load(), first query answered
 *
 *   deno run -A scripts/bench_orama.ts [--sizes 10000,100000] [--queries 300] [--rss-cap-gb 8]
 *
 * Prints one JSON line per (size, engine), a console.table, Orama/FTS5 ratios and a verdict per size.
 * Each ratio's target is 1× (Orama would be worth adopting only where it is no slower and no bigger
 * than FTS5, docs/DESIGN.md's choice of FTS5), checked with scripts/targets.ts and tallied last.
 */
import { create, insertMultiple, load, type RawData, save, search } from "@orama/orama";
import { type Client, createClient } from "@libsql/client";
import { COMMON_TERM_SHARE } from "../search/fts.ts";
import { porterStem } from "../search/porter.ts";
import { catalog } from "./synthetic_corpus.ts";
import { atMost, check as checkTarget, type Checked, line, tally } from "./targets.ts";

type Article = ReturnType<ReturnType<typeof catalog>["article"]>;

const args = Deno.args.join(" ");
const sizes = (/--sizes[ =]([\d,]+)/.exec(args)?.[1] ?? "10000,100000").split(",").map(Number);
const queryCount = Number(/--queries[ =](\d+)/.exec(args)?.[1] ?? 300);
const rssCapGb = Number(/--rss-cap-gb[ =]([\d.]+)/.exec(args)?.[1] ?? 8);
/** Insertion stops (and is reported as such) past this many seconds. */
const insertCapS = Number(/--insert-cap-s[ =](\d+)/.exec(args)?.[1] ?? 360);
const BATCH = 1000;
/** Orama's field boosts in this bench; not search/fts.ts FTS_WEIGHTS (title ×2, the rest ×1). */
const WEIGHTS = { title: 4, summary: 2, tags: 2, body: 1 };
const TARGETS: Record<number, { p95: number; rssMB: number; restartMs: number }> = {
  10000: { p95: 10, rssMB: 4000, restartMs: 10_000 },
  100000: { p95: 50, rssMB: 4000, restartMs: 10_000 },
};

// ---- Helpers ----------------------------------------------------------------------------------

type Row = Record<string, number | string | boolean | null>;

function pct(xs: number[], p: number): number {
  const s = xs.toSorted((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const round = (x: number) => Math.round(x * 100) / 100;
const mb = (bytes: number) => Math.round(bytes / 1e6);
const rss = () => Deno.memoryUsage().rss;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

function stats(prefix: string, xs: number[]): Row {
  return {
    [`${prefix}P50`]: round(pct(xs, 50)),
    [`${prefix}P95`]: round(pct(xs, 95)),
    [`${prefix}P99`]: round(pct(xs, 99)),
  };
}

/** Times each query after a warm-up; stops early past `budgetMs` (the count says how many ran). */
async function timeQueries<T>(
  qs: string[],
  run: (q: string) => Promise<T> | T,
  budgetMs = 75_000,
) {
  const start = performance.now();
  for (const q of qs.slice(0, 20)) await run(q); // warm-up: JIT
  const ms: number[] = [];
  const out: T[] = [];
  for (const q of qs) {
    if (performance.now() - start > budgetMs) break;
    const a = performance.now();
    out.push(await run(q));
    ms.push(performance.now() - a);
  }
  return { ms, out };
}

/** Generates the catalog in order, then the queries: the same draws as bench_search.ts. */
function* articles(size: number, gen: ReturnType<typeof catalog>): Generator<Article[]> {
  for (let i = 0; i < size; i += BATCH) {
    yield Array.from({ length: Math.min(BATCH, size - i) }, (_, j) => gen.article(i + j));
  }
}

// ---- Orama ------------------------------------------------------------------------------------

function oramaDb() {
  return create({
    schema: { id: "string", title: "string", summary: "string", tags: "string[]", body: "string" },
    // Porter-style stemming, like the FTS5 table's porter tokenizer.
    components: { tokenizer: { language: "english", stemming: true } },
  });
}
type OramaDb = ReturnType<typeof oramaDb>;

const PROPS = ["title", "summary", "tags", "body"] as const;

async function oramaSearch(db: OramaDb, q: string, extra: { threshold?: number }) {
  const r = await search(db, {
    term: q,
    properties: [...PROPS],
    boost: WEIGHTS,
    limit: 10,
    ...extra,
  });
  return { ids: r.hits.map((h) => h.id), count: r.count };
}

/**
 * save() as JSON. One JSON.stringify of a large snapshot exceeds V8's maximum string length
 * (~512 MiB), so the snapshot is written as JSON files of at most PIECE_CHARS each: an object whose
 * members fit is written as groups of whole members; a member that cannot be stringified alone is
 * split the same way, recursively. Restore parses each file and reassembles the object for load().
 */
const PIECE_CHARS = Number(/--piece-chars[ =](\d+)/.exec(args)?.[1] ?? 200_000_000);

interface Manifest {
  pieces: { path: string[]; file: string }[];
  containers: { path: string[]; array: boolean }[];
}

async function writeSnapshot(dir: string, raw: unknown): Promise<{ files: number; bytes: number }> {
  const m: Manifest = { pieces: [], containers: [] };
  let bytes = 0;
  const container = async (path: string[], value: object): Promise<void> => {
    m.containers.push({ path, array: Array.isArray(value) });
    let parts: string[] = [];
    let size = 0;
    const flush = async () => {
      if (parts.length === 0) return;
      const file = `orama-${m.pieces.length}.json`;
      const text = `{${parts.join(",")}}`;
      await Deno.writeTextFile(`${dir}/${file}`, text);
      bytes += text.length;
      m.pieces.push({ path, file });
      parts = [];
      size = 0;
    };
    for (const [k, v] of Object.entries(value)) {
      let text: string | undefined;
      try {
        text = JSON.stringify(v);
      } catch (e) {
        if (!(e instanceof RangeError) || v === null || typeof v !== "object") throw e;
        await container([...path, k], v);
        continue;
      }
      if (text === undefined) continue;
      const part = `${JSON.stringify(k)}:${text}`;
      if (size + part.length > PIECE_CHARS) await flush();
      parts.push(part);
      size += part.length;
    }
    await flush();
  };
  await container([], raw as object);
  await Deno.writeTextFile(`${dir}/orama-manifest.json`, JSON.stringify(m));
  return { files: m.pieces.length, bytes };
}

async function readSnapshot(dir: string): Promise<RawData> {
  const m: Manifest = JSON.parse(await Deno.readTextFile(`${dir}/orama-manifest.json`));
  const root: Record<string, unknown> = {};
  const at = (path: string[]) => {
    let o: Record<string, unknown> = root;
    for (const k of path) o = o[k] as Record<string, unknown>;
    return o;
  };
  for (const c of m.containers.slice(1)) {
    at(c.path.slice(0, -1))[c.path.at(-1)!] = c.array ? [] : {};
  }
  for (const p of m.pieces) {
    Object.assign(at(p.path), JSON.parse(await Deno.readTextFile(`${dir}/${p.file}`)));
  }
  return root as unknown as RawData;
}

async function oramaBuild(dir: string, size: number): Promise<Row> {
  const gen = catalog(size);
  const db = oramaDb();
  let insertMs = 0;
  let genMs = 0;
  let inserted = 0;
  let peakRss = rss();
  let stopped: string | null = null;
  const batches = articles(size, gen);
  for (;;) {
    const g = performance.now();
    const next = batches.next();
    genMs += performance.now() - g;
    if (next.done) break;
    const a = performance.now();
    await insertMultiple(db, next.value, BATCH);
    insertMs += performance.now() - a;
    inserted += next.value.length;
    peakRss = Math.max(peakRss, rss());
    if (inserted % 10_000 === 0) {
      console.error(
        `  orama ${inserted}/${size} ${Math.round(insertMs / 1000)}s rss ${mb(peakRss)}MB`,
      );
    }
    if (peakRss > rssCapGb * 1e9) stopped = `rss > ${rssCapGb} GB at ${inserted} docs`;
    else if (insertMs > insertCapS * 1000) stopped = `insert > ${insertCapS}s at ${inserted} docs`;
    if (stopped) break;
  }
  const rssAfterBuild = rss();
  gc();
  const rssAfterGc = rss();
  const heapUsed = Deno.memoryUsage().heapUsed;
  const base: Row = {
    inserted,
    insertMs: Math.round(insertMs),
    insertDocsPerS: Math.round(inserted / (insertMs / 1000)),
    genMs: Math.round(genMs),
    rssBuildMB: mb(rssAfterBuild),
    rssBuildGcMB: mb(rssAfterGc),
    heapUsedMB: mb(heapUsed),
    peakRssMB: mb(peakRss),
    stopped,
  };
  if (stopped) return base;
  // Queries come after all articles in the generator's stream, as in bench_search.ts.
  const queries = Array.from({ length: queryCount }, () => gen.query());
  const saved: string[] = JSON.parse(await Deno.readTextFile(`${dir}/queries.json`));
  if (saved.join("|") !== queries.join("|")) throw new Error("query sets differ between engines");
  const any = await timeQueries(queries, (q) => oramaSearch(db, q, {}));
  const all = await timeQueries(queries, (q) => oramaSearch(db, q, { threshold: 0 }));
  const skipped: string[] = JSON.parse(await Deno.readTextFile(`${dir}/queries-skip.json`));
  const skip = await timeQueries(skipped, (q) => oramaSearch(db, q, {}));
  await Deno.writeTextFile(`${dir}/orama-top.json`, JSON.stringify(any.out.map((r) => r.ids)));
  const rssServing = rss();
  const s = performance.now();
  const raw = save(db);
  const saveMs = performance.now() - s;
  const w = performance.now();
  const snap = await writeSnapshot(dir, raw);
  const writeMs = performance.now() - w;
  return {
    ...base,
    ...stats("p", any.ms),
    ...stats("thr0", all.ms),
    ...stats("skipCommon", skip.ms),
    queriesTimed: any.ms.length,
    queriesTimedThr0: all.ms.length,
    meanHits: Math.round(any.out.reduce((a, r) => a + r.count, 0) / any.out.length),
    meanHitsThr0: Math.round(all.out.reduce((a, r) => a + r.count, 0) / all.out.length),
    rssAfterQueriesMB: mb(rssServing),
    saveMs: Math.round(saveMs),
    stringifyWriteMs: Math.round(writeMs),
    snapshotMB: mb(snap.bytes),
    snapshotFiles: snap.files,
  };
}

/** A fresh process: read + parse the JSON snapshot, create + load, answer the first query. */
async function oramaRestore(dir: string): Promise<Row> {
  const t0 = performance.now();
  const queries: string[] = JSON.parse(await Deno.readTextFile(`${dir}/queries.json`));
  const raw = await readSnapshot(dir);
  const t1 = performance.now();
  const db = oramaDb();
  load(db, raw);
  const t2 = performance.now();
  const first = await oramaSearch(db, queries[0], {});
  const t3 = performance.now();
  const firstAnswerAt = Date.now();
  const after = await timeQueries(queries, (q) => oramaSearch(db, q, {}));
  const rssRestored = rss();
  gc();
  return {
    firstAnswerAt,
    restoreReadParseMs: Math.round(t1 - t0),
    restoreLoadMs: Math.round(t2 - t1),
    firstQueryMs: round(t3 - t2),
    restartInProcMs: Math.round(t3), // performance.now() counts from process start
    firstHits: first.count,
    restoredP95: round(pct(after.ms, 95)),
    rssRestoredMB: mb(rssRestored),
    rssRestoredGcMB: mb(rss()),
  };
}

// ---- libSQL FTS5 ------------------------------------------------------------------------------

const FTS_SQL = `SELECT rowid, bm25(docs_fts, ${
  Object.values(WEIGHTS).join(", ")
}) AS score FROM docs_fts WHERE docs_fts MATCH ? ORDER BY score LIMIT 10`;

/** The query's words, each quoted, ORed: the same terms Orama gets. */
function ftsMatch(q: string): string {
  const ws = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return `{title summary tags body} : (${ws.map((w) => `"${w}"`).join(" OR ")})`;
}

async function openFts(dir: string) {
  const db = createClient({ url: `file:${dir}/fts.db` });
  await db.execute("PRAGMA journal_mode=WAL");
  await db.execute("PRAGMA synchronous=NORMAL");
  return db;
}

/**
 * The queries with search/fts.ts's common-term rule applied (COMMON_TERM_SHARE 0.3, only for 2+
 * words and 1000+ docs, never dropping every word): both engines then get the same reduced text.
 */
async function skipCommon(db: Client, queries: string[], docs: number): Promise<string[]> {
  await db.execute(
    "CREATE VIRTUAL TABLE IF NOT EXISTS docs_vocab USING fts5vocab(docs_fts, 'row')",
  );
  const out: string[] = [];
  for (const q of queries) {
    const ws = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    if (ws.length < 2 || docs < 1000) {
      out.push(q);
      continue;
    }
    const rs = await db.execute({
      sql: `SELECT term, doc FROM docs_vocab WHERE term IN (${ws.map(() => "?").join(",")})`,
      args: ws.map(porterStem),
    });
    const common = new Set(
      rs.rows.filter((r) => Number(r.doc) > COMMON_TERM_SHARE * docs).map((r) => String(r.term)),
    );
    const kept = ws.filter((w) => !common.has(porterStem(w)));
    out.push((kept.length > 0 ? kept : ws).join(" "));
  }
  return out;
}

async function ftsBuild(dir: string, size: number): Promise<Row> {
  const gen = catalog(size);
  const db = await openFts(dir);
  await db.execute(`CREATE VIRTUAL TABLE docs_fts USING fts5(title, summary, tags, body,
    content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2')`);
  let buildMs = 0;
  let genMs = 0;
  const batches = articles(size, gen);
  let n = 0;
  for (;;) {
    const g = performance.now();
    const next = batches.next();
    genMs += performance.now() - g;
    if (next.done) break;
    const a = performance.now();
    await db.batch(
      next.value.map((r, j) => ({
        sql: "INSERT INTO docs_fts (rowid, title, summary, tags, body) VALUES (?, ?, ?, ?, ?)",
        args: [n + j + 1, r.title, r.summary, JSON.stringify(r.tags), r.body],
      })),
      "write",
    );
    buildMs += performance.now() - a;
    n += next.value.length;
  }
  const queries = Array.from({ length: queryCount }, () => gen.query());
  await Deno.writeTextFile(`${dir}/queries.json`, JSON.stringify(queries));
  const skipped = await skipCommon(db, queries, n);
  await Deno.writeTextFile(`${dir}/queries-skip.json`, JSON.stringify(skipped));
  const run = await timeQueries(queries, async (q) => {
    const rs = await db.execute({ sql: FTS_SQL, args: [ftsMatch(q)] });
    return rs.rows.map((r) => `a${String(Number(r.rowid) - 1).padStart(8, "0")}`);
  });
  await Deno.writeTextFile(`${dir}/fts-top.json`, JSON.stringify(run.out));
  const skip = await timeQueries(skipped, (q) => db.execute({ sql: FTS_SQL, args: [ftsMatch(q)] }));
  const rssBuild = rss();
  db.close();
  let dbBytes = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith("fts.db")) dbBytes += (await Deno.stat(`${dir}/${e.name}`)).size;
  }
  return {
    inserted: n,
    insertMs: Math.round(buildMs),
    insertDocsPerS: Math.round(n / (buildMs / 1000)),
    genMs: Math.round(genMs),
    rssBuildMB: mb(rssBuild),
    ...stats("p", run.ms),
    ...stats("skipCommon", skip.ms),
    queriesChangedBySkip: skipped.filter((q, i) => q !== queries[i]).length,
    snapshotMB: mb(dbBytes),
  };
}

async function ftsServe(dir: string): Promise<Row> {
  const queries: string[] = JSON.parse(await Deno.readTextFile(`${dir}/queries.json`));
  const db = await openFts(dir);
  const a = performance.now();
  await db.execute({ sql: FTS_SQL, args: [ftsMatch(queries[0])] });
  const firstQueryMs = performance.now() - a;
  const restartInProcMs = performance.now();
  const firstAnswerAt = Date.now();
  const run = await timeQueries(queries, (q) => db.execute({ sql: FTS_SQL, args: [ftsMatch(q)] }));
  const rssServe = rss();
  db.close();
  return {
    firstAnswerAt,
    firstQueryMs: round(firstQueryMs),
    restartInProcMs: Math.round(restartInProcMs),
    restoredP95: round(pct(run.ms, 95)),
    ...stats("serveP", run.ms),
    rssRestoredMB: mb(rssServe),
  };
}

// ---- Driver -----------------------------------------------------------------------------------

async function phase(argv: string[], timeoutS: number): Promise<Row & { spawnedAt: number }> {
  const spawnedAt = Date.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "-A",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      // Room above the rss cap so the cap, not V8's default heap limit, stops a large build.
      `--v8-flags=--expose-gc,--max-old-space-size=${Math.round(rssCapGb * 1024 * 1.5)}`,
      new URL(import.meta.url).pathname,
      ...argv,
      `--queries=${queryCount}`,
      `--rss-cap-gb=${rssCapGb}`,
      `--insert-cap-s=${insertCapS}`,
      `--piece-chars=${PIECE_CHARS}`,
    ],
    stdout: "piped",
    stderr: "inherit",
    signal: AbortSignal.timeout(timeoutS * 1000),
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) {
    return {
      spawnedAt,
      failed: `${argv[1]} exited ${out.code}${out.signal ? ` ${out.signal}` : ""}`,
    };
  }
  return { spawnedAt, ...JSON.parse(text.split("\n").at(-1)!) };
}

function overlap(dir: string): number {
  const a: string[][] = JSON.parse(Deno.readTextFileSync(`${dir}/orama-top.json`));
  const b: string[][] = JSON.parse(Deno.readTextFileSync(`${dir}/fts-top.json`));
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const s = new Set(b[i]);
    sum += a[i].filter((id) => s.has(id)).length / Math.max(1, Math.min(10, b[i].length));
  }
  return round(sum / a.length);
}

async function benchSize(size: number): Promise<Row[]> {
  const dir = await Deno.makeTempDir({ prefix: "folio-orama-" });
  try {
    console.error(`size ${size}: fts5 build`);
    const fb = await phase(["--child", "fts-build", dir, String(size)], 600);
    let fts: Row = { articles: size, engine: "fts5", ...fb };
    if (!fb.failed) {
      console.error(`size ${size}: fts5 reopen`);
      const fs = await phase(["--child", "fts-serve", dir], 300);
      fts = {
        ...fts,
        ...fs,
        restartWallMs: fs.failed ? null : Number(fs.firstAnswerAt) - fs.spawnedAt,
      };
    }
    console.error(`size ${size}: orama build`);
    const ob = fb.failed
      ? { spawnedAt: 0, failed: "fts5 build (which writes the query set) failed" }
      : await phase(["--child", "orama-build", dir, String(size)], 720);
    let orama: Row = { articles: size, engine: "orama", ...ob };
    if (!ob.failed && !ob.stopped) {
      console.error(`size ${size}: orama restore`);
      const or = await phase(["--child", "orama-restore", dir], 300);
      orama = {
        ...orama,
        ...or,
        restartWallMs: or.failed ? null : Number(or.firstAnswerAt) - or.spawnedAt,
      };
      orama.top10OverlapWithFts = overlap(dir);
    }
    for (const r of [orama, fts]) {
      delete r.spawnedAt;
      delete r.firstAnswerAt;
    }
    return [orama, fts];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const child = /--child (\S+) (\S+)(?: (\d+))?/.exec(args);
if (child) {
  const [, mode, dir, n] = child;
  const r = mode === "orama-build"
    ? await oramaBuild(dir, Number(n))
    : mode === "orama-restore"
    ? await oramaRestore(dir)
    : mode === "fts-build"
    ? await ftsBuild(dir, Number(n))
    : await ftsServe(dir);
  console.log(JSON.stringify(r));
  Deno.exit(0);
}

const rows: Row[] = [];
const verdicts: string[] = [];
const checks: Checked[] = [];
const noWorse = atMost(1, "× FTS5");
for (const size of sizes) {
  const [orama, fts] = await benchSize(size);
  for (const r of [orama, fts]) {
    rows.push(r);
    console.log(JSON.stringify({ bench: "orama-vs-fts5", ...r }));
  }
  const memO = Math.max(Number(orama.rssBuildMB ?? NaN), Number(orama.rssRestoredMB ?? NaN));
  const memF = Math.max(Number(fts.rssBuildMB ?? NaN), Number(fts.rssRestoredMB ?? NaN));
  const ratios = {
    articles: size,
    p95OramaOverFts: round(Number(orama.pP95) / Number(fts.pP95)),
    p95Thr0OramaOverFts: round(Number(orama.thr0P95) / Number(fts.pP95)),
    p95SkipCommonOramaOverFts: round(Number(orama.skipCommonP95) / Number(fts.skipCommonP95)),
    rssOramaOverFts: round(memO / memF),
    restartOramaOverFts: round(Number(orama.restartWallMs) / Number(fts.restartWallMs)),
  };
  console.log(JSON.stringify({ bench: "orama-vs-fts5-ratios", ...ratios }));
  const { articles: _, ...judged } = ratios;
  for (const [k, v] of Object.entries(judged)) {
    checks.push(checkTarget(`${size}: ${k}`, v, noWorse));
  }
  const t = TARGETS[size] ?? TARGETS[100000];
  const check = (r: Row, mem: number) => {
    if (r.failed || r.stopped) return `no (${r.failed ?? r.stopped})`;
    const misses = [
      Number(r.pP95) < t.p95 ? null : `p95 ${r.pP95} ms >= ${t.p95}`,
      mem < t.rssMB ? null : `rss ${mem} MB >= ${t.rssMB}`,
      Number(r.restartWallMs) < t.restartMs
        ? null
        : `restart ${r.restartWallMs} ms >= ${t.restartMs}`,
    ].filter(Boolean);
    return misses.length === 0 ? "yes" : `no (${misses.join("; ")})`;
  };
  verdicts.push(
    `verdict ${size}: Orama meets p95<${t.p95}ms, rss<${t.rssMB}MB, restart<${t.restartMs}ms: ` +
      `${check(orama, memO)} [p95 ${orama.pP95} ms, threshold 0 p95 ${orama.thr0P95} ms, ` +
      `with common-term skip p95 ${orama.skipCommonP95} ms (FTS5 ${fts.skipCommonP95} ms), ` +
      `rss max(build, restored) ${memO} MB, restart ${orama.restartWallMs} ms]; ` +
      `FTS5: ${
        check(fts, memF)
      } [p95 ${fts.pP95} ms, rss ${memF} MB, restart ${fts.restartWallMs} ms]`,
  );
}
console.table(rows.map((r) => {
  const o: Row = {};
  for (
    const k of [
      "articles",
      "engine",
      "insertMs",
      "insertDocsPerS",
      "pP50",
      "pP95",
      "pP99",
      "thr0P95",
      "skipCommonP95",
      "rssBuildMB",
      "rssRestoredMB",
      "snapshotMB",
      "restartWallMs",
      "stopped",
      "failed",
    ]
  ) if (k in r) o[k] = r[k];
  return o;
}));
for (const v of verdicts) console.log(v);
for (const c of checks) console.log(line(c, `${c.value}×`));
console.log(tally(checks));
