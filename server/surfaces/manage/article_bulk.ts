/**
 * Bulk edits of policy and price, and the defaults new articles get (issue 34). A selection by
 * filter is what GET /api/publisher/articles lists with the same filters; unknown ids refuse the
 * whole request; the change is one UPDATE, so it applies to every selected article or to none.
 */
import { listArticleRuleFacts } from "../../../store/article_pages.ts";
import {
  articleDefaults,
  articlesChangedBy,
  changeArticles,
  knownArticleIds,
  setArticleDefaults,
} from "../../../store/article_bulk.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { AppDeps } from "../../deps.ts";
import { invalid } from "../../platform/errors.ts";
import { centsToMicros, microsToCents } from "../../platform/money.ts";
import type { z } from "zod";
import type { articleBulkSchema, articleDefaultsSchema } from "./article_bulk_schemas.ts";
import { BULK_MAX } from "./article_bulk_schemas.ts";
import { effectiveContext } from "./articles.ts";
import { effectiveOf } from "./effective.ts";

type Deps = Pick<AppDeps, "store" | "clock" | "search">;
type Bulk = z.output<typeof articleBulkSchema>;

/** The ids a bulk request selects, refusing unknown ids and selections past BULK_MAX. */
async function selection(deps: Deps, publisher: Publisher, bulk: Bulk): Promise<string[]> {
  const db = deps.store.db;
  if (bulk.ids) {
    const ids = [...new Set(bulk.ids)];
    const known = await knownArticleIds(db, publisher.id, ids);
    const unknown = bulk.ids.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw invalid(`ids[${unknown}]`, "is not an article of this publisher");
    return ids;
  }
  const f = bulk.filter!;
  const facts = await listArticleRuleFacts(db, publisher.id, {
    policy: f.storedPolicy,
    kind: f.kind,
    published: f.published,
    q: f.q,
  });
  const ctx = f.policy ? await effectiveContext(deps, publisher, { country: f.country }) : null;
  const ids = facts.filter((a) => !ctx || effectiveOf(ctx, a).policy === f.policy).map((a) => a.id);
  if (ids.length > BULK_MAX) {
    throw invalid("filter", `selects ${ids.length} articles; narrow it to at most ${BULK_MAX}`);
  }
  return ids;
}

/** Counts (dry run) or applies a bulk change; tells search of every article it changed. */
export async function bulkChangeArticles(deps: Deps, publisher: Publisher, bulk: Bulk) {
  const ids = await selection(deps, publisher, bulk);
  const change = {
    policy: bulk.set.policy,
    priceMicros: bulk.set.priceUsdCents === undefined
      ? undefined
      : bulk.set.priceUsdCents === null
      ? null
      : centsToMicros(bulk.set.priceUsdCents),
  };
  const db = deps.store.db;
  const altered = await articlesChangedBy(db, publisher.id, ids, change);
  if (bulk.dryRun) return { dryRun: true, matched: ids.length, changed: altered.length };
  const changed = await changeArticles(db, publisher.id, altered, {
    ...change,
    now: deps.clock.now(),
  });
  // Search's eligibility depends on the policy (BLOCKED articles are never returned).
  for (const id of altered) await deps.search.articleChanged(publisher.id, id);
  return { dryRun: false, matched: ids.length, changed };
}

/** The defaults as the API shows them. */
export async function defaultsOf(deps: Pick<AppDeps, "store">, publisherId: string) {
  const d = await articleDefaults(deps.store.db, publisherId);
  return {
    policy: d.policy,
    priceUsdCents: d.priceMicros === null ? null : microsToCents(d.priceMicros),
  };
}

/** Sets the defaults new articles get. */
export async function setDefaults(
  deps: Pick<AppDeps, "store">,
  publisherId: string,
  input: z.output<typeof articleDefaultsSchema>,
) {
  await setArticleDefaults(deps.store.db, publisherId, {
    policy: input.policy,
    priceMicros: input.priceUsdCents === null ? null : centsToMicros(input.priceUsdCents),
  });
  return await defaultsOf(deps, publisherId);
}
