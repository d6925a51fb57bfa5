/**
 * /operator/payouts: the operator's payouts (ui/operator/payouts.tsx) over the operator API: the
 * list (GET /api/operator/payouts, filters and pages), a review hold placed or released, a batch
 * approved, a batch marked paid, and the batch's payout file.
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { OperatorPayoutsPage } from "../../../ui/operator/payouts.tsx";
import {
  batchListSchema,
  deskSchema,
  payoutListSchema,
} from "../../surfaces/operator/payout_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const STATES = new Set(["held", "due", "approved", "paid"]);

const NOTICES = {
  held: "The payout is held for review.",
  released: "The review hold is released.",
  approved: "Batch approved. Download its payout file, make the transfers, then mark it paid.",
  paid: "Marked paid. The publishers are told.",
};

/** The payouts pages. */
export function payoutsPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();

  const render = async (c: Context<OperatorPagesEnv>, problem: string | null, status = 200) => {
    const q = c.req.query();
    const filter = {
      month: MONTH.test(q.month ?? "") ? q.month : "",
      state: STATES.has(q.state ?? "") ? q.state : "",
      publisherId: (q.publisherId ?? "").slice(0, 100),
    };
    const offset = Math.max(0, Math.min(1_000_000, Number.parseInt(q.offset ?? "0", 10) || 0));
    const ask = new URLSearchParams({ limit: "50", offset: String(offset) });
    for (const [k, v] of Object.entries(filter)) if (v) ask.set(k, v);
    // The desk's default month is the last closed one: what a batch is approved up to.
    const [list, batches, desk] = await Promise.all([
      callApi(c, api, `/api/operator/payouts?${ask}`, payoutListSchema),
      callApi(c, api, "/api/operator/payout-batches", batchListSchema),
      callApi(c, api, "/api/operator/desk?months=1", deskSchema),
    ]);
    return c.html(
      renderPage(OperatorPayoutsPage({
        who: c.get("who"),
        list: must(list),
        batches: must(batches),
        filter,
        batchMonth: must(desk).month.month,
        notice: noticeOf(c, NOTICES),
        problem,
      })),
      status as 200,
    );
  };

  app.get("/payouts", (c) => render(c, null));

  app.get("/payouts/batches/:file{[A-Za-z0-9_]+\\.csv}", async (c) => {
    const id = c.req.param("file").slice(0, -4);
    const csv = await callApi(c, api, `/api/operator/payout-batches/${id}/csv`, null);
    must(csv);
    return c.body(csv.text, 200, {
      "Content-Disposition": `attachment; filename="folio-payouts-${id}.csv"`,
      "Content-Type": "text/csv; charset=utf-8",
      "Cache-Control": "no-store",
    });
  });

  /** A form's API call, then back to the list with its notice, or the list with the problem. */
  const act = (
    path: (c: Context<OperatorPagesEnv>) => string,
    body: (f: Record<string, string | string[]>) => unknown,
    done: keyof typeof NOTICES,
    schema = null,
  ) =>
  async (c: Context<OperatorPagesEnv>) => {
    const fields = await readForm(c);
    const answer = await send(
      c,
      api,
      fields,
      path(c),
      { method: "POST", json: body(fields) },
      schema,
    );
    if (answer.ok) return doneRedirect(c, "/operator/payouts", done);
    return render(c, answer.problem ?? "The request failed", answer.status === 400 ? 400 : 409);
  };

  app.post(
    "/payouts/batches",
    formLimit,
    act(
      () => "/api/operator/payout-batches",
      (f) => ({ month: field(f, "month").trim() }),
      "approved",
    ),
  );
  app.post(
    "/payouts/batches/:id/paid",
    formLimit,
    act(
      (c) => `/api/operator/payout-batches/${encodeURIComponent(c.req.param("id") ?? "")}/paid`,
      (f) => ({ paidOn: field(f, "paidOn").trim(), reference: field(f, "reference") }),
      "paid",
    ),
  );
  app.post(
    "/payouts/:id/hold",
    formLimit,
    act(
      (c) => `/api/operator/payouts/${encodeURIComponent(c.req.param("id") ?? "")}/hold`,
      (f) => ({ reason: field(f, "reason") }),
      "held",
    ),
  );
  app.post(
    "/payouts/:id/release",
    formLimit,
    act(
      (c) => `/api/operator/payouts/${encodeURIComponent(c.req.param("id") ?? "")}/release`,
      () => ({}),
      "released",
    ),
  );
  return app;
}
