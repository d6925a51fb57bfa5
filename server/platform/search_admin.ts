/** Operator chore: rebuild the derived search state of one or every publisher from the store. */
import { createSearchService } from "../../search/mod.ts";
import type { Store } from "../../store/db.ts";
import { getPublisher, listPublishers } from "../../store/publishers.ts";
import { systemClock } from "./clock.ts";
import { notFound } from "./errors.ts";

/** Rebuilds chunks, models and vectors; returns how many publishers were rebuilt. */
export async function rebuildIndexes(
  store: Store,
  options: { dataDir: string | null; publisherId?: string },
): Promise<number> {
  if (options.publisherId && !await getPublisher(store.db, options.publisherId)) {
    throw notFound(`Publisher "${options.publisherId}"`);
  }
  const search = createSearchService({
    db: store.db,
    now: () => systemClock.now(),
    dataDir: options.dataDir,
  });
  try {
    const ids = options.publisherId
      ? [options.publisherId]
      : (await listPublishers(store.db)).map((p) => p.id);
    for (const id of ids) {
      await search.rebuild(id);
      while (await search.embedPending({ publisherId: id, max: 500 }) > 0) {
        // embed until coverage is complete, in bounded batches
      }
    }
    return ids.length;
  } finally {
    await search.close();
  }
}
