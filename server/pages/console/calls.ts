/**
 * GET /publisher/calls: the last 100 calls from GET /api/publisher/calls. The surface and "reads
 * only" filters work on those 100 rows here; "Show" asks the API for protocol trace rows
 * (`status=trace`) or every row (`status=all`) instead of calls.
 */
import { Hono } from "hono";
import { SURFACES } from "../../../store/vocabulary.ts";
import { CallsPage, isRead } from "../../../ui/console/calls.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { callListSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";

/** The row kinds the page offers besides calls (the API's default). */
const SHOWN = ["trace", "all"] as const;

/** The calls page. */
export function callsPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.get("/calls", async (c) => {
    // Which rows: calls (the API's default), protocol traces, or every row; the API checks it.
    const askedStatus = c.req.query("status") ?? "";
    const status = (SHOWN as readonly string[]).includes(askedStatus) ? askedStatus : "";
    const { calls } = must(
      await callApi(
        c,
        api,
        `/api/publisher/calls${status ? `?status=${status}` : ""}`,
        callListSchema,
      ),
    );
    const asked = c.req.query("surface") ?? "";
    const known = asked === "" || (SURFACES as readonly string[]).includes(asked);
    const surface = known ? asked : "";
    const readsOnly = c.req.query("only") === "reads";
    const rows = calls.filter((r) =>
      (surface === "" || r.surface === surface) && (!readsOnly || isRead(r.tool))
    );
    return c.html(
      renderPage(CallsPage({
        who: c.get("who"),
        calls: rows,
        received: calls.length,
        surface,
        surfaces: SURFACES,
        readsOnly,
        status,
        problem: known ? null : `surface: must be one of ${SURFACES.join(", ")}`,
      })),
      known ? 200 : 400,
    );
  });
  return app;
}
