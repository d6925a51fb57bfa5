/**
 * GET /publisher/calls: the call log from GET /api/publisher/calls, newest first, filtered by a
 * GET form (date range, surface, outcome, caller, article, reads only) and paged by the API's
 * cursor; the CSV link carries the same filters to GET /publisher/calls.csv, which passes
 * /api/publisher/calls/csv through. Works without JavaScript.
 */
import { Hono } from "hono";
import { CALL_OUTCOMES } from "../../../store/call_list.ts";
import { SURFACES } from "../../../store/vocabulary.ts";
import { type CallFilters, CallsPage } from "../../../ui/console/calls.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { callListSchema } from "../../surfaces/manage/calls_schemas.ts";
import { trafficSchema } from "../../surfaces/manage/traffic_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { type FieldMap, formProblem } from "../kit/field_errors.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { siteLinks } from "./site_links.ts";

const FILTERS = ["from", "to", "surface", "outcome", "agent", "article", "only", "status"] as const;

const FIELDS: FieldMap = {
  from: { name: "from", label: "From", plain: "enter a date such as 2026-11-01" },
  to: { name: "to", label: "To", plain: "enter a date such as 2026-11-30" },
  surface: { name: "surface", label: "Surface" },
  outcome: { name: "outcome", label: "Outcome" },
  agent: { name: "agent", label: "Caller" },
  article: { name: "article", label: "Article" },
  only: { name: "only", label: "Calls" },
  status: { name: "status", label: "Show" },
};

function filtersOf(params: URLSearchParams): CallFilters {
  const out: CallFilters = {};
  for (const k of FILTERS) {
    const v = params.get(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

/** The calls page and its CSV download. */
export function callsPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/calls", async (c) => {
    const params = new URL(c.req.url).searchParams;
    const filters = filtersOf(params);
    const query = new URLSearchParams(filters as Record<string, string>);
    const cursor = params.get("cursor");
    if (cursor) query.set("cursor", cursor);
    let answer = await callApi(c, api, `/api/publisher/calls?${query}`, callListSchema);
    const problem = answer.ok ? null : formProblem(answer, FIELDS);
    // A refused filter is shown beside its field, above every call.
    if (!answer.ok && answer.status === 400) {
      answer = await callApi(c, api, "/api/publisher/calls", callListSchema);
    }
    const list = must(answer);
    // The callers of the last 90 days are the caller filter's choices.
    const traffic = must(
      await callApi(c, api, "/api/publisher/analytics/traffic?days=90&top=12", trafficSchema),
    );
    const link = await siteLinks(c, api);
    return c.html(
      renderPage(CallsPage({
        who: c.get("who"),
        calls: list.calls.map((r) =>
          r.article?.url ? { ...r, article: { ...r.article, url: link(r.article.url) } } : r
        ),
        total: list.total,
        nextCursor: list.nextCursor,
        paged: !!cursor,
        filters,
        surfaces: SURFACES,
        outcomes: CALL_OUTCOMES,
        agents: traffic.series.map((s) => s.agent),
        problem: problem?.top ?? null,
        fieldProblem: problem?.field ?? null,
      })),
      problem ? 400 : 200,
    );
  });

  app.get("/calls.csv", async (c) => {
    const query = new URLSearchParams(
      filtersOf(new URL(c.req.url).searchParams) as Record<string, string>,
    );
    const answer = await callApi(c, api, `/api/publisher/calls/csv?${query}`, null);
    if (!answer.ok) must(answer);
    return c.body(answer.text, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": answer.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "no-store",
    });
  });
  return app;
}
