/**
 * PDF text extraction as a process of its own (pdf_text.ts starts it; issue 28). A Worker could
 * not be stopped: a page tree whose kids all named one large page kept a core busy and grew the
 * server by 2.7 GB after `terminate()`. A process is killed outright and gives all memory back.
 * Only text is read: scripts, embedded files and actions in the PDF are never executed
 * (docs/TEST-PLAN.md section 4, case 28).
 *
 * Protocol: the PDF's bytes on stdin, the limits as one JSON argument; `{pages, outline}` as JSON
 * on stdout and exit 0, or one line on stderr (why, worded to follow "the PDF cannot be
 * processed: ") and exit 1.
 */
import { getDocumentProxy } from "unpdf";
import { precheck } from "./pdf_checks.ts";

/** The limits the reader is started with. */
export interface ReaderLimits {
  maxPages: number;
  /** Total bytes all Flate streams may inflate to (a decompression bomb stops here). */
  maxInflated: number;
  /** Characters of text all pages may hold together. */
  maxText: number;
  /** Resident memory in bytes, checked between pages (pdf_text.ts also watches from outside). */
  maxMemory: number;
  /** The deadline from the process's start; pdf_text.ts kills the reader at it, too. */
  timeoutMs: number;
}

/** What the reader writes on success. */
export interface ReaderResult {
  pages: string[];
  outline: { title: string; page: number }[];
}

/** A refusal worded for the user: the reader's one line on stderr. */
class Refusal extends Error {}

/** Reads a PDF from `input` and writes its text to `output`; returns the exit code. */
export async function runPdfReader(
  limitsJson: string | undefined,
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  output: WritableStream<Uint8Array> = Deno.stdout.writable,
): Promise<number> {
  try {
    const limits: ReaderLimits = JSON.parse(limitsJson ?? "");
    const bytes = await new Response(input).bytes();
    const result = await extract(bytes, limits);
    const writer = output.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(result)));
    await writer.close();
    return 0;
  } catch (err) {
    const why = err instanceof Refusal ? err.message : `it could not be read (${describe(err)})`;
    console.error(why.replace(/\s+/g, " "));
    return 1;
  }
}

async function extract(bytes: Uint8Array, limits: ReaderLimits): Promise<ReaderResult> {
  const refused = await precheck(bytes, limits);
  if (refused) throw new Refusal(refused);
  const doc = await getDocumentProxy(bytes, {
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  if (doc.numPages > limits.maxPages) {
    throw new Refusal(`it has ${doc.numPages} pages; the limit is ${limits.maxPages}`);
  }
  const pages: string[] = [];
  let chars = 0;
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    let text = "";
    for (const item of content.items) {
      if (!("str" in item)) continue;
      text += item.str;
      if (item.hasEOL) text += "\n";
    }
    pages.push(text);
    page.cleanup();
    // The process ends after one document, so nothing pdf.js holds needs freeing; but a page tree
    // that repeats a large page multiplies its text, and that is stopped here, page by page.
    chars += text.length;
    if (chars > limits.maxText) {
      throw new Refusal(`its text runs past ${limits.maxText} characters`);
    }
    if (Deno.memoryUsage().rss > limits.maxMemory) {
      throw new Refusal(`reading it needed more than ${mb(limits.maxMemory)} MB of memory`);
    }
    if (performance.now() > limits.timeoutMs) throw new Refusal(tooLong(limits.timeoutMs));
  }
  return { pages, outline: await outline(doc) };
}

type Doc = Awaited<ReturnType<typeof getDocumentProxy>>;

async function outline(doc: Doc): Promise<{ title: string; page: number }[]> {
  const items = (await doc.getOutline().catch(() => null)) ?? [];
  const out: { title: string; page: number }[] = [];
  for (const item of items.slice(0, 1000)) {
    try {
      const dest = typeof item.dest === "string" ? await doc.getDestination(item.dest) : item.dest;
      const ref = Array.isArray(dest) ? dest[0] : null;
      if (ref === null || ref === undefined) continue;
      const page = typeof ref === "number" ? ref : await doc.getPageIndex(ref);
      out.push({ title: item.title, page });
    } catch {
      // An outline entry pointing nowhere is skipped; the rest still splits the book.
    }
  }
  return out;
}

/**
 * The reader as a process (main.ts, or this module run): as `runPdfReader`, and should its parent
 * be gone (a server that exited mid-read cannot kill it), it ends itself at its own deadline:
 * between pages, or whenever pdf.js lets the event loop turn.
 */
export async function readerProcess(limitsJson: string | undefined): Promise<number> {
  try {
    const { timeoutMs } = JSON.parse(limitsJson ?? "");
    const timer = setTimeout(() => {
      console.error(tooLong(timeoutMs));
      Deno.exit(1);
    }, Math.max(0, timeoutMs - performance.now()));
    Deno.unrefTimer(timer);
  } catch { /* runPdfReader says what is wrong with the limits */ }
  return await runPdfReader(limitsJson);
}

function tooLong(ms: number): string {
  return `reading it took longer than ${ms / 1000} s`;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

function describe(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.slice(0, 200);
}

if (import.meta.main) Deno.exit(await readerProcess(Deno.args[0]));
