/**
 * Search benchmark: a synthetic catalog (Zipf vocabulary with topics, 400-800-word bodies with
 * sections, titles, summaries, tags) bulk-loaded by SQL, then index build time, hybrid search
 * latency through the SearchService, FTS5-only latency on the same data, restart to serving and
 * resident memory. Prints JSON lines, then a table.
 *
 *   deno run -A scripts/bench_search.ts [--sizes 10000,100000] [--queries 300]
 */
import { openStore } from "../store/db.ts";
import { createSearchService } from "../search/mod.ts";

const PUB = "pub_bench";
const args = Deno.args.join(" ");
const sizes = (/--sizes[ =]([\d,]+)/.exec(args)?.[1] ?? "10000,100000").split(",").map(Number);
const queryCount = Number(/--queries[ =](\d+)/.exec(args)?.[1] ?? 300);

/** A seeded uniform generator (mulberry32): the same catalog every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka to ri ne mo la su vi de po ga zu fe bi ho ly wa xe ju mi sa te".split(" ");
const VOCAB = 40_000;
const TOPICS = 300;

/** Pseudo-words of 3-4 syllables, so none is an English stop word. */
function word(i: number): string {
  let n = i + SYLLABLES.length ** 2;
  let out = "";
  while (n > 0) {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return out;
}

/** O(1) sampling from a Zipf(s) distribution over `n` items via a lookup table. */
function zipfTable(n: number, s: number, size: number): Int32Array {
  const w = Array.from({ length: n }, (_, r) => 1 / (r + 1) ** s);
  const total = w.reduce((a, b) => a + b, 0);
  const table = new Int32Array(size);
  let at = 0;
  for (let r = 0; r < n && at < size; r++) {
    const count = Math.max(1, Math.round((w[r] / total) * size));
    table.fill(r, at, Math.min(size, at + count));
    at += count;
  }
  table.fill(n - 1, at);
  return table;
}

/** Generates article rows deterministically: background Zipf words mixed with two topics. */
function catalog(seed: number) {
  const random = rng(seed);
  const words = Array.from({ length: VOCAB }, (_, i) => word(i));
  const background = zipfTable(VOCAB, 1.07, 1 << 20);
  const inTopic = zipfTable(150, 0.9, 1 << 14);
  const topicWords = Array.from(
    { length: TOPICS },
    () => Int32Array.from({ length: 150 }, () => 200 + Math.floor(random() * (VOCAB - 200))),
  );
  const pick = (t1: number, t2: number) => {
    const u = random();
    if (u < 0.55) return words[background[Math.floor(random() * background.length)]];
    const t = u < 0.85 ? t1 : t2;
    return words[topicWords[t][inTopic[Math.floor(random() * inTopic.length)]]];
  };
  const sentence = (t1: number, t2: number, n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(pick(t1, t2));
    out[0] = out[0][0].toUpperCase() + out[0].slice(1);
    return out.join(" ") + ".";
  };
  return {
    article(i: number) {
      const t1 = Math.floor(random() * TOPICS);
      const t2 = Math.floor(random() * TOPICS);
      const target = 400 + Math.floor(random() * 400);
      const parts: string[] = [];
      let count = 0;
      while (count < target) {
        if (parts.length > 0 && random() < 0.2) {
          parts.push(`## ${sentence(t1, t2, 3).slice(0, -1)}`);
        }
        const n = 40 + Math.floor(random() * 80);
        const sentences: string[] = [];
        for (let c = 0; c < n;) {
          const len = 8 + Math.floor(random() * 14);
          sentences.push(sentence(t1, t2, len));
          c += len;
        }
        parts.push(sentences.join(" "));
        count += n;
      }
      const tags = [words[topicWords[t1][0]], words[topicWords[t1][1]], words[topicWords[t2][0]]];
      return {
        id: `a${String(i).padStart(8, "0")}`,
        url: `https://bench.test/${i}`,
        title: sentence(t1, t2, 5 + Math.floor(random() * 5)).slice(0, -1),
        summary: sentence(t1, t2, 25),
        tags: JSON.stringify(tags),
        body: parts.join("\n\n"),
        publishedAt: Date.UTC(2020, 0, 1) + i * 60_000,
      };
    },
    query() {
      const t = Math.floor(random() * TOPICS);
      const u = random();
      const n = u < 0.2 ? 1 : u < 0.6 ? 2 : u < 0.9 ? 3 : 5;
      const q: string[] = [];
      for (let i = 0; i < n; i++) {
        q.push(
          random() < 0.25
            ? pick(t, t)
            : words[topicWords[t][inTopic[Math.floor(random() * inTopic.length)]]],
        );
      }
      return q.join(" ");
    },
  };
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
    return { articles: size, ...load, ...build, ...served, snapshotMB: round(snapshotBytes / 1e6) };
  } finally {
    if (args.includes("--keep")) console.log(`kept ${dir}`);
    else await Deno.remove(dir, { recursive: true });
  }
}

async function phase(argv: string[]): Promise<Record<string, number | string>> {
  const config = new URL("../deno.json", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", config, new URL(import.meta.url).pathname, ...argv],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`Benchmark phase ${argv[0]} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

/** Child mode: bulk-load the catalog by SQL (FTS triggers index as rows land); save the queries. */
async function loadPhase(dir: string, size: number): Promise<void> {
  const store = await openStore(`file:${dir}/folio.db`);
  const t = Date.now();
  await store.db.execute({
    sql: "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    args: [PUB, "bench", "Bench", t, t],
  });
  const gen = catalog(size);
  const t0 = performance.now();
  for (let i = 0; i < size; i += 2000) {
    const rows = Array.from({ length: Math.min(2000, size - i) }, (_, j) => gen.article(i + j));
    await store.db.batch(
      rows.map((r) => ({
        sql: `INSERT INTO articles (id, publisher_id, url, title, summary, tags, body, published_at,
                content_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [r.id, PUB, r.url, r.title, r.summary, r.tags, r.body, r.publishedAt, r.id, t, t],
      })),
      "write",
    );
  }
  const loadAndFtsMs = Math.round(performance.now() - t0);
  await Deno.writeTextFile(
    `${dir}/queries.json`,
    JSON.stringify(Array.from({ length: queryCount }, () => gen.query())),
  );
  store.close();
  console.log(JSON.stringify({ loadAndFtsMs }));
}

/** Child mode: chunk, train the model and embed everything, as the background loop would. */
async function buildPhase(dir: string): Promise<void> {
  const store = await openStore(`file:${dir}/folio.db`);
  const service = createSearchService({ db: store.db, dataDir: `${dir}/data` });
  const t0 = performance.now();
  while (await service.embedPending({ publisherId: PUB, max: 20_000 }) > 0) { /* until done */ }
  const buildMs = Math.round(performance.now() - t0);
  const cov = await service.coverage(PUB);
  const chunks = Number((await store.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n);
  await service.search(PUB, "warm", { limit: 1 }); // writes the first snapshot
  await service.close();
  store.close();
  console.log(
    JSON.stringify({
      chunks,
      embedded: cov.embedded,
      buildMs,
      rssBuildMB: Math.round(Deno.memoryUsage().rss / 1e6),
    }),
  );
}

/** Child mode: open the store, answer the first query, then time the query set; print one JSON line. */
async function serve(dir: string): Promise<void> {
  const queries: string[] = JSON.parse(await Deno.readTextFile(`${dir}/queries.json`));
  const store = await openStore(`file:${dir}/folio.db`);
  const service = createSearchService({ db: store.db, dataDir: `${dir}/data` });
  const first = await service.search(PUB, queries[0], { limit: 10 });
  const restartMs = performance.now(); // since this process started
  const time = async (s: typeof service, qs: string[]) => {
    const out: number[] = [];
    const modes: Record<string, number> = {};
    for (const q of qs) {
      const a = performance.now();
      const r = await s.search(PUB, q, { limit: 10 });
      out.push(performance.now() - a);
      modes[r.mode] = (modes[r.mode] ?? 0) + 1;
    }
    return { out, modes };
  };
  await time(service, queries.slice(0, 20)); // warm-up: JIT the scan
  const hybrid = await time(service, queries);
  const rss = Deno.memoryUsage().rss;
  const fts = createSearchService({ db: store.db, dataDir: null, legs: "fts" });
  await time(fts, queries.slice(0, 20));
  const ftsOnly = await time(fts, queries);
  const semantic = createSearchService({ db: store.db, dataDir: `${dir}/data`, legs: "semantic" });
  await time(semantic, queries.slice(0, 20));
  const semOnly = await time(semantic, queries);
  for (const s of [service, fts, semantic]) await s.close();
  store.close();
  console.log(JSON.stringify({
    restartMs: Math.round(restartMs),
    restartMode: first.mode,
    hybridP50: round(pct(hybrid.out, 50)),
    hybridP95: round(pct(hybrid.out, 95)),
    hybridP99: round(pct(hybrid.out, 99)),
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
  console.log(JSON.stringify({ bench: "search", ...r }));
}
const keys = Object.keys(results[0] ?? {});
console.log(
  `\n${"metric".padEnd(18)}${results.map((r) => String(r.articles).padStart(12)).join("")}`,
);
for (const k of keys) {
  console.log(`${k.padEnd(18)}${results.map((r) => String(r[k]).padStart(12)).join("")}`);
}
