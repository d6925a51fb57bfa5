/**
 * The buyer marketplace API (docs/SPEC.md "Buyer marketplace API"). CORS: the API is callable from
 * browsers with `Access-Control-Allow-Origin: *` and never with credentials (docs/TEST-PLAN.md
 * 5.12-5.13): scripts authenticate by the Authorization header. The buyer portal's session cookie
 * (issue 12 part 2) is for the portal alone: the session routes are not CORS-open at all, and an
 * answer to a cookie-authenticated request never carries the CORS header.
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { accountRoutes } from "./account_routes.ts";
import { budgetRoutes } from "./budget_routes.ts";
import { catalogRoutes } from "./catalog.ts";
import { licenseRoutes } from "./license_routes.ts";
import { rightsRoutes } from "./rights_routes.ts";
import { offerRoutes } from "./offer_routes.ts";
import { sessionRoutes } from "./session_routes.ts";
import { signatureAgentRoutes } from "./signature_agent_routes.ts";
import { olpClientRoutes } from "./olp_client_routes.ts";
import { statementRoutes } from "./statement_routes.ts";
import { invoiceRoutes } from "./invoice_routes.ts";
import { itemRoutes } from "./item_routes.ts";
import { disputeRoutes } from "./dispute_routes.ts";
import { MARKETPLACE } from "./schemas.ts";
import { webhookRoutes } from "../../domain/webhooks/routes.ts";
import { requireBuyer } from "./auth.ts";
import { json } from "./body.ts";

/** Where the marketplace is mounted (server/app.ts); defined with the schemas. */
export { MARKETPLACE };

// Browsers land on checkout pages and the processor posts webhooks: neither is an API for scripts.
// Signing in is the portal's business, not a cross-origin script's.
const NO_CORS = [`${MARKETPLACE}/webhooks/`, `${MARKETPLACE}/checkout/`, `${MARKETPLACE}/session`];

/** Marketplace routes, mounted at MARKETPLACE. */
export function marketplaceRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    const open = !NO_CORS.some((p) => c.req.path.startsWith(p));
    if (open && c.req.method === "OPTIONS") {
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
        "Access-Control-Allow-Headers":
          "Authorization, Content-Type, Idempotency-Key, Signature, Signature-Input, Signature-Agent",
        "Access-Control-Max-Age": "600",
      });
    }
    await next();
    if (open && !c.get("buyerSession")) c.header("Access-Control-Allow-Origin", "*");
  });
  app.route("/", catalogRoutes(deps));
  app.route("/", accountRoutes(deps));
  app.route("/", sessionRoutes(deps));
  app.route("/", licenseRoutes(deps));
  app.route("/", rightsRoutes(deps));
  app.route("/", offerRoutes(deps));
  app.route("/", statementRoutes(deps));
  app.route("/", invoiceRoutes(deps));
  app.route("/", itemRoutes(deps));
  app.route("/", disputeRoutes(deps));
  app.route("/", budgetRoutes(deps));
  app.route("/", signatureAgentRoutes(deps));
  app.route("/", olpClientRoutes(deps));
  // Issue 34: the buyer's signed webhooks (docs/decisions/webhooks.md).
  app.route(
    "/",
    webhookRoutes(deps, { auth: requireBuyer(deps), json, kind: "buyer" }),
  );
  return app;
}
