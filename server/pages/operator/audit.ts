/**
 * /operator/audit: the audit log over GET /api/operator/audit (filters in the query string, so
 * the page works without JavaScript and a filtered view can be linked); /operator/audit.csv
 * passes GET /api/operator/audit/csv through with the same filters.
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { type AuditFilters, AuditPage } from "../../../ui/operator/audit.tsx";
import { auditPageSchema } from "../../surfaces/operator/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { formProblem } from "../kit/field_errors.ts";
import { must, refusalStatus } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

const FILTERS = [
  "actorKind",
  "actorId",
  "action",
  "subjectKind",
  "subjectId",
  "from",
  "to",
] as const;
const LABELS: Record<(typeof FILTERS)[number], string> = {
  actorKind: "Who",
  actorId: "Their id",
  action: "Action",
  subjectKind: "Subject kind",
  subjectId: "Subject id",
  from: "From",
  to: "To",
};
/** The form's fields by the API's query names (the same names). */
const FIELDS = Object.fromEntries(FILTERS.map((name) => [name, { name, label: LABELS[name] }]));

/** The filters of the page's query (empty values dropped). */
function filtersOf(params: URLSearchParams): AuditFilters {
  const out: AuditFilters = {};
  for (const name of FILTERS) {
    const v = params.get(name)?.trim();
    if (v) out[name] = v;
  }
  return out;
}

/** The audit pages. */
export function auditPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();

  app.get("/audit", async (c) => {
    const params = new URL(c.req.url).searchParams;
    const filters = filtersOf(params);
    const cursor = params.get("cursor");
    const query = new URLSearchParams(filters as Record<string, string>);
    if (cursor) query.set("cursor", cursor);
    const answer = await callApi(c, api, `/api/operator/audit?${query}`, auditPageSchema);
    const who = c.get("who");
    if (!answer.ok) {
      if (answer.status !== 400) must(answer);
      const problem = formProblem(answer, FIELDS);
      return c.html(
        renderPage(AuditPage({
          who,
          entries: [],
          nextCursor: null,
          paged: false,
          filters,
          problem: problem.top,
          fieldProblem: problem.field,
        })),
        refusalStatus(answer.status),
      );
    }
    return c.html(renderPage(AuditPage({
      who,
      entries: answer.body.entries,
      nextCursor: answer.body.nextCursor,
      paged: !!cursor,
      filters,
    })));
  });

  app.get("/audit.csv", async (c) => {
    const query = new URLSearchParams(
      filtersOf(new URL(c.req.url).searchParams) as Record<string, string>,
    );
    const answer = await callApi(c, api, `/api/operator/audit/csv?${query}`, null);
    if (!answer.ok) must(answer);
    return c.body(answer.text, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": answer.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "no-store",
    });
  });
  return app;
}
