/**
 * A V8 CPU profile of Folio's serving thread under `bench:rest`'s load (docs/PERFORMANCE.md,
 * "Profiles and probes"): Folio in this process, the load client in another, node:inspector's
 * Profiler around the load. Prints the functions with the most self time and the most inclusive
 * time (the share of all samples), and writes the profile for Chrome DevTools. `--row=mcp` loads
 * MCP get_article as `bench:mcp` does (SDK clients in this process, so they are in the profile).
 * `--cpu` prints the process's CPU time per request instead (no profiler), and the serving
 * thread's alone (Linux /proc), which bounds the rate when the other threads have cores.
 * `--row=search --data=DIR` serves a store `bench:search --load DIR N` and `--build DIR` made (its
 * `data/` renamed `search/`, as `bench:rest --size` does) and loads REST search with its queries.
 * Usage: deno run -A scripts/profile_rest.ts [--row=charged|get|mcp|search] [--cpu] [--seconds=5]
 *   [--concurrency=16] [--out=/tmp/folio.cpuprofile] [--top=40] [--data=DIR] [--settle=0]
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Session } from "node:inspector/promises";
import process from "node:process";
import { loadConfig } from "../server/platform/config.ts";
import { startFolio } from "../server/runtime.ts";
import { listRecent } from "../store/articles.ts";
import { createLogger } from "../server/platform/log.ts";

const flags = Object.fromEntries(Deno.args.map((a) => a.replace(/^--/, "").split("=")));
const row = flags.row ?? "charged";
const seconds = Number(flags.seconds ?? 5);
const concurrency = Number(flags.concurrency ?? 16);
const top = Number(flags.top ?? 40);
const out = flags.out ?? `/tmp/folio-${row}.cpuprofile`;
const dataDir = flags.data ?? await Deno.makeTempDir({ prefix: "folio-profile-" });
const host = row === "search" ? "bench.localhost" : "demo.localhost";
const folio = await startFolio(
  loadConfig({
    PORT: "0",
    FOLIO_HOST: "127.0.0.1",
    FOLIO_DATA_DIR: dataDir,
    ...(flags.data ? { FOLIO_SEED: "0" } : {}),
  }),
  { log: createLogger("warn") },
);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

function load(urls: string[], env: Record<string, string>, forSeconds = seconds) {
  return new Deno.Command(Deno.execPath(), {
    env,
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      new URL("./load_client.ts", import.meta.url).pathname,
      String(forSeconds),
      String(concurrency),
      host,
      ...urls,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output().then((o) => JSON.parse(new TextDecoder().decode(o.stdout)));
}

/** MCP get_article calls from SDK clients in this process for `forSeconds`, as bench:mcp makes. */
function mcpLoad(
  port: string,
  db: typeof folio.store.db,
): (forSeconds?: number) => Promise<{ calls: number; callsPerSec: number }> {
  return async (forSeconds = seconds) => {
    const rs = await db.execute(
      "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'OBSERVE' ORDER BY id",
    );
    const ids = rs.rows.map((r) => String(r.id));
    const url = new URL(`http://127.0.0.1:${port}/api/mcp/pub_demo`);
    const clients: Client[] = await Promise.all(Array.from({ length: 8 }, async () => {
      const c = new Client({ name: "profile", version: "1" });
      await c.connect(new StreamableHTTPClientTransport(url));
      return c;
    }));
    let calls = 0;
    const deadline = performance.now() + forSeconds * 1000;
    await Promise.all(clients.map(async (c) => {
      while (performance.now() < deadline) {
        await c.callTool({
          name: "get_article",
          arguments: { url_or_id: ids[calls++ % ids.length] },
        });
      }
    }));
    await Promise.all(clients.map((c) => c.close()));
    return { calls, callsPerSec: Math.round(calls / forSeconds) };
  };
}

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU ticks (user + system) of each thread of this process, by thread id (Linux /proc). */
function threadTicks(): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of Deno.readDirSync("/proc/self/task")) {
    const stat = Deno.readTextFileSync(`/proc/self/task/${e.name}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(Number(e.name), Number(fields[11]) + Number(fields[12]));
  }
  return out;
}

try {
  const port = new URL(folio.url).port;
  const db = folio.store.db;
  let urls: string[];
  let env: Record<string, string> = {};
  if (row === "charged") {
    await db.execute(
      "UPDATE articles SET price_micros = 100 WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL'",
    );
    const rs = await db.execute(
      "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'PAYWALL' ORDER BY id",
    );
    urls = rs.rows.map((r) =>
      `http://127.0.0.1:${port}/api/v1/articles/${r.id}?last_user_prompt=benchmark`
    );
    const res = await fetch(`http://127.0.0.1:${port}/api/marketplace/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Profile buyer", email: "profile@buyer.test" }),
    });
    env = { FOLIO_LOAD_AUTH: (await res.json()).apiKey, FOLIO_LOAD_IDEMPOTENT: "1" };
  } else if (row === "search") {
    await db.execute(
      `UPDATE publishers SET custom_domain = 'bench.localhost', toggles = '{"publicRest":true}'`,
    );
    const asked: { q: string }[] = JSON.parse(await Deno.readTextFile(`${dataDir}/queries.json`));
    urls = [...new Set(asked.map((a) => a.q))].map((q) =>
      `http://127.0.0.1:${port}/api/v1/articles/search?q=${encodeURIComponent(q)}&limit=10`
    );
  } else {
    urls = (await listRecent(db, "pub_demo", { limit: 100 }))
      .filter((a) => a.policy === "OBSERVE")
      .map((a) => `http://127.0.0.1:${port}/api/v1/articles/${a.id}?last_user_prompt=benchmark`);
  }
  const run = row === "mcp"
    ? mcpLoad(port, db)
    : (forSeconds?: number) => load(urls, env, forSeconds);
  // Warm-up (JIT, caches); a search warm-up asks other queries than the run, which the result
  // cache would answer otherwise.
  // `--settle=S` waits S seconds first (a restored store's background upkeep).
  await new Promise((resolve) => setTimeout(resolve, Number(flags.settle ?? 0) * 1000));
  if (row === "search") await load(urls.splice(-500), env, 1);
  else await run(1);
  if ("cpu" in flags) {
    // No profiler: the process's CPU time (serving thread and its workers) per request, which a
    // loaded machine inflates far less than throughput (docs/PERFORMANCE.md, "Measuring notes").
    const before = process.cpuUsage();
    const threadsBefore = threadTicks();
    const r = await run();
    const used = process.cpuUsage(before);
    const threadsAfter = threadTicks();
    const n = "requests" in r ? r.requests : r.calls;
    console.log(JSON.stringify({
      row,
      ...r,
      cpuUsPerRequest: Math.round((used.user + used.system) / n),
      // The serving thread's share: what bounds throughput when other threads have cores.
      servingThreadUsPerRequest: Math.round(
        ((threadsAfter.get(Deno.pid) ?? 0) - (threadsBefore.get(Deno.pid) ?? 0)) * 1e6 /
          TICKS_PER_SECOND / n,
      ),
      load: Deno.loadavg()[0],
    }));
    Deno.exit(0);
  }
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  const result = await run();
  const { profile } = await session.post("Profiler.stop") as unknown as {
    profile: { nodes: Node[]; samples: number[] };
  };
  session.disconnect();
  await Deno.writeTextFile(out, JSON.stringify(profile));
  console.log(JSON.stringify({ row, ...result }));

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map<number, number>();
  for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const total = profile.samples.length;
  const name = (n: Node) => {
    const f = n.callFrame;
    const file = f.url.replace(/^.*\/(wt\/[^/]+|node_modules|npm)\//, "").slice(-60);
    return `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, count] of hits) {
    const k = name(byId.get(id)!);
    self.set(k, (self.get(k) ?? 0) + count);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at)!);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + count);
    }
  }
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title} (% of ${total} samples)`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(100 * v / total).toFixed(1).padStart(5)}  ${k}`);
    }
  };
  show("self", self);
  show("inclusive", inclusive);
  console.log(`\nprofile written to ${out}`);
} finally {
  await folio.shutdown();
  if (!flags.data) await Deno.remove(dataDir, { recursive: true });
}
