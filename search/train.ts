/** Training the built-in model, in a Worker when the sample is big enough to stall the server. */
import { deserializeLsa, type LsaModel, type LsaOptions, trainLsa } from "./lsa.ts";

/** Samples smaller than this train in place: they take milliseconds, less than a Worker's start. */
export const WORKER_THRESHOLD = 500;

/** Trains an LSA model on `texts`, off the main thread for large samples. */
export function trainOffThread(texts: string[], options: LsaOptions = {}): Promise<LsaModel> {
  if (texts.length < WORKER_THRESHOLD) return Promise.resolve(trainLsa(texts, options));
  const worker = new Worker(new URL("./train_worker.ts", import.meta.url), { type: "module" });
  return new Promise<LsaModel>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<{ bytes?: Uint8Array; error?: string }>) => {
      worker.terminate();
      if (e.data.bytes) resolve(deserializeLsa(e.data.bytes));
      else reject(new Error(`LSA training failed: ${e.data.error}`));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(`LSA training failed: ${e.message}`));
    };
    worker.postMessage({ texts, options });
  });
}
