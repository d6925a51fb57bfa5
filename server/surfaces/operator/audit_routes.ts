/**
 * GET /api/operator/audit and /audit/csv: the audit log (server/domain/audit/), newest first, by
 * actor, action (exact, or a prefix such as `invoice.`), subject and UTC day range, paged by a
 * cursor; and the same filters as CSV (server/platform/csv.ts).
 */
import { Hono } from "hono";
import { type AuditFilter, listAudit } from "../../../store/audit_log.ts";
import type { AppDeps } from "../../deps.ts";
import { auditView } from "../../domain/audit/audit.ts";
import { toCsv } from "../../platform/csv.ts";
import { parseInput } from "../../platform/validate.ts";
import type { OperatorEnv } from "./auth.ts";
import { auditExportQuerySchema, auditQuerySchema } from "./schemas.ts";

const DAY_MS = 86_400_000;
/** The CSV's rows per store read, and at most how many it writes. */
const CSV_PAGE = 2_000;
const CSV_MAX_ROWS = 200_000;

type Query = Omit<AuditFilter, "from" | "to" | "before"> & { from?: string; to?: string };

function filterOf(q: Query): AuditFilter {
  return {
    actorKind: q.actorKind,
    actorId: q.actorId,
    action: q.action,
    subjectKind: q.subjectKind,
    subjectId: q.subjectId,
    from: q.from ? Date.parse(`${q.from}T00:00:00Z`) : undefined,
    to: q.to ? Date.parse(`${q.to}T00:00:00Z`) + DAY_MS : undefined,
  };
}

const CSV_COLUMNS = [
  "seq",
  "at",
  "actor_kind",
  "actor_id",
  "action",
  "subject_kind",
  "subject_id",
  "before",
  "after",
  "reason",
];

/** The audit routes. */
export function auditRoutes(deps: AppDeps): Hono<OperatorEnv> {
  const app = new Hono<OperatorEnv>();
  const db = deps.store.db;
  const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

  app.get("/audit", async (c) => {
    const q = parseInput(auditQuerySchema, params(c.req.url));
    const before = q.cursor ? Number(q.cursor) : undefined;
    // One more than the page tells whether another follows.
    const rows = await listAudit(db, { ...filterOf(q), before }, q.limit + 1);
    const page = rows.slice(0, q.limit);
    const more = rows.length > q.limit;
    return c.json({
      entries: page.map(auditView),
      nextCursor: more ? String(page.at(-1)!.seq) : null,
    });
  });

  app.get("/audit/csv", async (c) => {
    const q = parseInput(auditExportQuerySchema, params(c.req.url));
    const filter = filterOf(q);
    const lines: string[][] = [CSV_COLUMNS];
    let before: number | undefined;
    while (lines.length <= CSV_MAX_ROWS) {
      const rows = await listAudit(db, { ...filter, before }, CSV_PAGE);
      for (const r of rows) {
        lines.push([
          String(r.seq),
          new Date(r.at).toISOString(),
          r.actorKind,
          r.actorId,
          r.action,
          r.subjectKind,
          r.subjectId,
          r.beforeJson ?? "",
          r.afterJson ?? "",
          r.reason ?? "",
        ]);
      }
      if (rows.length < CSV_PAGE) break;
      before = rows.at(-1)!.seq;
    }
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="folio-audit-log.csv"');
    c.header("Cache-Control", "no-store");
    return c.body(toCsv(lines));
  });

  return app;
}
