/** Training the built-in model, in a Worker when the sample is big enough to stall the server. */
import { deserializeLsa, LsaCorpus, type LsaModel, type LsaOptions } from "./lsa.ts";

/** Samples smaller than this train in place: they take milliseconds, less than a Worker's start. */
export const WORKER_THRESHOLD = 500;

/** A training sample: how many documents it holds, and their texts a page at a time. */
export interface TrainingSample {
  count: number;
  pages: AsyncIterable<string[]> | Iterable<string[]>;
}

/**
 * Trains an LSA model on a sample, off the main thread for large samples. Pages are read one at
 * a time and each is reduced to term counts before the next is read (the Worker acknowledges
 * every page), so the sample's texts are never all in memory at once.
 */
export async function trainOffThread(
  sample: TrainingSample,
  options: LsaOptions = {},
): Promise<LsaModel> {
  if (sample.count < WORKER_THRESHOLD) {
    const corpus = new LsaCorpus();
    for await (const page of sample.pages) for (const text of page) corpus.add(text);
    return corpus.train(options);
  }
  const worker = new Worker(new URL("./train_worker.ts", import.meta.url), { type: "module" });
  try {
    const ask = conversation(worker);
    for await (const texts of sample.pages) await ask({ texts });
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
