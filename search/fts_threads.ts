/**
 * Search threads for the full-text leg: Workers, each with its own read-only connection to the
 * store file (search/fts_worker.ts). A Deno process serves on one thread and the driver is
 * synchronous, so FTS5 ranking on the serving thread queued behind every vector scan; on a thread
 * of its own it runs beside them (docs/decisions/search.md, "Caches and threads"). Started on first use; a
 * thread that fails is dropped and its pending searches reject (the caller answers them inline).
 */
import type { DocCounts, FtsLegOptions } from "./fts_leg.ts";
import type { LegHit } from "./fusion.ts";

type Reply = { id: number; hits?: LegHit[]; error?: string } | { shrunk: true };
type Pending = { resolve: (hits: LegHit[]) => void; reject: (e: Error) => void };
interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** A small pool of search threads over the store file at `path`. */
export class FtsThreads {
  #threads: Thread[] = [];
  #next = 0;
  #closed = false;
  #shrinks = 0;

  /**
   * `idleShrinkMs`: a thread quiet this long gives its page cache back (search/fts_worker.ts);
   * `onShrunk` then runs (Folio: glibc's trim, so the freed pages leave the process).
   */
  constructor(
    readonly path: string,
    readonly options: FtsLegOptions,
    readonly size: number,
    readonly idleShrinkMs?: number,
    readonly onShrunk?: () => void,
  ) {}

  /** Times a thread gave its page cache back after a quiet spell. */
  get shrinks(): number {
    return this.#shrinks;
  }

  /** The leg's hits for one query, from the least busy thread (a new one while under `size`). */
  run(publisherId: string, query: string, depth: number, counts: DocCounts): Promise<LegHit[]> {
    if (this.#closed) return Promise.reject(new Error("search threads are closed"));
    const thread = this.#pick();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, publisherId, query, depth, counts });
    });
  }

  /** Threads started so far. */
  get started(): number {
    return this.#threads.length;
  }

  /** Stops every thread; searches in flight reject. */
  close(): void {
    this.#closed = true;
    for (const t of this.#threads) this.#drop(t, new Error("search threads are closed"));
  }

  #pick(): Thread {
    const idle = this.#threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.#threads.length < this.size) return this.#start();
    return this.#threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  #start(): Thread {
    const worker = new Worker(new URL("./fts_worker.ts", import.meta.url), { type: "module" });
    const thread: Thread = { worker, pending: new Map() };
    worker.onmessage = (e: MessageEvent<Reply>) => {
      if ("shrunk" in e.data) {
        this.#shrinks++;
        return this.onShrunk?.();
      }
      if (e.data.error !== undefined) {
        // Its connection may be unusable (a store it could not open): start afresh next time.
        return this.#drop(thread, new Error(`search thread failed: ${e.data.error}`));
      }
      const p = thread.pending.get(e.data.id);
      thread.pending.delete(e.data.id);
      p?.resolve(e.data.hits ?? []);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.#drop(thread, new Error(`search thread failed: ${e.message}`));
    };
    worker.postMessage({
      init: { path: this.path, options: this.options, idleShrinkMs: this.idleShrinkMs },
    });
    this.#threads.push(thread);
    return thread;
  }

  #drop(thread: Thread, error: Error): void {
    thread.worker.terminate();
    this.#threads = this.#threads.filter((t) => t !== thread);
    for (const p of thread.pending.values()) p.reject(error);
    thread.pending.clear();
  }
}
