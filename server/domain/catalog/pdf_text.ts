/**
 * Runs PDF text extraction in a child process (pdf_reader.ts) with a wall-clock limit, a memory
 * ceiling and a page cap (docs/DESIGN.md section 10; issue 28). A Worker could not be stopped:
 * a hostile page tree kept a core busy and grew the server to 2.9 GB after `terminate()`. A
 * process is killed with SIGKILL at its deadline or past its ceiling, and the kernel takes back
 * all it held; every way it can fail is the same 422 with a sentence.
 */
import { releaseChunk, releaseStreamChunk } from "../../platform/buffers.ts";
import { AppError } from "../../platform/errors.ts";
import { Gate } from "./gate.ts";
import type { ReaderLimits, ReaderResult } from "./pdf_reader.ts";
import { residentBytes } from "./proc_memory.ts";

/** The argument that makes a compiled Folio binary run as the PDF reader (main.ts). */
export const PDF_ARG = "--folio-pdf";

/** Limits of one PDF extraction. */
export interface PdfLimits {
  timeoutMs?: number;
  maxPages?: number;
  maxInflated?: number;
  /** Characters of text the whole PDF may hold. */
  maxText?: number;
  /** Resident memory of the reader process, in bytes. */
  maxMemory?: number;
}

/** How to start a reader process. */
export interface ReaderCommand {
  command: string;
  args: string[];
}

/**
 * Readers this process runs at once; others wait. Each may grow to its memory ceiling, so N
 * uploads must not start N readers (book imports are one at a time too: books.ts).
 */
const readers = new Gate(1);

/** The readers running now, by process id: tests check that none outlives its PDF. */
const live = new Map<number, Deno.ChildProcess>();
export function livePdfReaders(): number[] {
  return [...live.keys()];
}

/** A server that exits mid-read (Deno.exit dispatches "unload") takes its readers with it. */
let exitHook = false;
function killOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  globalThis.addEventListener("unload", () => {
    for (const child of live.values()) {
      try {
        child.kill("SIGKILL");
      } catch { /* exited */ }
    }
  });
}

/** The command that starts a reader: pdf_reader.ts under `deno run`, or the binary itself. */
export function readerCommand(): ReaderCommand {
  if (Deno.build.standalone) return { command: Deno.execPath(), args: [PDF_ARG] };
  // pdf_reader.ts imports unpdf through the project's import map; it gets no permissions at all.
  // It reads the serving lockfile, as `deno task start` does: the project's whole lockfile would
  // fetch every test and benchmark library on a fresh machine's first PDF.
  const config = new URL("../../../deno.json", import.meta.url).pathname;
  const lock = new URL("../../../deno.serve.lock", import.meta.url).pathname;
  const module = new URL("./pdf_reader.ts", import.meta.url).href;
  return {
    command: Deno.execPath(),
    args: ["run", "--quiet", "--no-prompt", "--config", config, "--lock", lock, module],
  };
}

/** The text of each page and the top-level outline of a PDF; throws 422 when it cannot be read. */
export async function pdfText(
  bytes: Uint8Array,
  limits: PdfLimits = {},
  reader: ReaderCommand = readerCommand(),
): Promise<ReaderResult> {
  const given: ReaderLimits = {
    timeoutMs: limits.timeoutMs ?? 30_000,
    maxPages: limits.maxPages ?? 2000,
    maxInflated: limits.maxInflated ?? 256 * 1024 * 1024,
    maxText: limits.maxText ?? 32_000_000,
    maxMemory: limits.maxMemory ?? 1024 * 1024 * 1024,
  };
  const outcome = await readers.run(() => read(bytes, given, reader));
  if ("why" in outcome) {
    throw new AppError(
      422,
      "unprocessable_pdf",
      `file: the PDF cannot be processed: ${outcome.why}`,
      {},
      "file",
    );
  }
  return outcome;
}

type Outcome = ReaderResult | { why: string };

async function read(
  bytes: Uint8Array,
  limits: ReaderLimits,
  reader: ReaderCommand,
): Promise<Outcome> {
  const child = new Deno.Command(reader.command, {
    args: [...reader.args, JSON.stringify(limits)],
    // V8's heap stops at three quarters of the ceiling; the rest is code and array buffers.
    env: { DENO_V8_FLAGS: `--max-old-space-size=${Math.max(16, mb(limits.maxMemory * 0.75))}` },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  live.set(child.pid, child);
  killOnExit();
  let killed: string | null = null;
  const kill = (why: string) => {
    killed ??= why;
    try {
      child.kill("SIGKILL");
    } catch { /* it has exited already */ }
  };
  const timer = setTimeout(
    () => kill(`reading it took longer than ${limits.timeoutMs / 1000} s`),
    limits.timeoutMs,
  );
  const watch = setInterval(() => {
    const rss = residentBytes(child.pid);
    if (rss === null) clearInterval(watch);
    else if (rss > limits.maxMemory) kill(memoryWords(limits.maxMemory));
  }, 100);
  // JSON of text is at most 3 UTF-8 bytes a character, plus the outline and the quoting.
  const maxOutput = limits.maxText * 3 + 4 * 1024 * 1024;
  const output = collect(child.stdout, maxOutput, () => kill("its text is too large to read"));
  const complaint = collect(child.stderr, 4096);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(bytes).then(() => writer.close()).catch(() => {}); // it may stop early
    const status = await child.status;
    const [out, err] = [await output, new TextDecoder().decode(await complaint)];
    if (killed) return { why: killed };
    if (/out of memory|heap limit/i.test(err)) return { why: memoryWords(limits.maxMemory) };
    if (!status.success) {
      const line = err.split("\n").find((l) => l.trim())?.trim();
      if (status.code === 1 && line) return { why: line.slice(0, 300) };
      const how = status.signal ? `signal ${status.signal}` : `exit code ${status.code}`;
      return { why: `the PDF reader stopped unexpectedly (${how})` };
    }
    return parse(out) ?? { why: "the PDF reader's answer could not be read" };
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
    kill("the PDF reader was stopped"); // a no-op once it has exited: nothing outlives its PDF
    await child.status;
    live.delete(child.pid);
  }
}

/** A reader's answer, when it is one: `{pages: string[], outline: {title, page}[]}`. */
function parse(out: Uint8Array): ReaderResult | null {
  let value;
  try {
    value = JSON.parse(new TextDecoder().decode(out));
  } catch {
    return null;
  }
  const { pages, outline } = value ?? {};
  const entry = (o: { title?: unknown; page?: unknown } | null) =>
    typeof o?.title === "string" && Number.isInteger(o.page);
  if (!Array.isArray(pages) || !pages.every((p) => typeof p === "string")) return null;
  if (!Array.isArray(outline) || !outline.every(entry)) return null;
  return { pages, outline };
}

/**
 * Reads a stream to its end and keeps its first `max` bytes; past them `over` is called once and
 * the rest is drained, so the child never blocks on a full pipe.
 */
async function collect(
  stream: ReadableStream<Uint8Array>,
  max: number,
  over: () => void = () => {},
): Promise<Uint8Array> {
  let buffer = new Uint8Array(0), size = 0, past = false;
  for await (const chunk of stream) {
    if (size + chunk.length > max && !past) {
      past = true;
      over();
    }
    if (size < max) {
      const take = chunk.subarray(0, max - size);
      if (size + take.length > buffer.length) {
        const grown = new Uint8Array(Math.min(max, Math.max(64 * 1024, (size + take.length) * 2)));
        grown.set(buffer.subarray(0, size));
        releaseChunk(buffer);
        buffer = grown;
      }
      buffer.set(take, size);
      size += take.length;
    }
    // Copied (or past the limit): freed now, not at a collection tens of megabytes later.
    releaseStreamChunk(chunk);
  }
  return buffer.subarray(0, size);
}

function memoryWords(max: number): string {
  return `reading it needed more than ${mb(max)} MB of memory`;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
