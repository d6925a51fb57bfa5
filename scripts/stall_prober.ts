/**
 * The health prober of `bench:stalls` (scripts/bench_stalls.ts), run as a Worker so that the
 * bench's own work (serving the hostile files) never delays a probe: one request to
 * `/api/health` at a time, 20 ms apart, each latency (and when it started, in wall-clock ms) kept
 * until the bench asks for them.
 */
/// <reference lib="deno.worker" />

let url = "";
let running = false;
let latencies: { at: number; ms: number }[] = [];

async function probe() {
  while (running) {
    const t0 = performance.now();
    const at = Date.now();
    try {
      const res = await fetch(url);
      await res.body?.cancel();
    } catch { /* a refused probe counts as its time */ }
    latencies.push({ at, ms: performance.now() - t0 });
    await new Promise((r) => setTimeout(r, 20));
  }
}

self.onmessage = (e: MessageEvent) => {
  const m = e.data as { start?: string; take?: true };
  if (m.start) {
    url = m.start;
    running = true;
    probe();
  } else if (m.take) {
    self.postMessage(latencies);
    latencies = [];
  }
};
