/**
 * The operator console, mounted at /operator on the platform host: server-rendered Preact pages
 * over the operator API (server/pages/kit/api.ts), in the portal frame (server/pages/kit/frame.ts).
 * Sign-in pages first; every other page needs a signed-in operator (`requireVisitor`). Each area
 * is one `<area>.ts` beside this file, registered with one line below, and one section in
 * ui/operator/shell.tsx (docs/decisions/operator.md "How to add an operator route and page").
 */
import { withoutTrailingSlash } from "../not_found.ts";
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import type { ApiFetch } from "../kit/api.ts";
import { framePortal } from "../kit/frame.ts";
import { askWhoOnce, requireVisitor } from "../kit/session.ts";
import { accountPages } from "./account.ts";
import { auditPages } from "./audit.ts";
import { deskPages } from "./desk.ts";
import { disputesPages } from "./disputes.ts";
import { invoicesPages } from "./invoices.ts";
import { payoutsPages } from "./payouts.ts";
import { signInPages } from "./signin.ts";
import { OPERATOR_SITE, type OperatorPagesEnv, type OperatorVisitorEnv } from "./site.ts";
import type { OperatorWho } from "../../../ui/operator/shell.tsx";
import { suspensionsPages } from "./suspensions.ts";

/** The operator console; `api` is the application's own fetch. */
export function operatorPages(deps: AppDeps, api: ApiFetch): Hono<OperatorVisitorEnv> {
  const app = new Hono<OperatorVisitorEnv>();
  framePortal(app, deps, { href: "/operator", label: "Back to the desk" });
  app.use("*", askWhoOnce<OperatorWho, typeof OPERATOR_SITE.sessionSchema>(api, OPERATOR_SITE));
  app.route("/", signInPages(deps, api));

  const pages = new Hono<OperatorPagesEnv>();
  pages.use("*", requireVisitor(OPERATOR_SITE));
  // One line per area: `pages.route("/", <area>Pages(api));`
  pages.route("/", deskPages(api));
  pages.route("/", invoicesPages(api, deps.clock));
  pages.route("/", disputesPages(api));
  pages.route("/", suspensionsPages(api));
  pages.route("/", payoutsPages(api));
  pages.route("/", auditPages(api));
  pages.route("/", accountPages(deps, api));
  pages.all("*", (c) => {
    const slash = withoutTrailingSlash(c);
    if (slash) return slash;
    throw new AppError(404, "not_found", `There is no operator page at ${c.req.path}`);
  });
  app.route("/", pages);
  return app;
}
