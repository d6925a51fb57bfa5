/** GET /publisher: the overview, from the settings, analytics, coverage, sources and rules APIs. */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { OverviewPage, type Step } from "../../../ui/console/overview.tsx";
import {
  analyticsSchema,
  coverageSchema,
  earningsSchema,
  ruleListSchema,
} from "../../surfaces/manage/openapi_schemas.ts";
import { settingsResponseSchema } from "../../surfaces/manage/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { must } from "../kit/pages.ts";

/** The overview page. */
export function overviewPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/", async (c) => {
    const [settings, analytics, earnings, coverage, rules] = await Promise.all([
      callApi(c, api, "/api/publisher/settings", settingsResponseSchema).then(must),
      callApi(c, api, "/api/publisher/analytics?days=30", analyticsSchema).then(must),
      callApi(c, api, "/api/publisher/earnings?months=1", earningsSchema).then(must),
      callApi(c, api, "/api/publisher/coverage", coverageSchema).then(must),
      callApi(c, api, "/api/publisher/rules", ruleListSchema).then(must),
    ]);
    const steps: Step[] = [
      {
        label: "Describe and brand your page",
        done: !!(settings.description || settings.branding.logoUrl ||
          settings.branding.primaryColor),
        href: "/publisher/settings",
        hint: "Agents and buyers see your name, description, logo and colour.",
      },
      {
        label: "Add your catalog",
        done: coverage.total > 0,
        href: "/publisher/sources",
        hint: "Upload a CSV of article URLs, or a book.",
      },
      {
        label: "Decide what agents pay for",
        done: rules.rules.length > 0,
        href: "/publisher/rules",
        hint: "A rule can put a section behind the paywall or set its price.",
      },
      {
        label: "Connect your own domain",
        // Done once it routes: a pending claim still waits for its record.
        done: settings.domain?.status === "verified",
        href: "/publisher/settings#domain",
        hint: settings.domain?.status === "pending"
          ? "Pending: add the TXT record shown in settings, then verify."
          : "Optional: REST and A2A answer on your host.",
      },
      {
        label: "See your first agent read",
        done: analytics.month.reads > 0,
        href: "/publisher/calls",
        hint: "Paste the MCP URL below into an MCP client and read an article.",
      },
    ];
    return c.html(renderPage(OverviewPage({
      who: c.get("who"),
      urls: settings.urls,
      publicRest: settings.toggles.publicRest,
      a2a: settings.toggles.a2a,
      month: analytics.month,
      // The Earnings page's figure for this month (its definition, not the reads-only analytics).
      earned: earnings.months.find((m) => m.month === analytics.month.month) ?? null,
      surfaces: analytics.surfaces,
      daily: analytics.daily,
      coverage,
      steps,
    })));
  });
  return app;
}
