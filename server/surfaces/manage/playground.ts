/**
 * POST /api/publisher/playground/passages: retrieve_passages as a buyer sees it, for the
 * publisher to try its own catalog. The same read path as MCP and REST (server/domain/reads/search.ts),
 * with nothing recorded: no charge, meter read or reader intent. Logged in the call log as
 * `_dash:retrieve_passages` (docs/SPEC.md "Registered MCP install": `_dash:<tool>` entries).
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import type { ManageEnv } from "./auth.ts";
import { callLogged } from "../../platform/envelope.ts";
import { microsToCents } from "../../platform/money.ts";
import { passageResult } from "../../domain/reads/present.ts";
import { retrievePassages } from "../../domain/reads/search.ts";
import { publisherIdentity } from "./callers.ts";
import { playgroundPassagesSchema } from "./schemas.ts";
import { json } from "./body.ts";

/** The playground route. */
export function playgroundRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const reads = {
    db: deps.store.db,
    clock: deps.clock,
    search: deps.search,
    intents: deps.callLog,
    receipts: deps.receipts,
  };

  app.post(
    "/playground/passages",
    callLogged(deps, "dashboard", { tools: ["_dash:retrieve_passages"] }),
    // The identity first, so that a refused body is logged under it too.
    async (c, next) => {
      c.set("identity", publisherIdentity(c.get("publisher").id));
      await next();
    },
    json(playgroundPassagesSchema),
    async (c) => {
      const publisher = c.get("publisher");
      const identity = publisherIdentity(publisher.id);
      const input = c.req.valid("json");
      const { passages: found } = await retrievePassages(reads, {
        publisher,
        ...input,
        // A buyer with no license and no spend this month (no buyer has this id): the decision
        // takes a metered buyer's path, and with record: false nothing is charged or counted.
        caller: { identity, buyerId: identity, territory: null, surface: "dashboard" },
        record: false,
      });
      return c.json({
        count: found.length,
        results: found.map((p) => ({
          ...passageResult(deps.config, publisher, p),
          wouldChargeUsdCents: p.decision.charge ? microsToCents(p.decision.charge.micros) : 0,
        })),
      });
    },
  );
  return app;
}
