/** Training the built-in model, in a Worker when the sample is big enough to stall the server. */
import { deserializeLsa, LsaCorpus, type LsaModel, type LsaOptions } from "./lsa.ts";

/**
 * Samples under both limits train in place: tens of milliseconds, less than a Worker's start.
 * Text counts as much as documents: a 301-chapter book (12 MB) trained in place held the serving
 * thread for 1.2 s (ARCHITECTURE.md "Throughput", step 33).
 */
export const IN_PLACE = { docs: 500, chars: 256 * 1024 };

/** A training sample: its texts a page at a time. */
export interface TrainingSample {
  pages: AsyncIterable<string[]> | Iterable<string[]>;
}

/**
 * Trains an LSA model on a sample, off the main thread for large samples. Pages are read one at
 * a time and held only until the sample proves larger than IN_PLACE; from then on a Worker
 * reduces each page to term counts before the next is sent (it acknowledges every page), so the
 * sample's texts are never all in memory at once.
 */
export async function trainOffThread(
  sample: TrainingSample,
  options: LsaOptions = {},
): Promise<LsaModel> {
  const held: string[][] = [];
  let docs = 0, chars = 0;
  const pages = (async function* () {
    yield* sample.pages;
  })();
  for (;;) {
    const next = await pages.next();
    if (next.done) {
      const corpus = new LsaCorpus();
      for (const page of held) for (const text of page) corpus.add(text);
      return corpus.train(options);
    }
    held.push(next.value);
    docs += next.value.length;
    for (const text of next.value) chars += text.length;
    if (chars >= IN_PLACE.chars || docs >= IN_PLACE.docs) break;
  }
  const worker = new Worker(new URL("./train_worker.ts", import.meta.url), { type: "module" });
  try {
    const ask = conversation(worker);
    for (const texts of held.splice(0)) await ask({ texts });
    for await (const texts of pages) await ask({ texts });
    const { bytes } = await ask({ train: options });
    return deserializeLsa(bytes!);
  } finally {
    worker.terminate();
  }
}

type Reply = { added?: number; bytes?: Uint8Array; error?: string };

/** Request and reply with a Worker, one message in flight; a failure rejects the pending ask. */
function conversation(worker: Worker) {
  let pending: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  let failed: Error | null = null;
  const fail = (message: string) => {
    failed = new Error(`LSA training failed: ${message}`);
    pending?.reject(failed);
    pending = null;
  };
  worker.onmessage = (e: MessageEvent<Reply>) => {
    if (e.data.error) return fail(e.data.error);
    pending?.resolve(e.data);
    pending = null;
  };
  worker.onerror = (e) => {
    e.preventDefault();
    fail(e.message);
  };
  return (message: { texts: string[] } | { train: LsaOptions }) =>
    new Promise<Reply>((resolve, reject) => {
      if (failed) return reject(failed);
      pending = { resolve, reject };
      worker.postMessage(message);
    });
}
