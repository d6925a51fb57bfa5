/**
 * No request waits behind background work (issue 39, part 3): a real `main.ts` process per shape
 * (fresh, on a temp store), a health prober beside it (a process of its own: one `/api/health`
 * at a time, 20 ms apart), and one hostile shape driven through the real path: a site whose sitemap is a gzip
 * file inflating to 220 MB (as a `.xml.gz` file, and again as `Content-Encoding: gzip`), a
 * 50,000-URL sitemap, a 200,000-element nested XML file, a 10 MB markdown book upload and a
 * 1,500-page PDF. A sync is watched until its discovery is recorded and 3 s of its drain, then
 * cancelled; an upload until its answer and 3 s more. Per shape: the probes' p99 and max latency
 * against the idle probes of the same process (the baseline), and the server's peak resident
 * memory (sampled every 50 ms, and its kernel high-water mark) as a ratio to its idle memory.
 *
 *   deno task bench:stalls [--only=gzip,encoded,urls,nested,upload,pdf] [--profile=DIR]
 *
 * `--series=1` prints the server's memory every 50 ms (ms:MB) and the probes slower than 50 ms
 * (when each started, ms:took ms) to stderr. `--profile=DIR` starts
 * the server with `--inspect`, takes a V8 CPU profile of it during each shape
 * (DIR/<shape>.cpuprofile, for Chrome's DevTools) and prints its longest event-loop tasks.
 * `--breakdown=1` starts it with `--inspect` too and, at idle and at each new peak, asks the
 * server for `Deno.memoryUsage()` (its serving thread's JS heap and the ArrayBuffers outside it)
 * and reads /proc for the anonymous memory and threads: the rest of RSS is native (SQLite, the
 * other threads' heaps, glibc), printed as `breakdown` to stderr; at the end, again after a full
 * collection (what it frees was garbage).
 *
 * Targets (docs/PERFORMANCE.md): health p99 ≤ 100 ms, max ≤ 250 ms, peak RSS ≤ 1.2× idle.
 * Linux only (/proc).
 */
import { makePdf } from "../tests/fixtures/pdf.ts";
import { makeBook, memory, resetPeak, type Server, startServer } from "./bench_upload.ts";
import { TARGETS, verdict } from "./targets.ts";
import { inspector, longTasks, profiler } from "./cpu_profile.ts";
import type { Probe } from "./stall_prober.ts";

const flags = Object.fromEntries(
  Deno.args.map((a) => /^--([^=]+)(?:=(.*))?$/.exec(a)?.slice(1) ?? [a, ""]),
);
const only = flags.only ? String(flags.only).split(",") : null;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const enc = new TextEncoder();

/** A file served by the hostile site: bytes, type, and whether they are a Content-Encoding. */
interface Doc {
  path: string;
  bytes: Uint8Array;
  type: string;
  encoding?: "gzip";
}

async function gzipOf(parts: () => Generator<string>): Promise<Uint8Array> {
  const stream = ReadableStream.from(parts()).pipeThrough(new TextEncoderStream())
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** 220 MB of a urlset: entries padded with whitespace, so the 50 MB limit comes first. */
function* bombText(origin: string): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
  const pad = " ".repeat(4000) + "\n";
  for (let i = 0, size = 0; size < 220e6; i++) {
    const entry = `<url><loc>${origin}/p/${i}</loc></url>${pad}`;
    size += entry.length;
    yield entry;
  }
  yield "</urlset>\n";
}

function urlsText(origin: string, n: number): string {
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`];
  out.push(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`);
  for (let i = 0; i < n; i++) {
    out.push(`<url><loc>${origin}/story/${i}</loc><lastmod>2026-11-01</lastmod></url>`);
  }
  out.push("</urlset>");
  return out.join("\n");
}

function nestedText(depth: number): string {
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "<x>".repeat(depth) +
    "</x>".repeat(depth) + "</urlset>";
}

/** A site on its own port: robots.txt names `doc`, `/` is a page, anything else is a 404. */
function hostileSite(make: (origin: string) => Promise<Doc>) {
  let doc: Doc | null = null;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req): Response => {
      const path = new URL(req.url).pathname;
      if (path === "/robots.txt") {
        return new Response(`User-agent: *\nAllow: /\nSitemap: ${origin}${doc!.path}\n`);
      }
      if (path === "/") {
        return new Response("<!doctype html><title>Hostile</title><p>Hello</p>", {
          headers: { "content-type": "text/html" },
        });
      }
      if (doc && path === doc.path) {
        const headers: Record<string, string> = { "content-type": doc.type };
        if (doc.encoding) headers["content-encoding"] = doc.encoding;
        return new Response(doc.bytes as BlobPart, { headers });
      }
      return new Response("gone", { status: 404 });
    },
  );
  const origin: string = `http://127.0.0.1:${server.addr.port}`;
  return {
    origin,
    prepare: async () => {
      doc = await make(origin);
      return doc;
    },
    close: () => server.shutdown(),
  };
}

type Shape = {
  name: string;
  what: string;
  run: (server: Server) => Promise<string>;
};

async function syncSite(server: Server, make: (origin: string) => Promise<Doc>) {
  const site = hostileSite(make);
  try {
    const doc = await site.prepare();
    const t0 = performance.now();
    const added = await server.api("/api/publisher/sites", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${site.origin}/` }),
    });
    const body = await added.json();
    if (added.status !== 201) throw new Error(`site: ${added.status} ${JSON.stringify(body)}`);
    const jobId = body.jobId as string;
    let job: Record<string, unknown> = {};
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      job = await (await server.api(`/api/publisher/jobs/${jobId}`)).json();
      if (job.discovery || job.finishedAt) break;
      await sleep(100);
    }
    const found = performance.now();
    await sleep(3000);
    const c0 = performance.now();
    await server.api(`/api/publisher/jobs/${jobId}/cancel`, { method: "POST" });
    const cancelMs = Math.round(performance.now() - c0);
    const d = job.discovery as { pages?: number; problems?: string[] } | null;
    return `${Math.round(doc.bytes.length / 1024)} KB served; ${d?.pages ?? 0} pages found ` +
      `(discovery ${Math.round(found - t0)} ms, cancel ${cancelMs} ms)` +
      (d?.problems?.[0] ? `; ${d.problems[0].slice(0, 90)}` : "");
  } finally {
    await site.close();
  }
}

async function uploadFile(server: Server, file: File) {
  const form = new FormData();
  form.set("file", file);
  form.set("title", `Bench ${file.name}`);
  form.set("author", "Bench Writer");
  for (const use of ["display", "rag", "summarization"]) form.set(use, "on");
  const res = await server.api("/api/publisher/books", { method: "POST", body: form });
  const body = await res.json();
  await sleep(3000);
  return `${Math.round(file.size / 1024)} KB: ${res.status} ` +
    (body.error?.message ?? `${body.chapters} chapters`);
}

const para = "It was a bright cold day in April, and the clocks were striking thirteen. ";
const SHAPES: Shape[] = [
  {
    name: "gzip",
    what: "a .xml.gz sitemap inflating to 220 MB",
    run: (s) =>
      syncSite(s, async (origin) => ({
        path: "/sitemap.xml.gz",
        bytes: await gzipOf(() => bombText(origin)),
        type: "application/gzip",
      })),
  },
  {
    name: "encoded",
    what: "a sitemap sent with Content-Encoding: gzip, 220 MB inflated",
    run: (s) =>
      syncSite(s, async (origin) => ({
        path: "/sitemap.xml",
        bytes: await gzipOf(() => bombText(origin)),
        type: "application/xml",
        encoding: "gzip",
      })),
  },
  {
    name: "urls",
    what: "a 50,000-URL sitemap",
    run: (s) =>
      syncSite(s, (origin) =>
        Promise.resolve({
          path: "/sitemap.xml",
          bytes: enc.encode(urlsText(origin, 50_000)),
          type: "application/xml",
        })),
  },
  {
    name: "nested",
    what: "a sitemap of 200,000 nested elements",
    run: (s) =>
      syncSite(s, () =>
        Promise.resolve({
          path: "/sitemap.xml",
          bytes: enc.encode(nestedText(200_000)),
          type: "application/xml",
        })),
  },
  {
    name: "upload",
    what: "a 10 MB markdown book",
    run: (s) =>
      uploadFile(
        s,
        new File([makeBook(7, 10e6, 300)], "book.md", { type: "text/markdown" }),
      ),
  },
  {
    name: "pdf",
    what: "a 1,500-page PDF",
    run: (s) =>
      uploadFile(
        s,
        new File(
          [
            makePdf({
              pages: Array.from(
                { length: 1500 },
                (_, i) =>
                  i % 50 === 0
                    ? [`Chapter ${i / 50 + 1}`, ...Array(40).fill(para)]
                    : Array(45).fill(para),
              ),
            }) as BlobPart,
          ],
          "book.pdf",
          { type: "application/pdf" },
        ),
      ),
  },
];

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

/** The prober process (scripts/stall_prober.ts) on `url`: `take()` asks for its probes so far. */
function startProber(url: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", new URL("./stall_prober.ts", import.meta.url).pathname, url],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const input = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  return {
    async take(): Promise<Probe[]> {
      await input.write(enc.encode("take\n"));
      while (!pending.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("the prober ended");
        pending += value;
      }
      const i = pending.indexOf("\n");
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      return JSON.parse(line) as Probe[];
    },
    async [Symbol.asyncDispose]() {
      await input.close().catch(() => {});
      await lines.cancel().catch(() => {});
      await child.status;
    },
  };
}

/** RSS split: the serving thread's heap and external buffers (the inspector), /proc's anon/file. */
async function breakdown(
  session: Awaited<ReturnType<typeof inspector>>,
  pid: number,
): Promise<Record<string, unknown>> {
  const r = await session.send("Runtime.evaluate", {
    expression: `import("node:v8").then((v8) => JSON.stringify({
      ...Deno.memoryUsage(),
      spaces: Object.fromEntries(v8.getHeapSpaceStatistics().filter((s) => s.space_size > 1e6)
        .map((s) => [s.space_name.replace("_space", ""), Math.round(s.space_size / 1e6)])),
    }))`,
    awaitPromise: true,
    returnByValue: true,
  }) as { result: { value: string } };
  const { spaces, ...m } = JSON.parse(r.result.value) as Record<string, number> & {
    spaces: Record<string, number>;
  };
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const mb = (b: number) => Math.round(b / 1e5) / 10;
  const rss = kb("VmRSS") / 1024;
  return {
    rss: mb(rss * 1024 * 1024),
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    native: mb(rss * 1024 * 1024 - m.heapTotal - m.external),
    anon: mb(kb("RssAnon") * 1024),
    file: mb(kb("RssFile") * 1024),
    threads: kb("Threads"),
    spaces,
  } as Record<string, unknown>;
}

async function measure(shape: Shape) {
  // The hostile sites are on loopback ports: fetched as any site would be, unspaced.
  const inspect = flags.profile || flags.breakdown
    ? `127.0.0.1:${9300 + SHAPES.indexOf(shape)}`
    : null;
  await using server = await startServer(
    { FOLIO_FETCH_ALLOW_LOOPBACK: "1" },
    inspect ? [`--inspect=${inspect}`] : [],
  );
  await using prober = startProber(`http://127.0.0.1:${server.port}/api/health`);
  await sleep(5000); // start-up work (the demo's model) settles
  await prober.take();
  const idle: number[] = [];
  for (let i = 0; i < 40; i++, await sleep(50)) idle.push(memory(server.pid).rss);
  const idleMB = quantile(idle, 0.5);
  const idleProbes = (await prober.take()).map((p) => p.ms);
  resetPeak(server.pid);
  let peak = idleMB;
  const prof = flags.profile ? await profiler(inspect!) : null;
  await prof?.start();
  const split = flags.breakdown ? await inspector(inspect!) : null;
  const splits: Record<string, unknown>[] = [];
  if (split) splits.push({ at: "idle", ...await breakdown(split, server.pid) });
  let splitPeak = idleMB;
  let splitting = false;
  const t0 = performance.now();
  const t0Wall = Date.now();
  const series: string[] = [];
  const sampler = setInterval(() => {
    const { rss } = memory(server.pid);
    peak = Math.max(peak, rss);
    if (split && !splitting && rss > splitPeak + 4) {
      splitPeak = rss;
      splitting = true;
      breakdown(split, server.pid).then((b) => {
        splits.push({ at: Math.round(performance.now() - t0), ...b });
      }).finally(() => splitting = false);
    }
    if (flags.series) series.push(`${Math.round(performance.now() - t0)}:${Math.round(rss)}`);
  }, 50);
  const said = await shape.run(server);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  if (flags.series) console.error(shape.name, "ms:MB", series.join(" "));
  if (split) {
    splits.push({ at: "end", ...await breakdown(split, server.pid) });
    // What a full collection frees is garbage; what stays is held.
    await split.send("HeapProfiler.collectGarbage");
    splits.push({ at: "after a full collection", ...await breakdown(split, server.pid) });
    split.close();
    console.error(JSON.stringify({ shape: shape.name, breakdown: splits }));
  }
  if (prof) {
    const profile = await prof.stop();
    await Deno.mkdir(String(flags.profile), { recursive: true });
    await Deno.writeTextFile(
      `${flags.profile}/${shape.name}.cpuprofile`,
      JSON.stringify(profile),
    );
    console.error(JSON.stringify({ shape: shape.name, longTasks: longTasks(profile) }, null, 1));
  }
  const timed = await prober.take();
  const probes = timed.map((p) => p.ms);
  if (flags.series) {
    const slow = timed.filter((p) => p.ms > 50).map((p) => `${p.at - t0Wall}:${Math.round(p.ms)}`);
    console.error(shape.name, "probes over 50 ms (started at ms:took ms)", slow.join(" "));
  }
  peak = Math.max(peak, memory(server.pid).hwm);
  const r1 = (n: number) => Math.round(n * 10) / 10;
  const p99 = r1(quantile(probes, 0.99));
  const max = r1(Math.max(...probes));
  const ratio = Math.round(peak / idleMB * 100) / 100;
  return {
    bench: "stalls",
    shape: shape.name,
    what: shape.what,
    said,
    seconds: r1(seconds),
    probes: probes.length,
    idleP99Ms: r1(quantile(idleProbes, 0.99)),
    p99Ms: p99,
    p99: verdict(TARGETS.stallHealthP99, p99),
    maxMs: max,
    max: verdict(TARGETS.stallHealthMax, max),
    idleMB: Math.round(idleMB),
    peakMB: Math.round(peak),
    peakToIdle: ratio,
    rss: verdict(TARGETS.stallPeakRss, ratio),
  };
}

if (import.meta.main) {
  const rows = [];
  for (const shape of SHAPES) {
    if (only && !only.includes(shape.name)) continue;
    const row = await measure(shape);
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  console.table(rows.map((r) => ({
    shape: r.shape,
    "idle p99 ms": r.idleP99Ms,
    "p99 ms (≤ 100)": `${r.p99Ms} ${r.p99.met ? "met" : "not met"}`,
    "max ms (≤ 250)": `${r.maxMs} ${r.max.met ? "met" : "not met"}`,
    "peak/idle RSS (≤ 1.2)": `${r.peakToIdle} ${r.rss.met ? "met" : "not met"}`,
    "idle MB": r.idleMB,
    "peak MB": r.peakMB,
    s: r.seconds,
  })));
}
