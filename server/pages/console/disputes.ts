/**
 * /publisher/disputes: the publisher's disputes (GET /api/publisher/disputes, by state, paged) and
 * each open one's accept and refuse forms, a POST to POST /api/publisher/disputes/<id>/decision.
 */
import { type Context, Hono } from "hono";
import { ConsoleDisputesPage, type FailedDispute } from "../../../ui/console/disputes.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { disputePageSchema } from "../../domain/billing/dispute_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageStatus, segment } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";
import { decisionOf } from "../kit/dispute_forms.ts";

const NOTICES: Record<string, string> = {
  accept: "Dispute accepted: the credit note is issued and the buyer is told.",
  refuse: "Dispute refused: the buyer sees your reason.",
};

/** The disputes page and its forms. */
export function disputesPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const render = async (c: Context<ConsoleEnv>, failed: FailedDispute | null, status = 200) => {
    const query = new URLSearchParams();
    const state = c.req.query("state") || null;
    if (state) query.set("state", state);
    const cursor = c.req.query("cursor");
    if (cursor) query.set("cursor", cursor);
    const answer = await callApi(c, api, `/api/publisher/disputes?${query}`, disputePageSchema);
    const refused = answer.status === 400 ? answer.problem : null;
    const page = refused
      ? must(await callApi(c, api, "/api/publisher/disputes", disputePageSchema))
      : must(answer);
    return c.html(
      renderPage(ConsoleDisputesPage({
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
      const answer = await send(c, api, f, `/api/publisher/disputes/${segment(id)}/decision`, {
        method: "POST",
        json: decisionOf(action, f),
      });
      if (!answer.ok) return render(c, { id, problem: answer.problem! }, answer.status);
      return doneRedirect(c, `/publisher/disputes#${id}`, action);
    });
  }
  return app;
}
