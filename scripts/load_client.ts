/**
 * A load generator meant to run as a separate process: fires `concurrency` request loops at the
 * given URLs for `seconds`, then prints one JSON line {requests, errors, rps, p50, p95, p99}.
 * Usage: deno run --allow-net scripts/load_client.ts <seconds> <concurrency> <host> <url>...
 * FOLIO_LOAD_AUTH sends `Authorization: Bearer <it>`; FOLIO_LOAD_IDEMPOTENT=1 sends a fresh
 * Idempotency-Key with every request (charged reads, each one a new charge).
 */
const [secondsArg, concurrencyArg, host, ...urls] = Deno.args;
const auth = Deno.env.get("FOLIO_LOAD_AUTH");
const idempotent = Deno.env.get("FOLIO_LOAD_IDEMPOTENT") === "1";
const headers = (): HeadersInit => ({
  ...(auth ? { authorization: `Bearer ${auth}` } : {}),
  ...(idempotent ? { "idempotency-key": crypto.randomUUID() } : {}),
});
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg);
// Connect to each URL's address while sending the publisher host name (see tests/helpers.ts);
// URLs on several ports (several Folio processes) get a client each.
const clients = new Map<string, Deno.HttpClient>();
for (const u of urls) {
  const target = new URL(u);
  if (clients.has(target.host)) continue;
  clients.set(
    target.host,
    Deno.createHttpClient({
      proxy: { transport: "tcp", hostname: target.hostname, port: Number(target.port) },
    }),
  );
}
const latencies: number[] = [];
let errors = 0;
const deadline = performance.now() + seconds * 1000;

// Connection k asks urls k, k + concurrency, k + 2·concurrency, …: together they walk the list
// once before any URL comes round again (a list of distinct searches stays distinct).
async function loop(offset: number) {
  let i = offset;
  while (performance.now() < deadline) {
    const url = new URL(urls[i % urls.length]);
    i += concurrency;
    const client = clients.get(url.host)!;
    url.hostname = host;
    const t0 = performance.now();
    try {
      const res = await fetch(url, { client, headers: headers() });
      await res.arrayBuffer();
      if (res.status >= 400) errors++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t0);
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
const elapsed = (performance.now() - started) / 1000;
for (const c of clients.values()) c.close();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
console.log(JSON.stringify({
  requests: latencies.length,
  errors,
  rps: Math.round(latencies.length / elapsed),
  p50: +pct(0.5).toFixed(2),
  p95: +pct(0.95).toFixed(2),
  p99: +pct(0.99).toFixed(2),
}));
