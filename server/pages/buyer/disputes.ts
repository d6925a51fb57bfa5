/**
 * /buyer/disputes: the buyer's disputes (GET /api/marketplace/disputes, by state, paged), and the
 * Items page's "Dispute the ticked items" form, a POST to POST /api/marketplace/disputes. A refusal
 * is shown on this page with what the API said; nothing was opened.
 */
import { type Context, Hono } from "hono";
import { BuyerDisputesPage } from "../../../ui/buyer/disputes.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { disputePageSchema } from "../../domain/billing/dispute_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must, pageStatus } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

const NOTICES: Record<string, string> = {
  opened: "Dispute opened: the publisher is told and decides; you see the decision here.",
};

/** The disputes page and the form that opens one. */
export function disputesPages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const render = async (c: Context<BuyerEnv>, problem: string | null, status = 200) => {
    const query = new URLSearchParams();
    const state = c.req.query("state") || null;
    if (state) query.set("state", state);
    const cursor = c.req.query("cursor");
    if (cursor) query.set("cursor", cursor);
    const answer = await callApi(c, api, market(`/disputes?${query}`), disputePageSchema);
    const refused = answer.status === 400 ? answer.problem : null;
    const page = refused
      ? must(await callApi(c, api, market("/disputes"), disputePageSchema))
      : must(answer);
    return c.html(
      renderPage(BuyerDisputesPage({
        who: c.get("who"),
        page,
        state: refused ? null : state,
        notice: noticeOf(c, NOTICES),
        problem: problem ?? refused,
      })),
      pageStatus(refused ? 400 : status),
    );
  };

  app.get("/disputes", (c) => render(c, null));

  app.post("/disputes", formLimit, async (c) => {
    const f = await readForm(c);
    const ticked = f.itemIds;
    const itemIds = Array.isArray(ticked) ? ticked : ticked ? [ticked] : [];
    const answer = await send(c, api, f, market("/disputes"), {
      method: "POST",
      json: { itemIds, reason: field(f, "reason") },
    });
    if (!answer.ok) {
      const problem = itemIds.length === 0
        ? "Tick at least one item on the Items page to dispute it."
        : answer.problem!;
      return render(c, `Not opened: ${problem}`, answer.status);
    }
    return doneRedirect(c, "/buyer/disputes", "opened");
  });
  return app;
}
