/**
 * The health prober of `bench:stalls` (scripts/bench_stalls.ts), a process of its own as a held-out
 * prober is: as a Worker in the bench's process it also timed the bench's own work (building and
 * sending a 10 MB upload), and saw stalls of 300-360 ms that a `curl` loop beside it never saw.
 * One request to the URL it is given at a time, 20 ms apart; each line `take` on its stdin answers
 * one JSON line on its stdout: the latencies since the last (and when each started, wall-clock ms).
 *
 *   deno run --allow-net scripts/stall_prober.ts http://127.0.0.1:PORT/api/health
 */

/** A probe: when it started (wall-clock ms) and how long it took. */
export interface Probe {
  at: number;
  ms: number;
}

let latencies: Probe[] = [];

async function probe(url: string) {
  for (;;) {
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

if (import.meta.main) {
  probe(Deno.args[0]);
  const out = Deno.stdout.writable.getWriter();
  const enc = new TextEncoder();
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  let pending = "";
  for await (const text of lines) {
    pending += text;
    for (let i; (i = pending.indexOf("\n")) >= 0; pending = pending.slice(i + 1)) {
      if (pending.slice(0, i).trim() !== "take") continue;
      await out.write(enc.encode(JSON.stringify(latencies) + "\n"));
      latencies = [];
    }
  }
  Deno.exit(0); // stdin closed: the bench is done
}
