/**
 * A sitemap or feed read while it arrives (issue 39, part 3): the fetcher hands each chunk over
 * (`FetchOptions.sink`), gzip is inflated a small slice at a time and cut at the limit, so nothing
 * past the limit is ever inflated, and the text goes to the readers of site_documents.ts in slices
 * with the event loop given its turn every few milliseconds. Memory is bounded by the limit and
 * the entries kept, never by the file; no request waits behind a long document.
 */
import { releaseChunk } from "../../platform/buffers.ts";
import {
  DocumentReader,
  type Listed,
  type ReadDocument,
  TextSitemapReader,
  tooLarge,
} from "./site_documents.ts";
import { sharedTurn } from "../../../store/turns.ts";
import { charsetOf, xmlDecoder } from "./fetcher_body.ts";
import { JsonFeedReader } from "./json_feed.ts";

/**
 * Bytes decoded at once (their text is handed to a reader whole), and how long the work runs
 * before the loop gets a turn. Small pieces keep every string in V8's young generation, which a
 * scavenge frees at once: a string past 128 KB is born old and stays until a full collection, so
 * 50 MB decoded a megabyte at a time lifted the heap by as much.
 */
const PIECE = 32 * 1024;
/** Bytes held before decoding, to read the encoding from: a BOM or the XML declaration. */
const SNIFF_BYTES = 1024;
const TURN_MS = 8;
/** Compressed bytes inflated per step: at most about STEP_OUTPUT out, even for a bomb. */
const MIN_STEP = 1024;
const MAX_STEP = 64 * 1024;
const STEP_OUTPUT = 256 * 1024;
/** Pages handed over at once to a stream's `onPages` (a batch the store writes in one go). */
const HANDOVER = 400;

/** What a document turned out to hold: a listing read, or an HTML page's text (for its feeds). */
export type StreamedDocument = { read: ReadDocument } | { html: string };

/** Gives the event loop a turn (the thread's shared one, store/turns.ts: requests are served first). */
const turn = sharedTurn;

/**
 * One document as it arrives: `push()` each chunk fetched (false: no more wanted), then `end()`.
 * With `onPages`, the pages it lists are handed over in batches as they are read (awaited: the
 * document is read no faster than they are taken) and the document read at the end holds none.
 */
export class DocumentStream {
  readonly #url: string;
  readonly #type: string;
  readonly #maxBytes: number;
  readonly #htmlMax: number;
  readonly #onPages?: (pages: Listed[]) => Promise<unknown>;
  readonly #charset: string | null;
  /** Chosen from the first bytes (`xmlDecoder`), which wait in `#lead` until then. */
  #decoder: TextDecoder | null = null;
  #lead: Uint8Array = new Uint8Array(0);
  #head: Uint8Array = new Uint8Array(0);
  #gzip: { writer: WritableStreamDefaultWriter<BufferSource>; pump: Promise<void> } | null = null;
  #step = MIN_STEP;
  #inflated = 0;
  #mode: "sniff" | "xml" | "text" | "json" | "html" = "sniff";
  #pending = "";
  #xml: DocumentReader | null = null;
  /** The reader of a text sitemap or a JSON feed (both take text and say when they are done). */
  #text: TextSitemapReader | JsonFeedReader | null = null;
  #html = "";
  #problem: string | null = null;
  #done = false;
  #lastTurn = performance.now();

  constructor(
    url: string,
    type: string,
    opts: {
      maxBytes: number;
      htmlMaxBytes: number;
      onPages?: (pages: Listed[]) => Promise<unknown>;
    },
  ) {
    this.#url = url;
    // A Content-Type: its media type decides text or XML, its charset how the bytes decode.
    this.#type = type.split(";")[0].trim().toLowerCase();
    this.#charset = charsetOf(type);
    this.#maxBytes = opts.maxBytes;
    this.#htmlMax = opts.htmlMaxBytes;
    this.#onPages = opts.onPages;
  }

  /** Takes the next bytes fetched; false once the document wants no more. */
  async push(chunk: Uint8Array): Promise<boolean> {
    if (this.#done) return false;
    if (!this.#gzip && this.#mode === "sniff" && this.#head.length + chunk.length < 2) {
      this.#head = concat(this.#head, chunk);
      return true;
    }
    if (this.#head.length) {
      chunk = concat(this.#head, chunk);
      this.#head = new Uint8Array(0);
    }
    if (!this.#gzip && this.#mode === "sniff" && this.#inflated === 0 && isGzip(chunk)) {
      this.#startGzip();
    }
    if (this.#gzip) {
      for (let i = 0; i < chunk.length && !this.#done;) {
        const step = chunk.subarray(i, i + this.#step);
        i += step.length;
        try {
          await this.#gzip.writer.write(step as Uint8Array<ArrayBuffer>);
        } catch (e) {
          // Once the reading side stopped (done: a limit or fault), a write fails for that.
          if (!this.#done) this.#fail(gzipProblem(e));
        }
      }
      return !this.#done;
    }
    this.#inflated += chunk.length;
    await this.#bytes(chunk);
    return !this.#done;
  }

  async #bytes(b: Uint8Array, final = false) {
    if (!this.#decoder) {
      // A copy: the caller may release its chunk once this returns.
      this.#lead = concat(this.#lead, b);
      if (this.#lead.length < SNIFF_BYTES && !final) return;
      b = this.#lead;
      this.#lead = new Uint8Array(0);
      this.#decoder = xmlDecoder(b, this.#charset);
    }
    for (let i = 0; i < b.length && !this.#done; i += PIECE) {
      await this.#take(this.#decoder.decode(b.subarray(i, i + PIECE), { stream: true }));
    }
  }

  /** The document read (what came before a fault or the limit included). */
  async end(): Promise<StreamedDocument> {
    if (this.#head.length) {
      const head = this.#head;
      this.#head = new Uint8Array(0);
      await this.push(head);
    }
    if (this.#gzip) {
      const { writer, pump } = this.#gzip;
      if (!this.#done) await writer.close().catch((e) => this.#done || this.#fail(gzipProblem(e)));
      else await writer.abort().catch(() => {});
      await pump;
    }
    if (!this.#decoder) await this.#bytes(new Uint8Array(0), true);
    if (!this.#done) await this.#take(this.#decoder!.decode());
    if (this.#mode === "sniff" && this.#pending.trim()) await this.#take("", true);
    if (this.#mode === "html") return { html: this.#html };
    const read = this.#text?.end() ??
      this.#xml?.end() ??
      {
        kind: "unknown",
        root: null,
        pages: [],
        pageCount: 0,
        sitemaps: [],
        problem: "empty document",
      };
    await this.#handOver(1);
    return { read: this.#problem ? { ...read, problem: this.#problem } : read };
  }

  #startGzip() {
    const ds = new DecompressionStream("gzip");
    const reader = ds.readable.getReader();
    const pump = (async () => {
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          let out = r.value;
          this.#inflated += out.length;
          // A bomb's ratio shrinks the next step, so one step never inflates much past a megabyte.
          const ratio = out.length / Math.max(1, this.#step);
          this.#step = Math.max(MIN_STEP, Math.min(MAX_STEP, Math.floor(STEP_OUTPUT / ratio)));
          const over = this.#inflated - this.#maxBytes;
          if (over > 0) out = out.subarray(0, out.length - over);
          await this.#bytes(out);
          releaseChunk(r.value); // decoded: its memory goes back now, not at the next collection
          if (over > 0) {
            this.#fail(tooLarge(this.#maxBytes, "uncompressed"));
          }
          if (this.#done) break;
        }
      } catch (e) {
        if (!this.#done) this.#fail(gzipProblem(e));
      } finally {
        await reader.cancel().catch(() => {});
      }
    })();
    this.#gzip = { writer: ds.writable.getWriter(), pump };
  }

  async #handOver(atLeast: number) {
    const pages = this.#onPages && (this.#xml ?? this.#text)?.takePages(atLeast);
    if (pages?.length) await this.#onPages!(pages);
  }

  #fail(problem: string) {
    this.#problem ??= problem;
    this.#done = true;
  }

  /** Decoded text: sniffed, then handed to its reader in slices with turns between them. */
  async #take(s: string, final = false) {
    if (this.#mode === "sniff") {
      this.#pending += s;
      // Whitespace (and a BOM) before `<?xml` is common in real feeds and not well-formed.
      const start = this.#pending.replace(/^\uFEFF/, "").trimStart();
      if (!start || (start.length < 16 && !final)) return;
      this.#pending = "";
      this.#mode = /^<(!doctype html|html)/i.test(start)
        ? "html"
        : start[0] === "<"
        ? "xml"
        : start[0] === "{"
        ? "json"
        // Sniffed after inflating: a gzip sitemap may be a text one (sitemaps.org "Text file").
        : this.#type === "text/plain" || /^https?:\/\//i.test(start)
        ? "text"
        : "xml";
      if (this.#mode === "xml") this.#xml = new DocumentReader(this.#url);
      if (this.#mode === "text") this.#text = new TextSitemapReader(this.#url);
      if (this.#mode === "json") this.#text = new JsonFeedReader(this.#url);
      s = start;
    }
    if (this.#mode === "html") {
      this.#html += s;
      if (this.#html.length > this.#htmlMax) this.#fail(tooLarge(this.#htmlMax));
      return;
    }
    if (this.#xml) {
      this.#xml.write(s);
      if (this.#xml.full) this.#done = true;
    } else if (this.#text!.write(s)) this.#done = true;
    await this.#handOver(HANDOVER);
    if (performance.now() - this.#lastTurn > TURN_MS) {
      await turn();
      this.#lastTurn = performance.now();
    }
  }
}

function isGzip(b: Uint8Array): boolean {
  return b[0] === 0x1f && b[1] === 0x8b;
}

function gzipProblem(e: unknown): string {
  return `not valid gzip (${e instanceof Error ? e.message : e})`;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Reads a document already in memory (tests, and the same path as a fetched one); `type` is its
 * Content-Type, charset included.
 */
export async function readBytes(
  bytes: Uint8Array,
  url: string,
  type: string,
  maxBytes: number,
  onPages?: (pages: Listed[]) => Promise<unknown>,
): Promise<StreamedDocument> {
  const stream = new DocumentStream(url, type, { maxBytes, htmlMaxBytes: maxBytes, onPages });
  for (let i = 0; i < bytes.length; i += MAX_STEP) {
    if (!await stream.push(bytes.subarray(i, i + MAX_STEP))) break;
  }
  return await stream.end();
}
