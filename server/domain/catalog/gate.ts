/** A counting semaphore: outbound fetches per host (host_slots.ts), book imports per process. */

/** Counting semaphore whose waiters leave the queue when their signal aborts. */
export class Gate {
  #active = 0;
  #queue: (() => void)[] = [];
  constructor(readonly limit: number) {}
  get idle(): boolean {
    return this.#active === 0 && this.#queue.length === 0;
  }
  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.#active < this.limit) return void this.#active++;
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(grant);
        if (i >= 0) this.#queue.splice(i, 1);
        reject(signal!.reason);
      };
      this.#queue.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  /** Runs `work` holding a slot. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }
  release(): void {
    const next = this.#queue.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.#active--;
  }
}
