/**
 * The publisher console, mounted at /publisher on the platform host: server-rendered Preact pages
 * over the management API (server/console/api.ts). Pages are never framed, never cached, and run
 * only the console's own script.
 */
import { Hono } from "hono";
import { ConsoleErrorPage } from "../../ui/console/error.tsx";
import { CONSOLE_JS } from "../../ui/console/script.ts";
import { renderPage } from "../../ui/layout.tsx";
import type { AppDeps, AppEnv } from "../deps.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError } from "../errors.ts";
import { onError } from "../middleware.ts";
import { accountPages } from "./account.ts";
import type { ApiFetch } from "./api.ts";
import { articlesPages } from "./articles.ts";
import { booksPages } from "./books.ts";
import { callsPages } from "./calls.ts";
import { earningsPages } from "./earnings.ts";
import { intentsPages } from "./intents.ts";
import { overviewPages } from "./overview.ts";
import { playgroundPages } from "./playground.ts";
import { requestsPages } from "./requests.ts";
import { rulesPages } from "./rules.ts";
import { settingsPages } from "./settings.ts";
import { sourcesPages } from "./sources.ts";
import { type ConsoleEnv, requireVisitor } from "./session.ts";

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  // Branding logos are any https URL the publisher chose; the preview shows them.
  "img-src 'self' https: data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The console sub-app; `api` is the application's own fetch. */
export function consoleRoutes(deps: AppDeps, api: ApiFetch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CSP);
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "same-origin");
    c.header("X-Content-Type-Options", "nosniff");
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });
  // The app's one error model, worded as a page: the JSON handler decides status and message.
  const asJson = onError(deps);
  app.onError(async (err, c) => {
    const res = await asJson(err, c);
    const body = await res.clone().json().catch(() => null);
    const message = body?.error?.message ?? "Something went wrong";
    return c.html(
      renderPage(ConsoleErrorPage({ status: res.status, message })),
      res.status as ContentfulStatusCode,
      Object.fromEntries([...res.headers].filter(([k]) => k === "retry-after")),
    );
  });

  app.get("/console.js", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(CONSOLE_JS);
  });
  app.route("/", accountPages(deps, api));

  const pages = new Hono<ConsoleEnv>();
  pages.use("*", requireVisitor(api));
  pages.route("/", overviewPages(api));
  pages.route("/", settingsPages(deps, api));
  pages.route("/", sourcesPages(api));
  pages.route("/", booksPages(api));
  pages.route("/", articlesPages(api));
  pages.route("/", rulesPages(api));
  pages.route("/", callsPages(api));
  pages.route("/", intentsPages(api));
  pages.route("/", earningsPages(api));
  pages.route("/", requestsPages(api));
  pages.route("/", playgroundPages(api));
  pages.all("*", (c) => {
    throw new AppError(404, "not_found", `There is no console page at ${c.req.path}`);
  });
  app.route("/", pages);
  return app;
}
