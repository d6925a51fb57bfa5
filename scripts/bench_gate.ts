/**
 * The crawler gate's added latency (issue 33): one nginx serves a static origin page three ways:
 * as the origin itself, through a plain proxy_pass, and through the gate (the configuration of
 * GET /api/publisher/gate/config, auth_request to Folio). Times sequential requests from a person
 * and from crawlers on each, and prints the medians and p95s, the ratio of each gated path to the
 * same proxy without the gate, and Folio's own time per decision from the call log.
 * Run: deno run -A scripts/bench_gate.ts [requests per case, default 400]
 */
import { freePort, missing, startNginx } from "../tests/fixtures/proxies.ts";
import { startTestFolio } from "../tests/helpers.ts";
import { BROWSER, GPTBOT, HOST } from "../tests/landing_helpers.ts";
import { createBuyer } from "../server/surfaces/marketplace/buyers.ts";
import { patchDemo } from "../tests/fixtures/demo.ts";
import { check, type Checked, line, tally, TARGETS } from "./targets.ts";

const N = Number(Deno.args[0] ?? 400);
const why = missing("nginx");
if (why) {
  console.error(`bench_gate: ${why}`);
  Deno.exit(1);
}

await using folio = await startTestFolio();
const db = folio.store.db;
const article = async (policy: string) =>
  String(
    (await db.execute({
      sql: `SELECT site_path FROM articles WHERE publisher_id = 'pub_demo' AND policy = ?
            AND kind = 'article' ORDER BY id LIMIT 1`,
      args: [policy],
    })).rows[0].site_path,
  );
const observe = await article("OBSERVE");
const paywall = await article("PAYWALL");
// The origin's robots.txt admits every crawler, as stored by a fetch (no network here).
const robots = "https://origin.bench.example";
await patchDemo(folio, (p) => ({ ...p, robotsOrigin: robots }));
await db.execute({
  sql: `INSERT INTO robots (publisher_id, origin, body, status, fetched_at, last_ok_at)
        VALUES ('pub_demo', ?, 'User-agent: *\nAllow: /\n', 200, ?, ?)`,
  args: [robots, folio.clock.now().getTime(), folio.clock.now().getTime()],
});
const { apiKey } = await createBuyer(db, { name: "Bench Crawler", email: "bench@example.test" }, {
  now: folio.clock.now(),
});

const www = await Deno.makeTempDir({ prefix: "folio_bench_www_" });
const page = `<!doctype html><title>Origin</title>${
  "<p>The publisher's own page.</p>".repeat(400)
}`;
await Deno.writeTextFile(`${www}/page.html`, page);
const originPort = freePort();
const plainPort = freePort();
const origin = `http://127.0.0.1:${originPort}`;
const conf = await (await folio.request(`/api/publisher/gate/config?origin=${origin}`, {
  headers: { authorization: `Bearer ${folio.seeded!.apiKey}` },
})).json() as { nginx: { config: string } };
await using nginx = await startNginx((gatedPort) =>
  `server {
    listen 127.0.0.1:${originPort};
    root ${www};
    location / { default_type text/html; try_files /page.html =404; }
}
server {
    listen 127.0.0.1:${plainPort};
    location / { proxy_pass ${origin}; proxy_set_header Host $host; }
}
${conf.nginx.config.replace("listen 80;", `listen 127.0.0.1:${gatedPort};`)}`
);

const clients = new Map<number, Deno.HttpClient>();
function via(port: number): Deno.HttpClient {
  let c = clients.get(port);
  if (!c) {
    c = Deno.createHttpClient({ proxy: { transport: "tcp", hostname: "127.0.0.1", port } });
    clients.set(port, c);
  }
  return c;
}

/** Milliseconds per request for `n` sequential GETs of `path` through `port`. */
async function time(
  port: number,
  path: string,
  headers: () => Record<string, string>,
  want: number,
) {
  const ms: number[] = [];
  for (let i = 0; i < N + 20; i++) {
    const t = performance.now();
    const res = await fetch(`http://${HOST}:${port}${path}`, {
      headers: headers(),
      client: via(port),
    });
    await res.arrayBuffer();
    if (res.status !== want) throw new Error(`${path} on ${port}: ${res.status}, wanted ${want}`);
    if (i >= 20) ms.push(performance.now() - t); // the first 20 warm the connections up
  }
  return ms.sort((a, b) => a - b);
}

const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (x: number) => x.toFixed(3);
let paid = 0;
const cases = [
  { name: "person", path: observe, headers: () => ({ "user-agent": BROWSER }), want: 200 },
  {
    name: "GPTBot, free article",
    path: observe,
    headers: () => ({ "user-agent": GPTBOT }),
    want: 200,
  },
  {
    name: "GPTBot, quoted 402",
    path: paywall,
    headers: () => ({ "user-agent": GPTBOT }),
    want: 402,
    gatedOnly: true,
  },
  {
    name: "GPTBot, paid read",
    path: paywall,
    headers: () => ({
      "user-agent": GPTBOT,
      authorization: `Bearer ${apiKey}`,
      "crawler-max-price": "USD 1",
      "idempotency-key": `bench-${paid++}`,
    }),
    want: 200,
    gatedOnly: true,
    target: TARGETS.gatePaid,
  },
];
const checks: Checked[] = [];

console.log(
  `bench_gate: ${N} sequential requests per case, nginx ${nginx.port}, medians/p95 in ms`,
);
const direct = await time(originPort, observe, () => ({ "user-agent": BROWSER }), 200);
const plain = await time(plainPort, observe, () => ({ "user-agent": BROWSER }), 200);
// The origin alone and nginx without the gate are the baselines the gated figures are ratios to.
console.log(
  `baseline: origin itself          median ${fmt(q(direct, 0.5))}  p95 ${fmt(q(direct, 0.95))}`,
);
console.log(
  `baseline: through nginx, no gate median ${fmt(q(plain, 0.5))}  p95 ${fmt(q(plain, 0.95))}`,
);
for (const c of cases) {
  const gated = await time(nginx.port, c.path, c.headers, c.want);
  const target = ("target" in c ? c.target : undefined) ?? TARGETS.gateFree;
  for (const [p, at] of [["median", 0.5], ["p95", 0.95]] as const) {
    const ratio = check(
      `gated: ${c.name}, ${p}`,
      Number((q(gated, at) / q(plain, at)).toFixed(2)),
      target,
    );
    checks.push(ratio);
    console.log(
      line(
        ratio,
        `${fmt(q(gated, at))} ms = ${ratio.value}×, +${fmt(q(gated, at) - q(plain, at))} ms`,
      ),
    );
  }
}

// Folio's own time per decision, as its call log measured it (the envelope's latency).
await folio.deps.callLog.flush();
const rows = await db.execute(
  `SELECT user_agent, http_status, latency_ms FROM call_log WHERE tool = '_gate:nginx'`,
);
const groups = new Map<string, number[]>();
for (const r of rows.rows) {
  const who = String(r.user_agent).includes("GPTBot") ? `GPTBot ${r.http_status}` : "person";
  groups.set(who, [...groups.get(who) ?? [], Number(r.latency_ms)]);
}
for (const [who, xs] of groups) {
  xs.sort((a, b) => a - b);
  const own = check(`Folio time per decision, ${who}`, q(xs, 0.5), TARGETS.gateDecision);
  checks.push(own);
  console.log(line(own, `${fmt(own.value)} ms (p95 ${fmt(q(xs, 0.95))}, ${xs.length} calls)`));
}
console.log(tally(checks));
for (const c of clients.values()) c.close();
await Deno.remove(www, { recursive: true });
