/**
 * /operator/disputes: every dispute (GET /api/operator/disputes, by state, paged) and each
 * undecided one's accept and refuse forms, a POST to POST /api/operator/disputes/<id>/decision.
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { OperatorDisputesPage } from "../../../ui/operator/disputes.tsx";
import type { FailedDispute } from "../../../ui/console/disputes.tsx";
import { disputePageSchema } from "../../surfaces/operator/dispute_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { decisionOf } from "../kit/dispute_forms.ts";
import { doneRedirect, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageStatus, segment } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

const NOTICES: Record<string, string> = {
  accept: "Dispute accepted: the credit note is issued, the buyer told, the decision audited.",
  refuse: "Dispute refused: the buyer sees the reason; the decision is audited.",
};

/** The disputes pages. */
export function disputesPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  const render = async (
    c: Context<OperatorPagesEnv>,
    failed: FailedDispute | null,
    status = 200,
  ) => {
    const query = new URLSearchParams();
    const state = c.req.query("state") || null;
    if (state) query.set("state", state);
    const cursor = c.req.query("cursor");
    if (cursor) query.set("cursor", cursor);
    const answer = await callApi(c, api, `/api/operator/disputes?${query}`, disputePageSchema);
    const refused = answer.status === 400 ? answer.problem : null;
    const page = refused
      ? must(await callApi(c, api, "/api/operator/disputes", disputePageSchema))
      : must(answer);
    return c.html(
      renderPage(OperatorDisputesPage({
        who: c.get("who"),
        page,
        state: refused ? null : state,
        notice: noticeOf(c, NOTICES),
        problem: refused,
        failed,
      })),
      pageStatus(refused ? 400 : status),
    );
  };

  app.get("/disputes", (c) => render(c, null));

  for (const action of ["accept", "refuse"] as const) {
    app.post(`/disputes/:id/${action}`, formLimit, async (c) => {
      const id = c.req.param("id");
      const f = await readForm(c);
      const answer = await send(c, api, f, `/api/operator/disputes/${segment(id)}/decision`, {
        method: "POST",
        json: decisionOf(action, f),
      });
      if (!answer.ok) return render(c, { id, problem: answer.problem! }, answer.status);
      return doneRedirect(c, `/operator/disputes#${id}`, action);
    });
  }
  return app;
}
