/// <reference lib="deno.worker" />
/**
 * Trains an LSA model off the main thread: training a 20k-article sample takes seconds of pure
 * CPU, which would stall every request the process serves. Receives pages of {texts} (answering
 * {added} after each, so the sender holds one page at a time), then {train: options}, and
 * answers {bytes} (the serialized model, transferred); any failure answers {error}.
 */
import { LsaCorpus, type LsaOptions, serializeLsa } from "./lsa.ts";

const corpus = new LsaCorpus();

self.onmessage = (e: MessageEvent<{ texts?: string[]; train?: LsaOptions }>) => {
  try {
    if (e.data.texts) {
      for (const text of e.data.texts) corpus.add(text);
      self.postMessage({ added: corpus.size });
      return;
    }
    const bytes = serializeLsa(corpus.train(e.data.train));
    self.postMessage({ bytes }, [bytes.buffer]);
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
