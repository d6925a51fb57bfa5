/**
 * The publisher console, mounted at /publisher on the platform host: server-rendered Preact pages
 * over the management API (server/pages/kit/api.ts), in the portal frame (server/pages/kit/frame.ts).
 */
import { withoutTrailingSlash } from "../not_found.ts";
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import { accountPages, passwordPages } from "./account.ts";
import type { ApiFetch } from "../kit/api.ts";
import { articlesPages } from "./articles.ts";
import { booksPages } from "./books.ts";
import { callsPages } from "./calls.ts";
import { articleBulkPages } from "./article_bulk.ts";
import { trafficPages } from "./traffic.ts";
import { earningsPages } from "./earnings.ts";
import { payoutsPages } from "./payouts.ts";
import { payeePages } from "./payee.ts";
import { disputesPages } from "./disputes.ts";
import { framePortal } from "../kit/frame.ts";
import { gatePages } from "./gate.ts";
import { intentsPages } from "./intents.ts";
import { overviewPages } from "./overview.ts";
import { playgroundPages } from "./playground.ts";
import { requestsPages } from "./requests.ts";
import { rulesPages } from "./rules.ts";
import { settingsPages } from "./settings.ts";
import { sourcesPages } from "./sources.ts";
import { webhookPages } from "../kit/webhooks.ts";
import { CONSOLE_FRAME } from "../../../ui/console/shell.tsx";
import { EVENT_WORDS, PUBLISHER_EVENTS } from "../../domain/webhooks/events.ts";
import {
  askWhoOnce,
  type ConsoleEnv,
  type ConsoleVisitor,
  PUBLISHER_SITE,
  requireVisitor,
  type VisitorEnv,
} from "../kit/session.ts";

const PUBLISHER_HOOKS = {
  frame: CONSOLE_FRAME,
  base: "/publisher/webhooks",
  api: "/api/publisher",
  choices: PUBLISHER_EVENTS.map((t) => [t, EVENT_WORDS[t]] as const),
};

/** The console sub-app; `api` is the application's own fetch. */
export function consoleRoutes(deps: AppDeps, api: ApiFetch): Hono<VisitorEnv<ConsoleVisitor>> {
  const app = new Hono<VisitorEnv<ConsoleVisitor>>();
  framePortal(app, deps, { href: "/publisher", label: "Back to the console" });
  app.use("*", askWhoOnce(api, PUBLISHER_SITE));
  app.route("/", accountPages(deps, api));

  const pages = new Hono<ConsoleEnv>();
  pages.use("*", requireVisitor(PUBLISHER_SITE));
  pages.route("/", overviewPages(api));
  pages.route("/", settingsPages(deps, api));
  pages.route("/", sourcesPages(api));
  pages.route("/", booksPages(api));
  pages.route("/", articleBulkPages(api)); // before /articles/:id
  pages.route("/", articlesPages(api));
  pages.route("/", rulesPages(api));
  pages.route("/", gatePages(api));
  pages.route("/", callsPages(api));
  pages.route("/", trafficPages(api));
  pages.route("/", intentsPages(api));
  pages.route("/", earningsPages(api));
  pages.route("/", payeePages(api));
  pages.route("/", payoutsPages(api));
  pages.route("/", disputesPages(api));
  pages.route("/", requestsPages(api));
  pages.route("/", playgroundPages(api));
  pages.route("/", passwordPages(api));
  pages.route("/", webhookPages(deps, api, PUBLISHER_HOOKS));
  pages.all("*", (c) => {
    const slash = withoutTrailingSlash(c);
    if (slash) return slash;
    throw new AppError(404, "not_found", `There is no console page at ${c.req.path}`);
  });
  app.route("/", pages);
  return app;
}
