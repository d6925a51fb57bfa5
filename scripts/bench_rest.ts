/**
 * REST throughput under concurrent load from a second process on loopback. Prints figures for
 * get_article and search_articles on the demo publisher, and the same load against a bare
 * Deno.serve answering a precomputed article body in the same run: the ratio is the figure.
 * Usage: deno task bench:rest [--seconds=5] [--concurrency=16]
 */
import { loadConfig } from "../server/config.ts";
import { startFolio } from "../server/runtime.ts";
import { listRecent } from "../store/articles.ts";
import { createLogger } from "../server/log.ts";

const flags = Object.fromEntries(Deno.args.map((a) => a.replace(/^--/, "").split("=")));
const seconds = Number(flags.seconds ?? 5);
const concurrency = Number(flags.concurrency ?? 16);
const dataDir = await Deno.makeTempDir({ prefix: "folio-bench-" });

async function load(host: string, urls: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      new URL("./load_client.ts", import.meta.url).pathname,
      String(seconds),
      String(concurrency),
      host,
      ...urls,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const folio = await startFolio(
  loadConfig({ PORT: "0", FOLIO_HOST: "127.0.0.1", FOLIO_DATA_DIR: dataDir }),
  { log: createLogger("warn") },
);
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
  const search = await load("demo.localhost", searchUrls);
  await bare.shutdown();
  const rows = [
    { name: "baseline (bare Deno.serve, same body)", ...baseline },
    { name: "REST get_article", ...get, ratioToBaseline: +(get.rps / baseline.rps).toFixed(3) },
    {
      name: "REST search_articles",
      ...search,
      ratioToBaseline: +(search.rps / baseline.rps).toFixed(3),
    },
  ];
  for (const r of rows) console.log(JSON.stringify({ bench: "rest", seconds, concurrency, ...r }));
  console.table(rows);
} finally {
  await folio.shutdown();
  await Deno.remove(dataDir, { recursive: true });
}
