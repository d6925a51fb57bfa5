/// <reference lib="deno.worker" />
/**
 * A search thread: runs the full-text leg (search/fts_leg.ts) on a read-only connection of its own
 * to the store file, so FTS5's ranking, a third to a half of a search at 100k articles, runs beside
 * the serving thread's vector scan instead of after it. Receives {init: {path, options}} once, then
 * {id, publisherId, query, depth, counts}, and answers {id, hits} or {id, error}.
 */
import { openReadOnly } from "../store/search_fts.ts";
import { createFtsLeg, type DocCounts, type FtsLeg, type FtsLegOptions } from "./fts_leg.ts";

type Ask = { id: number; publisherId: string; query: string; depth: number; counts: DocCounts };
type Init = { init: { path: string; options: FtsLegOptions } };

let leg: Promise<FtsLeg> | null = null;

self.onmessage = async (e: MessageEvent<Init | Ask>) => {
  if ("init" in e.data) {
    const { path, options } = e.data.init;
    leg = (async () => {
      return createFtsLeg(await openReadOnly(path, 5000), options); // this thread only reads
    })();
    return;
  }
  const { id, publisherId, query, depth, counts } = e.data;
  try {
    if (!leg) throw new Error("search thread not initialised");
    const hits = await (await leg).run(publisherId, query, depth, counts);
    self.postMessage({ id, hits });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
