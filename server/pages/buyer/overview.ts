/**
 * GET /buyer: the overview, from GET /api/marketplace/budgets (this month's spend against the cap
 * and budgets), /usage (this month's calls and reads, from its daily series), /statement (this
 * month's total, the Statements page's figure), /licenses and /account.
 */
import { Hono } from "hono";
import { BuyerOverviewPage } from "../../../ui/buyer/overview.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import {
  accountSchema,
  budgetsSchema,
  licenseListSchema,
  statementSchema,
  usageSchema,
} from "../../surfaces/marketplace/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

/** The overview page. */
export function overviewPages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  app.get("/", async (c) => {
    // 90 days reach back past the start of any month; the daily series is cut to this month.
    const [report, usage, licenses, account, statement] = await Promise.all([
      callApi(c, api, market("/budgets"), budgetsSchema).then(must),
      callApi(c, api, market("/usage?days=90"), usageSchema).then(must),
      callApi(c, api, market("/licenses"), licenseListSchema).then(must),
      callApi(c, api, market("/account"), accountSchema).then(must),
      callApi(c, api, market("/statement"), statementSchema).then(must),
    ]);
    const thisMonth = usage.daily.filter((d) => d.day.startsWith(`${report.month}-`));
    const month = {
      calls: thisMonth.reduce((t, d) => t + d.calls, 0),
      reads: thisMonth.reduce((t, d) => t + d.reads, 0),
    };
    const active = licenses.licenses.filter((l) => l.state === "active").length;
    const steps = [
      {
        label: "Keep your API key",
        done: account.keyHint !== null,
        href: "/buyer/keys",
        hint: "Your agents send it as Authorization: Bearer; lost it? Rotate it.",
      },
      {
        label: "License a publisher",
        done: active > 0,
        href: "/buyer/catalog",
        hint: "Optional: a monthly license covers its use cases; without one, reads are per use.",
      },
      {
        label: "Make your first read",
        done: usage.daily.some((d) => d.reads > 0),
        href: "/buyer/catalog",
        hint: "Paste a publisher's connection snippet into your MCP client, or curl its REST API.",
      },
      {
        label: "Set a budget",
        done: report.overall.monthlyUsdCents !== null ||
          report.publishers.some((p) => p.monthlyUsdCents !== null),
        href: "/buyer/budgets",
        hint: "Cap what your agents can spend per month, overall or per publisher.",
      },
    ];
    return c.html(renderPage(BuyerOverviewPage({
      who: c.get("who"),
      report,
      month,
      statementUsdCents: statement.totalUsdCents,
      activeLicenses: active,
      steps,
    })));
  });
  return app;
}
