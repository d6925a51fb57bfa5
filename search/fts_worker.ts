/// <reference lib="deno.worker" />
/**
 * A search thread: runs the full-text leg (search/fts_leg.ts) on a read-only connection of its own
 * to the store file, so FTS5's ranking, a third to a half of a search at 100k articles, runs beside
 * the serving thread's vector scan instead of after it. Receives {init: {path, options}} once, then
 * {id, publisherId, query, depth, counts}, and answers {id, hits} or {id, error}; says {shrunk}
 * when it gave its page cache back after a quiet spell.
 */
import type { Client } from "@libsql/client";
import { openReadOnly, releaseCache } from "../store/search_fts.ts";
import { createFtsLeg, type DocCounts, type FtsLeg, type FtsLegOptions } from "./fts_leg.ts";

/**
 * A thread with no search for this long gives its page cache back (SQLite's shrink_memory; the
 * serving thread then has glibc trim its arenas, FtsThreads' `onShrunk`): the cache of up to 32 MB (store/search_fts.ts) is what held memory 35 s after four
 * books were searchable (1.20× idle against 1.09× with a 2 MB cache; issue 39). The next search
 * reads its pages again; steady traffic never waits this long.
 */
export const IDLE_SHRINK_MS = 15_000;
let idleShrinkMs = IDLE_SHRINK_MS;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
function shrinkWhenIdle(db: Client) {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(async () => {
    await releaseCache(db).catch(() => {});
    self.postMessage({ shrunk: true });
  }, idleShrinkMs);
  Deno.unrefTimer(idleTimer);
}

type Ask = { id: number; publisherId: string; query: string; depth: number; counts: DocCounts };
type Init = { init: { path: string; options: FtsLegOptions; idleShrinkMs?: number } };

let leg: Promise<FtsLeg> | null = null;

self.onmessage = async (e: MessageEvent<Init | Ask>) => {
  if ("init" in e.data) {
    const { path, options } = e.data.init;
    idleShrinkMs = e.data.init.idleShrinkMs ?? IDLE_SHRINK_MS;
    leg = (async () => {
      const db = await openReadOnly(path, 5000); // this thread only reads
      const leg = createFtsLeg(db, options);
      const run = leg.run.bind(leg);
      leg.run = async (...args) => {
        clearTimeout(idleTimer);
        const hits = await run(...args);
        shrinkWhenIdle(db); // armed once answered, so {shrunk} always follows the answer
        return hits;
      };
      return leg;
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
