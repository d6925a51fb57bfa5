/**
 * Article extraction off the serving thread (issue 39): linkedom's parse and Readability were a
 * quarter of the serving thread's CPU while a catalog was ingested (docs/PERFORMANCE.md, "Issue 39:
 * ingestion"), and a large page held every request behind it. One thread (extract_worker.ts)
 * takes one page at a time; the rest wait here, so a page that crashes the thread or outlives its
 * deadline is known and fails alone: the thread is ended and the next page starts a new one. The
 * thread ends when idle, so a node that is not ingesting keeps no second heap. Where no thread can
 * start (a build without the worker), pages are extracted inline as before.
 *
 * Small pages are extracted inline: handing a page to the thread cost more CPU than extracting a
 * 3 KB page itself (bench:ingest, alternated on one machine), while a page of 500 KB held the
 * event loop for seconds. Above `inlineMaxChars` the thread pays for itself.
 * docs/decisions/ingestion.md, "Extraction on a thread of its own".
 */
import { extractArticle, type Extracted } from "./extract.ts";
import type { ExtractJob, ExtractReply } from "./extract_worker.ts";

/** A page the extraction thread could not extract: it failed, or took longer than its deadline. */
export class ExtractionFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractionFailed";
  }
}

/** Extracts pages; `close()` ends its thread (process shutdown). */
export interface Extractor {
  extract(html: string, url: string): Promise<Extracted>;
  close(): void;
}

interface Queued {
  job: ExtractJob;
  resolve: (x: Extracted) => void;
  reject: (e: unknown) => void;
}

export interface ExtractorOptions {
  /** A page still being extracted after this is failed and its thread ended. */
  deadlineMs?: number;
  /** The thread ends after this long without a page. */
  idleMs?: number;
  /** The worker's module (tests: one that crashes or hangs). */
  workerUrl?: URL;
  /** Pages of at most this many characters are extracted on the calling thread. */
  inlineMaxChars?: number;
}

/** About 5 ms of extraction on a quiet core: below it the thread's hand-over costs more than it saves. */
export const INLINE_MAX_CHARS = 16 * 1024;

/** One extraction thread with a queue in front of it. */
export function createExtractor(options: ExtractorOptions = {}): Extractor {
  const deadlineMs = options.deadlineMs ?? 60_000;
  const idleMs = options.idleMs ?? 10_000;
  const workerUrl = options.workerUrl ?? new URL("./extract_worker.ts", import.meta.url);
  const inlineMaxChars = options.inlineMaxChars ?? INLINE_MAX_CHARS;
  const queue: Queued[] = [];
  let worker: Worker | null = null;
  /** The thread has loaded its modules (its first message). */
  let ready = false;
  let current: Queued | null = null;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let inline = false;
  let closed = false;
  let next = 0;

  const stop = () => {
    clearTimeout(idle);
    worker?.terminate();
    worker = null;
    ready = false;
  };
  // A page's deadline runs from when the thread can work on it, not while the thread loads.
  const startDeadline = () => {
    clearTimeout(deadline);
    deadline = setTimeout(() => {
      stop();
      settle({
        error: new ExtractionFailed(
          `Extracting the page took longer than ${Math.round(deadlineMs / 1000)} s`,
        ),
      });
    }, deadlineMs);
  };
  const settle = (outcome: { extracted: Extracted } | { error: unknown }) => {
    const done = current;
    current = null;
    clearTimeout(deadline);
    if (done) {
      if ("extracted" in outcome) done.resolve(outcome.extracted);
      else done.reject(outcome.error);
    }
    pump();
  };
  const start = (): Worker | null => {
    try {
      const w = new Worker(workerUrl, { type: "module" });
      w.onmessage = (e: MessageEvent<ExtractReply>) => {
        if (w !== worker) return;
        const reply = e.data;
        if ("ready" in reply) {
          ready = true;
          if (current) startDeadline();
          return;
        }
        if (current?.job.id !== reply.id) return;
        settle(
          "extracted" in reply ? reply : {
            error: new ExtractionFailed(`The page could not be extracted: ${reply.error}`),
          },
        );
      };
      const failed = (e: Event) => {
        e.preventDefault();
        if (w !== worker) return;
        const loaded = ready;
        stop();
        if (!loaded) {
          // It never loaded (a build without the worker's module): no page caused that, so this
          // and every later page are extracted here.
          inline = true;
          const item = current;
          current = null;
          clearTimeout(deadline);
          if (item) queue.unshift(item);
          return pump();
        }
        const why = e instanceof ErrorEvent ? e.message : e.type;
        settle({ error: new ExtractionFailed(`The extraction thread failed on the page: ${why}`) });
      };
      w.onerror = failed;
      w.onmessageerror = failed;
      return w;
    } catch {
      inline = true; // no worker here: extract on this thread
      return null;
    }
  };
  const pump = () => {
    if (current || closed) return;
    const item = queue.shift();
    if (!item) {
      clearTimeout(idle);
      idle = setTimeout(stop, idleMs);
      Deno.unrefTimer(idle);
      return;
    }
    clearTimeout(idle);
    if (!inline) worker ??= start();
    if (inline || !worker) {
      try {
        item.resolve(extractArticle(item.job.html, item.job.url));
      } catch (e) {
        item.reject(e);
      }
      return pump();
    }
    current = item;
    if (ready) startDeadline();
    worker.postMessage(item.job);
  };

  return {
    extract(html, url) {
      if (closed) return Promise.reject(new ExtractionFailed("The extractor is closed"));
      if (html.length <= inlineMaxChars) {
        try {
          return Promise.resolve(extractArticle(html, url));
        } catch (e) {
          return Promise.reject(e);
        }
      }
      return new Promise((resolve, reject) => {
        queue.push({ job: { id: next++, html, url }, resolve, reject });
        pump();
      });
    },
    close() {
      closed = true;
      stop();
      clearTimeout(deadline);
      const closing = new ExtractionFailed("The extractor is closed");
      if (current) current.reject(closing);
      current = null;
      for (const q of queue.splice(0)) q.reject(closing);
    },
  };
}
