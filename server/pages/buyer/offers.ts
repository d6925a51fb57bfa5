/**
 * /buyer/offers: the buyer's license requests and the offers made on them, from GET
 * /api/marketplace/license-requests, and the accept and decline forms, each a POST to that offer's
 * API action (POST /api/marketplace/offers/<id>/accept or /decline).
 */
import { type Context, Hono } from "hono";
import { OffersPage } from "../../../ui/buyer/offers.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { buyerRequestListSchema } from "../../surfaces/marketplace/offer_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, formLimit, noticeOf, optional, readForm, send } from "../kit/forms.ts";
import { must, pageStatus, segment } from "../kit/pages.ts";
import { refusalWords } from "./refusals.ts";
import { type BuyerEnv, market } from "./site.ts";
import type { LinkedWords } from "../../../ui/console/shell.tsx";

const NOTICES: Record<string, string> = {
  accepted:
    "Offer accepted: the license is active and its first charge is on this month's statement.",
  declined: "Offer declined: nothing was billed.",
  requested:
    "Request sent: it waits for the publisher, who answers with an offer for you to accept or " +
    "decline, or with a reason. Nothing is billed until you accept an offer.",
};

/** The offers page and its forms. */
export function offersPages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const render = async (
    c: Context<BuyerEnv>,
    failed: { offerId: string; problem: string; linked?: LinkedWords | null } | null = null,
    status = 200,
  ) => {
    const list = must(await callApi(c, api, market("/license-requests"), buyerRequestListSchema));
    const known = failed && list.requests.some((r) => r.offer?.offerId === failed.offerId);
    return c.html(
      renderPage(OffersPage({
        who: c.get("who"),
        requests: list.requests,
        notice: noticeOf(c, NOTICES),
        problem: failed && !known ? failed.problem : null,
        failed: known ? failed : null,
      })),
      pageStatus(status),
    );
  };

  app.get("/offers", (c) => render(c));

  for (const action of ["accept", "decline"] as const) {
    app.post(`/offers/:offerId/${action}`, formLimit, async (c) => {
      const offerId = c.req.param("offerId");
      const f = await readForm(c);
      const answer = await send(c, api, f, market(`/offers/${segment(offerId)}/${action}`), {
        method: "POST",
        // Accepting bills the figure the page showed: the quote's time goes back with the form.
        json: action === "decline"
          ? { reason: optional(f, "reason") }
          : { quotedAt: optional(f, "quotedAt") },
      });
      if (!answer.ok) {
        const linked = refusalWords(answer);
        return render(c, { offerId, problem: answer.problem!, linked }, answer.status);
      }
      return doneRedirect(c, "/buyer/offers", action === "accept" ? "accepted" : "declined");
    });
  }
  return app;
}
