/**
 * The operator API (issue 38; docs/decisions/operator.md), mounted at /api/operator: sign-in
 * first (it needs no operator yet), then `requireOperator` on everything else, so every route
 * behind it has `c.get("operator")`. Each area is one `<area>_routes.ts` beside this file,
 * returning `Hono<OperatorEnv>`, registered with one line below. Documented in
 * server/surfaces/openapi/operator.ts.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { accountRoutes } from "./account_routes.ts";
import { auditRoutes } from "./audit_routes.ts";
import { deskRoutes } from "./desk_routes.ts";
import { payoutRoutes } from "./payout_routes.ts";
import { invoicesRoutes } from "./invoices_routes.ts";
import { disputeRoutes } from "./dispute_routes.ts";
import { type OperatorEnv, requireOperator } from "./auth.ts";
import { signInRoutes } from "./signin_routes.ts";

/** The operator API. */
export function operatorRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.route("/", signInRoutes(deps));

  const guarded = new Hono<OperatorEnv>();
  guarded.use("*", requireOperator(deps));
  // One line per area: `guarded.route("/", <area>Routes(deps));`
  guarded.route("/", accountRoutes(deps));
  guarded.route("/", auditRoutes(deps));
  guarded.route("/", payoutRoutes(deps));
  guarded.route("/", deskRoutes(deps));
  guarded.route("/", invoicesRoutes(deps));
  guarded.route("/", disputeRoutes(deps));
  app.route("/", guarded);
  return app;
}
