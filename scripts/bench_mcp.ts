/**
 * MCP benchmark: tools/call throughput and latency (p50/p95) for search_articles and get_article
 * against Folio (real store, decision, call log), next to the same two tools on a minimal SDK
 * server over in-memory data (same transport, same process, same run). The two servers take turns,
 * `rounds` times each (a 400-call measurement lasts a fifth of a second, so one GC pause or a busy
 * neighbour moved a single ratio by 10%); figures pool every round, and each round's ratio is
 * printed too. Prints one JSON line per server and the Folio/baseline ratios; timings are
 * compared, never asserted.
 *
 *   deno run -A scripts/bench_mcp.ts [--calls=1000] [--rounds=5] [--concurrency=8]
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { loadConfig } from "../server/platform/config.ts";
import { createLogger } from "../server/platform/log.ts";
import { startFolio } from "../server/runtime.ts";
import catalog from "../server/seed/demo_catalog.json" with { type: "json" };
import { TARGETS, verdict } from "./targets.ts";

const args = Object.fromEntries(
  Deno.args.map((a) => a.replace(/^--/, "").split("=")).map(([k, v]) => [k, Number(v)]),
);
const CALLS = args.calls || 1000;
const ROUNDS = args.rounds || 5;
const CONCURRENCY = args.concurrency || 8;
const QUERIES = ["energy", "city transport", "climate science", "music", "water", "housing"];

interface DemoArticle {
  url: string;
  title: string;
  author: string;
  summary: string;
  tags: string[];
  body: string;
}

/** A minimal MCP server: the two tools over the bundled catalog held in memory. */
function baselineServer(): McpServer {
  const articles = (catalog as DemoArticle[]).map((a, i) => ({ id: `a${i}`, ...a }));
  const server = new McpServer({ name: "baseline", version: "1.0.0" });
  server.registerTool("search_articles", {
    inputSchema: {
      query: z.string().min(1).max(200),
      limit: z.number().int().min(1).max(50).optional(),
    },
  }, ({ query, limit }: { query: string; limit?: number }) => {
    const words: string[] = query.toLowerCase().split(/\s+/);
    const hits = articles.map((a) => ({
      a,
      score: words.filter((w) =>
        `${a.title} ${a.summary} ${a.body}`.toLowerCase().includes(w)
      ).length,
    })).filter((h) => h.score > 0).sort((x, y) => y.score - x.score).slice(0, limit ?? 10);
    const results = hits.map(({ a }) => ({
      id: a.id,
      url: a.url,
      title: a.title,
      summary: a.summary,
    }));
    return {
      content: [{ type: "text", text: JSON.stringify(results) }],
      structuredContent: { results },
    };
  });
  server.registerTool("get_article", {
    inputSchema: { url_or_id: z.string().min(1).max(2048) },
  }, ({ url_or_id }: { url_or_id: string }) => {
    const a = articles.find((x) => x.id === url_or_id || x.url === url_or_id);
    if (!a) return { content: [{ type: "text", text: "not found" }], isError: true };
    return { content: [{ type: "text", text: `# ${a.title}\n\n${a.body}` }] };
  });
  return server;
}

function serveBaseline(): { url: URL; close(): Promise<void> } {
  const httpServer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const server = baselineServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      await server.close();
    }
  });
  return {
    url: new URL(`http://127.0.0.1:${httpServer.addr.port}/mcp`),
    close: () => httpServer.shutdown(),
  };
}

async function measure(
  url: URL,
  tool: string,
  argsFor: (i: number) => Record<string, unknown>,
): Promise<{ seconds: number; latencies: number[]; errors: number }> {
  const clients: Client[] = await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    const c = new Client({ name: "bench", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(url));
    return c;
  }));
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(clients.map(async (c) => {
    while (next < CALLS) {
      const i = next++;
      const t0 = performance.now();
      const r = await c.callTool({ name: tool, arguments: argsFor(i) });
      latencies.push(performance.now() - t0);
      if (r.isError) errors++;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  return { seconds, latencies, errors };
}

type Run = Awaited<ReturnType<typeof measure>>;

/** Every round's calls together: throughput over their total time, latency percentiles. */
function pooled(runs: Run[]) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  const pct = (p: number) =>
    Math.round(latencies[Math.floor((latencies.length - 1) * p)] * 100) / 100;
  return {
    callsPerSec: Math.round(latencies.length / seconds),
    p50Ms: pct(0.5),
    p95Ms: pct(0.95),
    errors: runs.reduce((t, r) => t + r.errors, 0),
  };
}

const dataDir = await Deno.makeTempDir({ prefix: "folio-bench-mcp-" });
const folio = await startFolio(
  loadConfig({ PORT: "0", FOLIO_HOST: "127.0.0.1", FOLIO_DATA_DIR: dataDir }),
  { log: createLogger("error") },
);
const baseline = serveBaseline();
try {
  const folioUrl = new URL(`http://127.0.0.1:${new URL(folio.url).port}/api/mcp/pub_demo`);
  const rs = await folio.store.db.execute(
    "SELECT id FROM articles WHERE publisher_id = 'pub_demo' AND policy = 'OBSERVE' ORDER BY id",
  );
  const folioIds = rs.rows.map((r) => String(r.id));
  const baseIds = (catalog as DemoArticle[]).map((_, i) => `a${i}`);
  const cases = [
    {
      tool: "search_articles",
      folio: (i: number) => ({ query: QUERIES[i % QUERIES.length], limit: 10 }),
      base: (i: number) => ({ query: QUERIES[i % QUERIES.length], limit: 10 }),
    },
    {
      tool: "get_article",
      folio: (i: number) => ({ url_or_id: folioIds[i % folioIds.length] }),
      base: (i: number) => ({ url_or_id: baseIds[i % baseIds.length] }),
    },
  ];
  for (const c of cases) {
    // Warm both sides (JIT, search index, connection pools) before measuring.
    await measure(folioUrl, c.tool, c.folio);
    await measure(baseline.url, c.tool, c.base);
    const folioRuns: Run[] = [];
    const baseRuns: Run[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      folioRuns.push(await measure(folioUrl, c.tool, c.folio));
      baseRuns.push(await measure(baseline.url, c.tool, c.base));
    }
    const f = pooled(folioRuns);
    const b = pooled(baseRuns);
    const roundRatios = folioRuns.map((run, r) =>
      Math.round((baseRuns[r].seconds / run.seconds) * 100) / 100
    );
    const common = {
      bench: "mcp_tools_call",
      tool: c.tool,
      calls: CALLS * ROUNDS,
      concurrency: CONCURRENCY,
    };
    // Each server's own figures count only if every call was answered (the ratios divide them).
    console.log(JSON.stringify({
      ...common,
      server: "folio",
      ...f,
      ...verdict(TARGETS.baselineClean, f.errors),
    }));
    console.log(JSON.stringify({
      ...common,
      server: "baseline",
      ...b,
      ...verdict(TARGETS.baselineClean, b.errors),
    }));
    const get = c.tool === "get_article";
    const throughput = f.callsPerSec / b.callsPerSec;
    const p95 = f.p95Ms / b.p95Ms;
    console.log(JSON.stringify({
      ...common,
      ratio: {
        throughputFolioOverBaseline: Math.round(throughput * 100) / 100,
        throughputByRound: roundRatios,
        ...verdict(get ? TARGETS.mcpGetArticle : TARGETS.mcpSearchArticles, throughput),
      },
      p95Ratio: {
        p95FolioOverBaseline: Math.round(p95 * 100) / 100,
        ...verdict(get ? TARGETS.mcpGetArticleP95 : TARGETS.mcpSearchArticlesP95, p95),
      },
    }));
  }
} finally {
  await baseline.close();
  await folio.shutdown();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
