/**
 * Memory under book uploads (issue 15): a real `main.ts` process on a temp store, a generated
 * ~10 MB markdown book POSTed to the demo publisher's book route, first alone, then four at once
 * (each phase on a fresh process). The server's resident memory is sampled from /proc every 50 ms
 * from the idle baseline until every chapter is embedded and a search finds the book, and its
 * kernel high-water mark (VmHWM, reset after the baseline) catches any spike between samples.
 * The search model's trainer, a child process, is sampled beside it and reported on its own
 * (`peakTrainerMB`) and with the server (`peakWithTrainerMB`). Prints one JSON line per phase,
 * then a table.
 *
 *   deno task bench:upload [--mb=10] [--chapters=300] [--concurrent=4] [--phase=single|many|both]
 *       [--settle=35] [--series=1] [--server-v8-flags=--max-semi-space-size=8]
 *
 * `settledMB` is the server's memory `--settle` seconds after the book is searchable (the server
 * gives memory back once its indexing burst ends, server/platform/memory.ts), against the target of at most
 * 1.1× its idle baseline (scripts/targets.ts: "stays flat" read as no lasting growth).
 *
 * `--inspect=1` starts Folio with `--inspect` and, after `settledMB`, has it collect all garbage:
 * `afterGcMB` (and the heap's used and total MB) tell what was garbage from what is held.
 * `--series=1` prints every sample (ms:MB) to stderr; `--server-v8-flags` starts Folio with them.
 * Linux only (/proc, which Deno opens only with --allow-all). The book stays under the route's
 * 10 MiB text limit (server/domain/catalog/books.ts).
 */
import { rng, word, zipfTable } from "./synthetic_corpus.ts";
import { spawnFolio } from "../tests/processes.ts";
import { TARGETS, verdict } from "./targets.ts";
import { inspector } from "./cpu_profile.ts";

const flags = Object.fromEntries(
  Deno.args.map((a) => /^--([^=]+)(?:=(.*))?$/.exec(a)?.slice(1) ?? [a, ""]),
);
const megabytes = Number(flags.mb ?? 10);
const chapters = Number(flags.chapters ?? 300);
const concurrent = Number(flags.concurrent ?? 4);
const phase = String(flags.phase ?? "both");
const settleSeconds = Number(flags.settle ?? 35);
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const TEXT_LIMIT = 10 * 1024 * 1024;

// English function words between the pseudo-words, as in prose: the model skips them.
const GLUE = ("the of and to a in that it was he for on is with as his at by had not but from " +
  "they which or this were her all she there would their we him been has when who will more no " +
  "if out so said what up its about into than them can only other")
  .split(" ");

/**
 * A deterministic markdown book of about `bytes` bytes: `#` chapters, each with `##` sections of
 * paragraphs mixing Zipf-distributed pseudo-words with function words, some emphasis, links,
 * lists, curly quotes and dashes (so the text decodes to a two-byte string, as real books do).
 */
export function makeBook(seed: number, bytes: number, chapterCount: number): string {
  const random = rng(seed);
  const vocab = 30_000;
  const table = zipfTable(vocab, 1.05, 1 << 20);
  const pick = () =>
    random() < 0.45
      ? GLUE[Math.floor(random() * GLUE.length)]
      : word(table[Math.floor(random() * table.length)]);
  const sentence = (n: number) => {
    const ws = Array.from({ length: n }, pick);
    const r = random();
    if (r < 0.04) ws[1] = `**${ws[1]}**`;
    else if (r < 0.08) ws[2] = `_${ws[2]}_`;
    else if (r < 0.1) ws[1] = `[${ws[1]}](https://example.com/${ws[1]})`;
    ws[0] = ws[0][0].toUpperCase() + ws[0].slice(1);
    const s = ws.join(" ");
    return random() < 0.1 ? `\u201c${s},\u201d ${pick()} said \u2014 ${pick()}.` : `${s}.`;
  };
  const paragraph = () => {
    const out: string[] = [];
    for (let n = 0, target = 40 + Math.floor(random() * 120); n < target;) {
      const len = 6 + Math.floor(random() * 18);
      out.push(sentence(len));
      n += len;
    }
    return out.join(" ");
  };
  const perChapter = bytes / chapterCount;
  const parts: string[] = [`# ${sentence(4).slice(0, -1)}`, "", paragraph(), ""];
  for (let c = 1; c <= chapterCount; c++) {
    const chapter: string[] = [`# Chapter ${c}: ${sentence(3).slice(0, -1)}`, ""];
    let length = 0;
    while (length < perChapter) {
      if (random() < 0.15) chapter.push(`## ${sentence(4).slice(0, -1)}`, "");
      if (random() < 0.05) {
        chapter.push(...Array.from({ length: 3 }, () => `- ${sentence(6)}`), "");
      }
      const p = paragraph();
      chapter.push(p, "");
      length += p.length + 2;
    }
    parts.push(chapter.join("\n"));
  }
  let book = parts.join("\n");
  // Multi-byte characters make the byte count exceed the character count: trim to the limit.
  const encoded = new TextEncoder().encode(book);
  if (encoded.length > TEXT_LIMIT) {
    book = new TextDecoder().decode(encoded.subarray(0, TEXT_LIMIT - 4)).replace(/\uFFFD$/, "");
  }
  return book;
}

/** Resident memory of a process in MB, from /proc (VmRSS now, VmHWM its peak since reset). */
export function memory(pid: number): { rss: number; hwm: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** Resident memory in MB of a process's descendants (the search model's trainer), from /proc. */
export function descendantsMemory(pid: number): number {
  let total = 0;
  const children = (p: number): number[] => {
    try {
      return Deno.readTextFileSync(`/proc/${p}/task/${p}/children`).trim().split(/\s+/)
        .filter(Boolean).map(Number);
    } catch {
      return []; // the process has exited meanwhile
    }
  };
  for (const child of children(pid)) {
    try {
      total += memory(child).rss + descendantsMemory(child);
    } catch { /* exited between the two reads */ }
  }
  return total;
}

/** Resets the process's VmHWM to its current RSS (proc(5), clear_refs "5"). */
export function resetPeak(pid: number): boolean {
  try {
    Deno.writeTextFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

export interface Server extends AsyncDisposable {
  pid: number;
  port: number;
  key: string;
  api: (path: string, init?: RequestInit) => Promise<Response>;
  site: (path: string) => Promise<Response>;
}

/** `main.ts` on a fresh temp store, its banner read for the port and the demo publisher's key. */
export async function startServer(
  env: Record<string, string> = {},
  denoArgs: string[] = [],
): Promise<Server> {
  const dataDir = await Deno.makeTempDir({ prefix: "folio-bench-upload-" });
  const keyLine = /publisher API key \(shown once\): (\S+)/;
  const folio = await spawnFolio(dataDir, {
    // As `deno task start` runs it: Deno then answers SIGUSR2 by giving memory back.
    env: { FOLIO_LOG_LEVEL: "warn", DENO_USR2_MEMORY_TRIM: "1", ...env },
    denoArgs: [
      "--config",
      CONFIG,
      ...(flags["server-v8-flags"] ? [`--v8-flags=${flags["server-v8-flags"]}`] : []),
      ...denoArgs,
    ],
    stderr: "inherit",
    until: [keyLine],
  });
  const { port } = folio;
  const key = keyLine.exec(folio.banner)![1];
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: "127.0.0.1", port: Number(port) },
  });
  return {
    pid: folio.child.pid,
    port: Number(port),
    key,
    api: (path, init = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, ...init.headers },
      }),
    // The demo publisher's own host, reached on the same socket.
    site: (path) => fetch(`http://demo.localhost:${port}${path}`, { client }),
    async [Symbol.asyncDispose]() {
      client.close();
      await folio[Symbol.asyncDispose]();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

async function coverage(server: Server): Promise<{ embedded: number; total: number }> {
  const res = await server.api("/api/publisher/coverage");
  if (!res.ok) throw new Error(`coverage: ${res.status} ${await res.text()}`);
  return await res.json();
}

/** Waits until every article of the demo publisher has its vectors. */
export async function embedded(server: Server): Promise<void> {
  for (;;) {
    const c = await coverage(server);
    if (c.total > 0 && c.embedded === c.total) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function upload(server: Server, book: string, n: number) {
  const form = new FormData();
  form.set("file", new File([book], `book-${n}.md`, { type: "text/markdown" }));
  form.set("title", `Bench Book ${n}`);
  form.set("author", "Bench Writer");
  for (const use of ["display", "rag", "summarization"]) form.set(use, "on");
  const res = await server.api("/api/publisher/books", { method: "POST", body: form });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body as { bookId: string; chapters: number };
}

/** One phase: `count` books uploaded at once to a fresh process, memory sampled throughout. */
async function run(count: number) {
  const books = Array.from(
    { length: count },
    (_, i) => makeBook(1000 + i, megabytes * 1e6, chapters),
  );
  const fileMB = new TextEncoder().encode(books[0]).length / 1e6;
  const inspect = flags.inspect ? `127.0.0.1:${9400 + count}` : null;
  await using server = await startServer({}, inspect ? [`--inspect=${inspect}`] : []);
  await embedded(server); // the demo catalog's first model and vectors
  await sleep(2000);
  const idle: number[] = [];
  for (let i = 0; i < 20; i++, await sleep(50)) idle.push(memory(server.pid).rss);
  const baseline = idle.sort((a, b) => a - b)[idle.length >> 1];
  const hwmReset = resetPeak(server.pid);

  let peak = baseline;
  let peakUpload = baseline;
  let peakTrainer = 0;
  let peakTotal = baseline;
  let uploading = true;
  const series: string[] = [];
  const sampler = setInterval(() => {
    const { rss } = memory(server.pid);
    const trainer = descendantsMemory(server.pid);
    if (flags.series) series.push(`${Math.round(performance.now() - t0)}:${Math.round(rss)}`);
    peak = Math.max(peak, rss);
    peakTrainer = Math.max(peakTrainer, trainer);
    peakTotal = Math.max(peakTotal, rss + trainer);
    if (uploading) peakUpload = Math.max(peakUpload, rss);
  }, 50);
  const t0 = performance.now();
  const answers = await Promise.all(books.map((b, i) => upload(server, b, i + 1)));
  const uploadMs = performance.now() - t0;
  uploading = false;
  if (flags.series) series.push(`answered`);
  await embedded(server);
  const probe = await server.site(`/api/v1/articles/search?query=${encodeURIComponent("chapter")}`);
  const found = (await probe.json()).results?.length ?? 0;
  const searchableS = (performance.now() - t0) / 1000;
  await sleep(1000);
  clearInterval(sampler);
  if (flags.series) console.error(series.join(" "));
  const { rss: after, hwm } = memory(server.pid);
  await sleep(settleSeconds * 1000);
  const settled = memory(server.pid).rss;
  // What a full collection frees now is garbage; what stays is held (--inspect only).
  let afterGc: { rss: number; heapUsed: number; heapTotal: number } | null = null;
  if (inspect) {
    const session = await inspector(inspect);
    await session.send("HeapProfiler.collectGarbage");
    const heap = await session.send("Runtime.getHeapUsage") as {
      usedSize: number;
      totalSize: number;
    };
    session.close();
    await sleep(2000);
    afterGc = {
      rss: Math.round(memory(server.pid).rss),
      heapUsed: Math.round(heap.usedSize / 1e6),
      heapTotal: Math.round(heap.totalSize / 1e6),
    };
  }
  const top = hwmReset ? Math.max(peak, hwm) : peak;
  const r = (x: number) => Math.round(x);
  return {
    bench: "upload_book",
    books: count,
    fileMB: Number(fileMB.toFixed(2)),
    chapters: answers.map((a) => a.chapters),
    baselineMB: r(baseline),
    peakDuringRequestMB: r(peakUpload),
    peakSampledMB: r(peak),
    peakHwmMB: hwmReset ? r(hwm) : null,
    peakMB: r(top),
    liftMB: r(top - baseline),
    ratio: Number((top / baseline).toFixed(2)),
    // Issue 39: during any upload the server stays within 1.2× its idle memory.
    peak: verdict(TARGETS.stallPeakRss, Number((top / baseline).toFixed(2))),
    // The trainer process exits when its model is made: its memory is all given back.
    peakTrainerMB: r(peakTrainer),
    peakWithTrainerMB: r(peakTotal),
    afterMB: r(after),
    settledMB: r(settled),
    ...(afterGc
      ? { afterGcMB: afterGc.rss, heapUsedMB: afterGc.heapUsed, heapMB: afterGc.heapTotal }
      : {}),
    ...verdict(TARGETS.uploadSettled, Number((settled / baseline).toFixed(2))),
    uploadMs: r(uploadMs),
    searchableS: Number(searchableS.toFixed(1)),
    searchHits: found,
  };
}

if (import.meta.main) {
  const rows = [];
  if (phase !== "many") rows.push(await run(1));
  if (phase !== "single") rows.push(await run(concurrent));
  for (const row of rows) console.log(JSON.stringify(row));
  console.table(rows.map((r) => ({
    books: r.books,
    "file MB": r.fileMB,
    "baseline MB": r.baselineMB,
    "peak MB": r.peakMB,
    "lift MB": r.liftMB,
    "peak/baseline (≤ 1.2)": `${r.ratio} ${r.peak.met ? "met" : "not met"}`,
    "trainer peak MB": r.peakTrainerMB,
    "settled MB": r.settledMB,
    "settled/baseline (≤ 1.1)": `${Number((r.settledMB / r.baselineMB).toFixed(2))} ${
      r.met ? "met" : "not met"
    }`,
    "upload s": (r.uploadMs / 1000).toFixed(1),
    "searchable s": r.searchableS,
  })));
}
