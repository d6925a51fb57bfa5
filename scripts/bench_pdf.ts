/**
 * Memory under hostile PDFs (issue 28): a real `main.ts` process on a temp store; each PDF shape
 * of tests/fixtures/pdf_bombs.ts, then a valid 1500-page book, POSTed to the demo publisher's
 * book route one after another. For each: the server's resident memory before (median of 10
 * samples), its peak and the PDF reader's peak (sampled from /proc every 50 ms), the answer, and
 * 10 s after the answer the server's memory, its thread count and any reader process left.
 * `ratio` is after/before against the target of at most 1.1 (scripts/targets.ts); the peak, the
 * answer's time and status, and what is left behind each have theirs, and the run ends with a tally.
 *
 *   deno task bench:pdf [--settle=10] [--only=kids,valid]
 *
 * Linux only (/proc, which Deno opens only with --allow-all; the server is started with -A too,
 * so it also watches its readers' memory from /proc, which `deno task start` does not).
 */
import { makePdf } from "../tests/fixtures/pdf.ts";
import {
  cyclicTree,
  deepTree,
  flateBomb,
  garbagePdf,
  sharedContentsBomb,
  sharedKidsBomb,
  truncatedPdf,
} from "../tests/fixtures/pdf_bombs.ts";
import { descendantsMemory, embedded, memory, type Server, startServer } from "./bench_upload.ts";
import { check, type Checked, line, tally, TARGETS, verdict } from "./targets.ts";

const flags = Object.fromEntries(
  Deno.args.map((a) => /^--([^=]+)(?:=(.*))?$/.exec(a)?.slice(1) ?? [a, ""]),
);
const settleSeconds = Number(flags.settle ?? 10);
const only = flags.only ? String(flags.only).split(",") : null;

const para = "It was a bright cold day in April, and the clocks were striking thirteen. ";
const CASES: [string, string, () => Uint8Array | Promise<Uint8Array>][] = [
  ["kids", "2000 kids naming one 4 MB page", () => sharedKidsBomb()],
  ["kids-indirect", "the same, kids in an array object", () => sharedKidsBomb(2000, 4 << 20, true)],
  ["contents", "2000 pages sharing one 4 MB stream", () => sharedContentsBomb()],
  ["flate", "300 MB of zeros in one stream", () => flateBomb()],
  ["deep", "a page tree 20,000 levels deep", () => deepTree()],
  ["cycle", "a page tree in a circle", () => cyclicTree()],
  ["garbage", "64 KB of noise after %PDF-", () => garbagePdf()],
  ["truncated", "a valid PDF cut in half", () => truncatedPdf()],
  ["valid", "a 1500-page book, 30 chapters", () =>
    makePdf({
      pages: Array.from(
        { length: 1500 },
        (_, i) =>
          i % 50 === 0 ? [`Chapter ${i / 50 + 1}`, ...Array(40).fill(para)] : Array(45).fill(para),
      ),
    })],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's descendants that are PDF readers (pdf_reader.ts, or the binary with --folio-pdf). */
function readers(pid: number): number[] {
  const found: number[] = [];
  const walk = (p: number) => {
    let children: number[] = [];
    try {
      children = Deno.readTextFileSync(`/proc/${p}/task/${p}/children`).trim().split(/\s+/)
        .filter(Boolean).map(Number);
    } catch { /* exited */ }
    for (const c of children) {
      try {
        const cmd = Deno.readTextFileSync(`/proc/${c}/cmdline`);
        if (/pdf_reader\.ts|--folio-pdf/.test(cmd)) found.push(c);
      } catch { /* exited */ }
      walk(c);
    }
  };
  walk(pid);
  return found;
}

function threads(pid: number): number {
  return Number(/Threads:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1] ?? 0);
}

async function upload(server: Server, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set("file", new File([bytes as BlobPart], `${name}.pdf`, { type: "application/pdf" }));
  form.set("title", `Bench PDF ${name}`);
  form.set("author", "Bench Writer");
  for (const use of ["display", "rag", "summarization"]) form.set(use, "on");
  const res = await server.api("/api/publisher/books", { method: "POST", body: form });
  const body = await res.json();
  return { status: res.status, said: body.error?.message ?? `${body.chapters} chapters` };
}

async function run(server: Server, name: string, what: string, bytes: Uint8Array) {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++, await sleep(50)) samples.push(memory(server.pid).rss);
  const before = samples.sort((a, b) => a - b)[samples.length >> 1];
  const threadsBefore = threads(server.pid);
  let peak = before, readerPeak = 0, readersSeen = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memory(server.pid).rss);
    readerPeak = Math.max(readerPeak, descendantsMemory(server.pid));
    readersSeen = Math.max(readersSeen, readers(server.pid).length);
  }, 50);
  const t0 = performance.now();
  const answer = await upload(server, name, bytes);
  const answerMs = performance.now() - t0;
  const leftAtAnswer = readers(server.pid).length;
  await sleep(settleSeconds * 1000);
  clearInterval(sampler);
  const after = memory(server.pid).rss;
  const ratio = Number((after / before).toFixed(2));
  const r = Math.round;
  return {
    bench: "pdf",
    case: name,
    what,
    fileKB: r(bytes.length / 1024),
    status: answer.status,
    said: answer.said.replace(/^file: the PDF cannot be processed: /, ""),
    answerMs: r(answerMs),
    beforeMB: r(before),
    peakMB: r(peak),
    readerPeakMB: r(readerPeak),
    mostReaders: readersSeen,
    afterMB: r(after),
    ratio,
    ...verdict(TARGETS.pdfSettled, ratio),
    readersLeftAtAnswer: leftAtAnswer,
    readersLeftAfter: readers(server.pid).length,
    threadsBefore,
    threadsAfter: threads(server.pid),
  };
}

if (import.meta.main) {
  await using server = await startServer();
  await embedded(server); // the demo catalog's first model and vectors
  await sleep(3000);
  const idle = memory(server.pid).rss;
  const rows = [];
  for (const [name, what, make] of CASES) {
    if (only && !only.includes(name)) continue;
    const row = await run(server, name, what, await make());
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  console.table(rows.map((r) => ({
    case: r.case,
    KB: r.fileKB,
    status: r.status,
    "answer s": (r.answerMs / 1000).toFixed(1),
    "before MB": r.beforeMB,
    "peak MB": r.peakMB,
    "reader peak MB": r.readerPeakMB,
    "after MB": r.afterMB,
    "after/before": r.ratio,
    met: r.met,
    "readers left": r.readersLeftAfter,
    threads: `${r.threadsBefore}→${r.threadsAfter}`,
  })));
  console.log(`idle ${Math.round(idle)} MB; end ${Math.round(memory(server.pid).rss)} MB`);
  const checks: Checked[] = [];
  for (const r of rows) {
    // A valid book is stored (201); every hostile shape is refused with a sentence (422).
    const want = r.case === "valid" ? 201 : 422;
    const row = [
      [
        check(`${r.case}: answered ${want}`, r.status === want ? 1 : 0, TARGETS.pdfStatus),
        `${r.status}`,
      ],
      [
        check(`${r.case}: answer`, r.answerMs / 1000, TARGETS.pdfAnswer),
        `${(r.answerMs / 1000).toFixed(1)} s`,
      ],
      [
        check(`${r.case}: peak`, Number((r.peakMB / r.beforeMB).toFixed(2)), TARGETS.pdfPeak),
        `${r.peakMB} MB against ${r.beforeMB} MB`,
      ],
      [
        check(`${r.case}: 10 s after`, r.ratio, TARGETS.pdfSettled),
        `${r.afterMB} MB = ${r.ratio}×`,
      ],
      [
        check(`${r.case}: readers left`, r.readersLeftAfter, TARGETS.pdfReadersLeft),
        `${r.readersLeftAfter}`,
      ],
      [
        check(`${r.case}: threads left`, r.threadsAfter - r.threadsBefore, TARGETS.pdfThreadsLeft),
        `${r.threadsBefore}→${r.threadsAfter}`,
      ],
    ] as const;
    for (const [c, shown] of row) {
      checks.push(c);
      console.log(line(c, shown));
    }
  }
  console.log(tally(checks));
}
