/**
 * The catalog and analytics views of the management API: articles (list, per-article policy and
 * price, unpublish and publish), reader intents and embedding coverage (the call log is
 * calls_routes.ts)
 * (docs/DESIGN.md §6).
 */
import { Hono } from "hono";
import { recentIntents } from "../../../store/intents.ts";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { describeCallers } from "./callers.ts";
import {
  listManagedArticles,
  patchManagedArticle,
  setManagedArticlePublished,
} from "./articles.ts";
import { articlePatchSchema, articleQuerySchema } from "./schemas.ts";
import { json } from "./body.ts";
import { parseInput } from "../../platform/validate.ts";

/** docs/SPEC.md "Events": the call log shows the last 100 calls; reader intents likewise. */
const RECENT = 100;

/** The article, call-log, intent and coverage routes. */
export function articlesRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;

  app.get("/articles", async (c) => {
    const query = parseInput(
      articleQuerySchema,
      Object.fromEntries(new URL(c.req.url).searchParams),
    );
    return c.json(await listManagedArticles(deps, c.get("publisher"), query));
  });

  app.patch("/articles/:id", json(articlePatchSchema), async (c) => {
    const patch = c.req.valid("json");
    const article = await patchManagedArticle(deps, c.get("publisher"), {
      id: c.req.param("id"),
      ...patch,
    });
    return c.json({ article });
  });

  for (const [action, published] of [["unpublish", false], ["publish", true]] as const) {
    app.post(`/articles/:id/${action}`, async (c) => {
      const article = await setManagedArticlePublished(deps, c.get("publisher"), {
        id: c.req.param("id"),
        published,
      });
      return c.json({ article });
    });
  }

  app.get("/intents", async (c) => {
    await deps.callLog.flush();
    const intents = await recentIntents(db, c.get("publisher").id, { limit: RECENT });
    const callerOf = await describeCallers(db, intents.map((i) => i.identity));
    return c.json({
      intents: intents.map(({ identity, ...intent }) => ({
        ...intent,
        caller: callerOf(identity),
      })),
    });
  });

  app.get("/coverage", async (c) => {
    return c.json(await deps.search.coverage(c.get("publisher").id));
  });
  return app;
}
