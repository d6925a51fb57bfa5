/**
 * Receipt signatures off the serving thread (issue 39): a signing thread
 * (receipt_signer_worker.ts) signs each turn's receipts in one message, so a group commit's
 * charges are signed together and the serving thread only posts and resolves (an Ed25519
 * signature through WebCrypto on the event loop was 10.8% of a charged read's CPU). The charge is
 * committed before its receipt is signed and a receipt is deterministic, so should the thread
 * fail, the pool signs whatever was pending itself and starts a new thread for the next turn: no
 * read goes without its receipt. docs/decisions/billing.md, "Receipts off the serving thread".
 */
import { setImmediate } from "node:timers";
import { type PrivateJwk, signCompact } from "./receipt_jws.ts";
import type { SignBatch, SignedBatch } from "./receipt_signer_worker.ts";

/** A signing key: its kid, its private JWK (for the thread) and its key (for inline). */
export interface SigningKey {
  kid: string;
  jwk: PrivateJwk;
  key: CryptoKey;
}

interface Pending {
  key: SigningKey;
  input: string;
  resolve: (jws: string) => void;
  reject: (err: unknown) => void;
}

/** Signs receipts on a thread of its own, batched per turn of the event loop. */
export class ReceiptSigner {
  #worker: Worker | null = null;
  /** The kids the current thread holds. */
  #held = new Set<string>();
  #queued: Map<number, Pending> = new Map();
  #inFlight = new Map<number, Pending>();
  #next = 0;
  #scheduled = false;
  #closed = false;
  /** Threads started so far (a failed one is replaced on the next turn). */
  started = 0;

  /** The compact JWS over `input` (receipt_jws.ts `signingInput`) with `key`. */
  sign(key: SigningKey, input: string): Promise<string> {
    if (this.#closed) return signCompact(input, key.key);
    return new Promise((resolve, reject) => {
      this.#queued.set(this.#next++, { key, input, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Ends the thread; what it had not answered is signed here. */
  close(): void {
    this.#closed = true;
    this.#fail();
    this.#signInline(this.#queued);
  }

  /** Makes the thread fail as a crash would (tests: no receipt may be lost). */
  crashForTest(): void {
    this.#worker?.postMessage({ crash: true } satisfies SignBatch);
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#queued;
    this.#queued = new Map();
    if (batch.size === 0) return;
    if (this.#closed) return this.#signInline(batch);
    const worker = this.#thread();
    const keys: Record<string, PrivateJwk> = {};
    const items: NonNullable<SignBatch["items"]> = [];
    for (const [id, p] of batch) {
      if (!this.#held.has(p.key.kid)) {
        keys[p.key.kid] = p.key.jwk;
        this.#held.add(p.key.kid);
      }
      items.push({ id, kid: p.key.kid, input: p.input });
      this.#inFlight.set(id, p);
    }
    worker.postMessage({ keys, items } satisfies SignBatch);
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL("./receipt_signer_worker.ts", import.meta.url), {
      type: "module",
    });
    worker.onmessage = (e: MessageEvent<SignedBatch>) => {
      for (const { id, jws } of e.data.signed) {
        const p = this.#inFlight.get(id);
        this.#inFlight.delete(id);
        p?.resolve(jws);
      }
    };
    const failed = (e: Event) => {
      e.preventDefault();
      if (this.#worker === worker) this.#fail();
    };
    worker.onerror = failed;
    worker.onmessageerror = failed;
    this.#worker = worker;
    this.#held = new Set();
    this.started++;
    return worker;
  }

  /** Drops the thread and signs here what it had not answered. */
  #fail(): void {
    this.#worker?.terminate();
    this.#worker = null;
    const lost = this.#inFlight;
    this.#inFlight = new Map();
    this.#signInline(lost);
  }

  #signInline(batch: Map<number, Pending>): void {
    for (const p of batch.values()) signCompact(p.input, p.key.key).then(p.resolve, p.reject);
    batch.clear();
  }
}
