/**
 * A V8 CPU profile of another Deno process started with `--inspect=host:port`, taken over the
 * inspector protocol (Profiler domain), for the benches: `start()` before the work, `stop()` after
 * it. `longTasks()` reads a profile for what held the event loop: runs of samples with no idle
 * sample between them, longest first, each with the functions that took most of its time.
 */

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A session on the first target of the inspector at `base` (e.g. `127.0.0.1:9229`). */
export async function inspector(base: string) {
  const targets = await (await fetch(`http://${base}/json/list`)).json();
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id && waiting.has(m.id)) {
      waiting.get(m.id)!(m.result);
      waiting.delete(m.id);
    }
  };
  const send = (method: string, params: unknown = {}) =>
    new Promise<unknown>((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** Samples the CPU of the process whose inspector is at `base`, every `intervalUs`. */
export async function profiler(base: string, intervalUs = 500) {
  const { send, close } = await inspector(base);
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalUs });
  return {
    start: () => send("Profiler.start"),
    async stop(): Promise<CpuProfile> {
      const r = await send("Profiler.stop") as { profile: CpuProfile };
      close();
      return r.profile;
    },
  };
}

/** The `top` longest runs without an idle sample, each with its heaviest functions. */
export function longTasks(p: CpuProfile, top = 5, fns = 6) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const f = byId.get(id)!.callFrame;
    const file = f.url.replace(/^.*\/(wt\/[^/]+\/|registry\.npmjs\.org\/)/, "");
    return `${f.functionName || "(anon)"} ${file}:${f.lineNumber + 1}`;
  };
  const idle = (id: number) => {
    const fn = byId.get(id)!.callFrame.functionName;
    return fn === "(idle)" || fn === "(program)";
  };
  const runs: { ms: number; at: number; self: Map<string, number>; total: Map<string, number> }[] =
    [];
  let cur: (typeof runs)[number] | null = null;
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    t += dt;
    const s = p.samples[i];
    if (idle(s)) {
      if (cur) runs.push(cur);
      cur = null;
      continue;
    }
    cur ??= { ms: 0, at: t, self: new Map(), total: new Map() };
    const next = (p.timeDeltas[i + 1] ?? 0) / 1000;
    cur.ms += next;
    const self = name(s);
    cur.self.set(self, (cur.self.get(self) ?? 0) + next);
    const seen = new Set<string>();
    for (let n: number | undefined = s; n !== undefined; n = parent.get(n)) {
      const k = name(n);
      if (seen.has(k)) continue;
      seen.add(k);
      cur.total.set(k, (cur.total.get(k) ?? 0) + next);
    }
  }
  if (cur) runs.push(cur);
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const heaviest = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, fns).map(([k, v]) => `${r1(v)} ${k}`);
  return runs.sort((a, b) => b.ms - a.ms).slice(0, top).map((r) => ({
    ms: r1(r.ms),
    atMs: Math.round(r.at),
    self: heaviest(r.self),
    total: heaviest(new Map([...r.total].filter(([k]) => !/^\(root\)/.test(k)))).slice(0, fns * 2),
  }));
}
