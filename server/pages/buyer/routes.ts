/**
 * The buyer portal (issue 12 parts 1 and 5), mounted at /buyer on the platform host:
 * server-rendered Preact pages that are in-process clients of the marketplace API
 * (server/pages/kit/api.ts), in the same portal frame as the publisher console
 * (server/pages/kit/frame.ts).
 */
import { withoutTrailingSlash } from "../not_found.ts";
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import type { ApiFetch } from "../kit/api.ts";
import { framePortal } from "../kit/frame.ts";
import { askWhoOnce, requireVisitor, type VisitorEnv } from "../kit/session.ts";
import { buyerAccountPages } from "./account.ts";
import { budgetsPages } from "./budgets.ts";
import { catalogPages } from "./catalog.ts";
import { crawlersPages } from "./crawlers.ts";
import { keysPages } from "./keys.ts";
import { licensesPages } from "./licenses.ts";
import { offersPages } from "./offers.ts";
import { overviewPages } from "./overview.ts";
import { statementsPages } from "./statements.ts";
import { invoicePages } from "./invoices.ts";
import { itemsPages } from "./items.ts";
import { disputesPages } from "./disputes.ts";
import { usagePages } from "./usage.ts";
import { webhookPages } from "../kit/webhooks.ts";
import { BUYER_FRAME } from "../../../ui/buyer/shell.tsx";
import { BUYER_EVENTS, EVENT_WORDS } from "../../domain/webhooks/events.ts";
import { MARKETPLACE } from "../../surfaces/marketplace/schemas.ts";
import { BUYER_SITE, type BuyerEnv, type BuyerVisitor } from "./site.ts";

const BUYER_HOOKS = {
  frame: BUYER_FRAME,
  base: "/buyer/webhooks",
  api: MARKETPLACE,
  choices: BUYER_EVENTS.map((t) => [t, EVENT_WORDS[t]] as const),
};

/** The buyer portal sub-app; `api` is the application's own fetch. */
export function buyerRoutes(deps: AppDeps, api: ApiFetch): Hono<VisitorEnv<BuyerVisitor>> {
  const app = new Hono<VisitorEnv<BuyerVisitor>>();
  framePortal(app, deps, { href: "/buyer", label: "Back to the buyer portal" });
  app.use("*", askWhoOnce(api, BUYER_SITE));
  app.route("/", buyerAccountPages(deps, api));

  const pages = new Hono<BuyerEnv>();
  pages.use("*", requireVisitor(BUYER_SITE));
  pages.route("/", overviewPages(api));
  pages.route("/", catalogPages(deps, api));
  pages.route("/", licensesPages(api));
  pages.route("/", offersPages(api));
  pages.route("/", usagePages(api));
  pages.route("/", budgetsPages(api));
  pages.route("/", statementsPages(api, { cardPayments: deps.config.stripe !== null }));
  pages.route("/", invoicePages(api));
  pages.route("/", itemsPages(api));
  pages.route("/", disputesPages(api));
  pages.route("/", keysPages(deps, api));
  pages.route("/", crawlersPages(deps, api));
  pages.route("/", webhookPages(deps, api, BUYER_HOOKS));
  pages.all("*", (c) => {
    const slash = withoutTrailingSlash(c);
    if (slash) return slash;
    throw new AppError(404, "not_found", `There is no buyer portal page at ${c.req.path}`);
  });
  app.route("/", pages);
  return app;
}
