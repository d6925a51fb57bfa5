/**
 * REST throughput under concurrent load from a second process on loopback. Prints figures for
 * get_article and search_articles on the demo publisher, and the same load against a bare
 * Deno.serve answering a precomputed article body in the same run: the ratio is the figure.
 * With --size=N it serves a synthetic catalog of N articles instead (loaded and indexed by
 * scripts/bench_search.ts's phases), to measure REST search at scale: latency at concurrency 1
 * and throughput at --concurrency, each run on its own share of 6,000 generated queries so no
 * search repeats. With --processes=2 it also runs the demo rows (or, with --size, the search
 * throughput) against two Folio processes sharing the one store (a second `main.ts` beside this
 * one), the load split evenly. With --data=DIR as well, it serves a copy of a store an earlier
 * `--keep=DIR` run left (built once, so changes can be compared in alternating runs).
 * Usage: deno task bench:rest [--seconds=5] [--concurrency=16] [--size=100000] [--processes=2]
 *   [--data=DIR | --keep=DIR]
 */
import { loadConfig } from "../server/platform/config.ts";
import { startFolio } from "../server/runtime.ts";
import { listRecent } from "../store/articles.ts";
import { createLogger } from "../server/platform/log.ts";
import { secondProcess } from "../tests/processes.ts";
import { TARGETS, verdict } from "./targets.ts";

const flags = Object.fromEntries(Deno.args.map((a) => a.replace(/^--/, "").split("=")));
const seconds = Number(flags.seconds ?? 5);
const concurrency = Number(flags.concurrency ?? 16);
const size = flags.size ? Number(flags.size) : null;
const processes = Number(flags.processes ?? 1);
const dataDir = await Deno.makeTempDir({ prefix: "folio-bench-" });

async function load(
  host: string,
  urls: string[],
  workers = concurrency,
  forSeconds = seconds,
  env: Record<string, string> = {},
) {
  const out = await new Deno.Command(Deno.execPath(), {
    env,
    args: [
      "run",
      `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
      "--allow-net",
      "--allow-env",
      new URL("./load_client.ts", import.meta.url).pathname,
      String(forSeconds),
      String(workers),
      host,
      ...urls,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

if (size) {
  await scaleBench(size);
  Deno.exit(0);
}

/** Builds a synthetic store of `size` articles in a child process, serves it, and loads REST search. */
async function scaleBench(size: number) {
  const searchBench = new URL("./bench_search.ts", import.meta.url).pathname;
  // Enough distinct queries that no search in the timed runs is a repeat the result cache answers.
  const loading = ["--load", dataDir, String(size), "--queries=6000"];
  if (flags.data) {
    await new Deno.Command("cp", { args: ["-r", `${flags.data}/.`, dataDir] }).output();
  }
  for (const phase of flags.data ? [] : [loading, ["--build", dataDir]]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        `--lock=${new URL("../deno.lock", import.meta.url).pathname}`,
        "--allow-all",
        searchBench,
        ...phase,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error(`bench_search.ts ${phase[0]} failed`);
    console.log(new TextDecoder().decode(out.stdout).trim());
  }
  // The build phase snapshots vectors under data/; Folio keeps them under search/.
  await Deno.rename(`${dataDir}/data`, `${dataDir}/search`).catch(() => {});
  if (flags.keep) {
    await new Deno.Command("cp", { args: ["-r", `${dataDir}/.`, flags.keep] }).output();
  }
  const asked: { q: string }[] = JSON.parse(await Deno.readTextFile(`${dataDir}/queries.json`));
  const queries = [...new Set(asked.map((a) => a.q))];
  const t0 = performance.now();
  const folio = await startFolio(
    loadConfig({ PORT: "0", FOLIO_HOST: "127.0.0.1", FOLIO_DATA_DIR: dataDir, FOLIO_SEED: "0" }),
    { log: createLogger("warn") },
  );
  try {
    await folio.store.db.execute(
      `UPDATE publishers SET custom_domain = 'bench.localhost', toggles = '{"publicRest":true}'`,
    );
    const port = new URL(folio.url).port;
    const urls = queries.map((q) =>
      `http://127.0.0.1:${port}/api/v1/articles/search?q=${encodeURIComponent(q)}&limit=10`
    );
    // Each run asks its own share of the distinct queries.
    const runs = processes === 2 ? 3 : 2;
    const share = (i: number) =>
      urls.slice(
        Math.max(1, Math.floor((i * urls.length) / runs)),
        Math.floor(((i + 1) * urls.length) / runs),
      );
    await load("bench.localhost", urls.slice(0, 1), 1, 0.05);
    const restartToFirstMs = Math.round(performance.now() - t0);
    const latency = await load("bench.localhost", share(0), 1);
    const throughput = await load("bench.localhost", share(1), concurrency);
    // Searches that came round to a query again (answered by the result cache): none, or say so.
    let repeats = Math.max(0, latency.requests - share(0).length) +
      Math.max(0, throughput.requests - share(1).length);
    const rssMB = Math.round(Deno.memoryUsage().rss / 1e6);
    const rows = [
      {
        name: `REST search at ${size} (concurrency 1)`,
        ...latency,
        ...verdict(TARGETS.restSearch100kP95, latency.p95),
      },
      {
        name: `REST search at ${size} (concurrency ${concurrency})`,
        ...throughput,
        ...verdict(TARGETS.restSearch100kThroughput, throughput.rps),
      },
    ];
    if (processes === 2) {
      // A second process on the same store and snapshots, the distinct queries alternating.
      await using other = await secondProcess(dataDir);
      await load("bench.localhost", [urls[0].replace(`:${port}/`, `:${other.port}/`)], 1, 0.05);
      const mine = share(2);
      const both = mine.map((u, i) => i % 2 ? u.replace(`:${port}/`, `:${other.port}/`) : u);
      const two = await load("bench.localhost", both, concurrency);
      repeats += Math.max(0, two.requests - mine.length);
      rows.push({
        name: `REST search at ${size} (concurrency ${concurrency}, 2 processes, one store)`,
        ...two,
        ...verdict(TARGETS.restSearch100kThroughput, two.rps),
      });
    }
    for (const r of rows) {
      console.log(JSON.stringify({ bench: "rest-scale", size, ...r }));
    }
    console.table(rows);
    // The run's other figures, each with its target.
    const others = [
      {
        name: "restart to first answer (ms)",
        value: restartToFirstMs,
        ...verdict(TARGETS.restartToFirstAnswer, restartToFirstMs),
      },
      { name: "serving RSS (MB)", value: rssMB, ...verdict(TARGETS.serveRss100k, rssMB) },
      { name: "repeated searches", value: repeats, ...verdict(TARGETS.searchRepeats, repeats) },
    ];
    for (const o of others) console.log(JSON.stringify({ bench: "rest-scale", size, ...o }));
    console.table(others);
  } finally {
    await folio.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
}

const folio = await startFolio(
  loadConfig({ PORT: "0", FOLIO_HOST: "127.0.0.1", FOLIO_DATA_DIR: dataDir }),
  { log: createLogger("warn") },
);

/** A buyer signed up through the API, its key for the charged reads. */
async function benchBuyerKey(port: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/marketplace/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench buyer", email: "bench@buyer.test" }),
  });
  if (!res.ok) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  return (await res.json()).apiKey;
}

/**
 * The demo's PAYWALL articles at a price that cannot reach the monthly cap in a run (a hundredth
 * of a cent), so every request is a charge rather than a refusal.
 */
async function chargedUrls(port: string): Promise<string[]> {
  const db = folio.store.db;
  await db.execute(
    "UPDATE articles SET price_micros = 100 WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'",
  );
  const rs = await db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL' ORDER BY id",
  );
  return rs.rows.map((r) =>
    `http://127.0.0.1:${port}/api/v1/articles/${r.id}?last_user_prompt=benchmark`
  );
}
try {
  while (await folio.deps.search.embedPending({ publisherId: "pub_demo" }) > 0) { /* embed all */ }
  const port = new URL(folio.url).port;
  const articles = (await listRecent(folio.store.db, "pub_demo", { limit: 100 }))
    .filter((a) => a.policy === "OBSERVE");
  const articleUrls = articles.map((a) =>
    `http://127.0.0.1:${port}/api/v1/articles/${a.id}?last_user_prompt=benchmark`
  );
  const queries = ["heat pumps", "coral reefs", "city cycling", "sleep", "copyright", "batteries"];
  const searchUrls = queries.map((q) =>
    `http://127.0.0.1:${port}/api/v1/articles/search?q=${encodeURIComponent(q)}`
  );
  const body = JSON.stringify({ article: articles[0], license: {} });
  const bare = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(body, { headers: { "content-type": "application/json" } }),
  );
  const bareUrls = [`http://127.0.0.1:${bare.addr.port}/`];
  const baseline = await load("127.0.0.1", bareUrls);
  const get = await load("demo.localhost", articleUrls);
  const chargedEnv = { FOLIO_LOAD_AUTH: await benchBuyerKey(port), FOLIO_LOAD_IDEMPOTENT: "1" };
  const paywalled = await chargedUrls(port);
  const countCharges = async () =>
    Number((await folio.store.db.execute("SELECT COUNT(*) AS n FROM charges")).rows[0].n);
  const chargesBefore = await countCharges(); // the demo's seeded history
  const charged = await load("demo.localhost", paywalled, concurrency, seconds, chargedEnv);
  // Every charged request must have written its own ledger row, or the figure measures refusals.
  const chargesRecorded = (await countCharges()) - chargesBefore;
  // Up to one more row per connection: reads in flight when the load client stopped counting.
  const unaccounted = chargesRecorded - charged.requests;
  const chargesOk = TARGETS.chargesPerRequest.ok(unaccounted) && unaccounted <= concurrency &&
    charged.errors === 0;
  const search = await load("demo.localhost", searchUrls);
  await bare.shutdown();
  const rows = [
    {
      name: "baseline (bare Deno.serve, same body)",
      ...baseline,
      ...verdict(TARGETS.baselineClean, baseline.errors),
    },
    {
      name: "REST get_article",
      ...get,
      ratioToBaseline: +(get.rps / baseline.rps).toFixed(3),
      ...verdict(TARGETS.restGetArticle, get.rps / baseline.rps),
    },
    {
      name: "REST get_article, charged (buyer key, PAYWALL, Idempotency-Key)",
      ...charged,
      ratioToBaseline: +(charged.rps / baseline.rps).toFixed(3),
      ...verdict(TARGETS.restChargedRead, charged.rps / baseline.rps),
      chargesRecorded,
      chargesTarget: TARGETS.chargesPerRequest.target,
      chargesMet: chargesOk,
    },
    {
      name: "REST search_articles",
      ...search,
      ratioToBaseline: +(search.rps / baseline.rps).toFixed(3),
      ...verdict(TARGETS.restSearchDemo, search.rps / baseline.rps),
    },
  ];
  if (processes === 2) {
    // A second process on the same store: every URL also goes to it, alternating.
    await using other = await secondProcess(dataDir);
    const both = (urls: string[]) =>
      urls.flatMap((u) => [u, u.replace(`:${port}/`, `:${other.port}/`)]);
    await load("demo.localhost", both(searchUrls), 2, 1); // the second process loads its index
    const twice = [
      ["REST get_article", TARGETS.restGetArticle, await load("demo.localhost", both(articleUrls))],
      [
        "REST get_article, charged",
        TARGETS.restChargedRead,
        await load("demo.localhost", both(paywalled), concurrency, seconds, chargedEnv),
      ],
      [
        "REST search_articles",
        TARGETS.restSearchDemo,
        await load("demo.localhost", both(searchUrls)),
      ],
    ] as const;
    for (const [name, target, r] of twice) {
      rows.push({
        name: `${name} (2 processes, one store)`,
        ...r,
        ratioToBaseline: +(r.rps / baseline.rps).toFixed(3),
        ...verdict(target, r.rps / baseline.rps),
      });
    }
  }
  for (const r of rows) console.log(JSON.stringify({ bench: "rest", seconds, concurrency, ...r }));
  console.table(rows);
} finally {
  await folio.shutdown();
  await Deno.remove(dataDir, { recursive: true });
}
