/// <reference lib="deno.worker" />
/**
 * Trains an LSA model off the main thread: training a 20k-article sample takes seconds of pure
 * CPU, which would stall every request the process serves. Receives {texts, options}, answers
 * {bytes} (the serialized model, transferred) or {error}.
 */
import { type LsaOptions, serializeLsa, trainLsa } from "./lsa.ts";

self.onmessage = (e: MessageEvent<{ texts: string[]; options: LsaOptions }>) => {
  try {
    const bytes = serializeLsa(trainLsa(e.data.texts, e.data.options));
    self.postMessage({ bytes }, [bytes.buffer]);
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
