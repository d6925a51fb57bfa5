/**
 * The management API's bulk edit of articles and the defaults of new articles (issue 34).
 */
import {
  articleBulkResultSchema,
  articleBulkSchema,
  articleDefaultsSchema,
} from "../manage/article_bulk_schemas.ts";
import type { Operation, Paths } from "./kit.ts";

/** The paths, each operation made authenticated by `authed`. */
export function catalogPaths(authed: (o: Omit<Operation, "auth">) => Operation): Paths {
  return {
    "/api/publisher/articles/bulk": {
      post: authed({
        summary: "Set the policy and/or price of many articles at once",
        description: "Select articles by `ids` or by `filter` (the filters of GET " +
          "/api/publisher/articles; an empty filter selects the whole catalog, at most 10,000). " +
          "`dryRun: true` counts how many the change would alter and changes nothing. The " +
          "change applies to every selected article or, on any bad input (an unknown id), to " +
          "none. `changed` counts the articles whose stored policy or price it altered. The " +
          "body may be up to about 2 MB (10,000 ids of 200 characters); a larger one is a 413.",
        body: articleBulkSchema,
        example: { ids: ["a1b2c3d4e5f60708"], set: { policy: "PAYWALL", priceUsdCents: 5 } },
        ok: [200, articleBulkResultSchema],
        errors: [400, 413],
      }),
    },
    "/api/publisher/article-defaults": {
      get: authed({
        summary: "The policy and price override new articles get",
        ok: [200, articleDefaultsSchema],
      }),
      put: authed({
        summary: "Set the policy and price override new articles get",
        description: "Applies to articles ingested from now on whose source names no policy or " +
          "price (CSV uploads, site sync, books); existing articles keep theirs: change them " +
          "with POST /api/publisher/articles/bulk.",
        body: articleDefaultsSchema,
        example: { policy: "PAYWALL", priceUsdCents: null },
        ok: [200, articleDefaultsSchema],
        errors: [400],
      }),
    },
  };
}
