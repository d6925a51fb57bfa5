/**
 * /publisher/requests?state=pending|approved|denied: license requests from GET /api/publisher/
 * license-requests, and the approve and deny forms, each a POST to that request's API action with
 * the price and term, or the reason, as JSON.
 */
import { type Context, Hono } from "hono";
import {
  type FailedDecision,
  RequestsPage,
  type RequestState,
} from "../../../ui/console/requests.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { licenseRequestListSchema } from "../../surfaces/manage/openapi_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  cents,
  doneRedirect,
  field,
  type Fields,
  formLimit,
  noticeOf,
  numeric,
  optional,
  readForm,
  send,
} from "../kit/forms.ts";
import { must, segment } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";

const NOTICES: Record<string, string> = {
  approved: "Offer sent: the buyer accepts or declines it; nothing is billed until they accept.",
  denied: "Request denied.",
};

/** How many requests the API lists at once (store/license_requests.ts). */
const API_LIMIT = 200;

type Refusal = 400 | 403 | 404 | 409 | 413 | 415;

/** What each form sends to its API action. */
const BODIES: Record<FailedDecision["action"], (f: Fields) => Record<string, unknown>> = {
  approve: (f) => {
    return {
      // The API takes whole cents a month.
      monthlyPriceUsdCents: cents(f, "priceUsd", true),
      termMonths: numeric(f, "termMonths"),
      expiresInDays: numeric(f, "expiresInDays"),
      note: optional(f, "note"),
    };
  },
  deny: (f) => ({ reason: optional(f, "reason") }),
};

/** The license request pages. */
export function requestsPages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const render = async (
    c: Context<ConsoleEnv>,
    asked: string,
    extra: { failed?: FailedDecision } = {},
    status: 200 | Refusal = 200,
  ) => {
    const list = (state: string) =>
      callApi(
        c,
        api,
        `/api/publisher/license-requests?state=${encodeURIComponent(state)}`,
        licenseRequestListSchema,
      );
    let answer = await list(asked);
    let state = asked as RequestState;
    let problem: string | null = null;
    if (answer.status === 400) {
      // A state the API does not know: say so above the pending requests.
      problem = answer.problem;
      state = "pending";
      status = 400;
      answer = await list(state);
    }
    return c.html(
      renderPage(RequestsPage({
        who: c.get("who"),
        state,
        requests: must(answer).requests,
        limit: API_LIMIT,
        notice: noticeOf(c, NOTICES),
        problem,
        ...extra,
      })),
      status,
    );
  };

  app.get("/requests", (c) => render(c, c.req.query("state") ?? "pending"));

  for (const action of ["approve", "deny"] as const) {
    app.post(`/requests/:id/${action}`, formLimit, async (c) => {
      const f = await readForm(c);
      const id = c.req.param("id");
      const answer = await send(
        c,
        api,
        f,
        `/api/publisher/license-requests/${segment(id)}/${action}`,
        { method: "POST", json: BODIES[action](f) },
      );
      if (answer.ok) {
        const done = action === "approve" ? "approved" : "denied";
        return doneRedirect(c, `/publisher/requests?state=${done}`, done);
      }
      if (answer.status >= 500) must(answer);
      const values = Object.fromEntries(
        ["priceUsd", "termMonths", "expiresInDays", "note", "reason"].map((k) => [k, field(f, k)]),
      );
      const status = ([403, 404, 409, 413, 415] as const).find((s) => s === answer.status) ?? 400;
      return render(c, "pending", {
        failed: { id, action, problem: answerWords(answer), values },
      }, status);
    });
  }
  return app;
}

/**
 * The API's refusal in the console's words where its sentence speaks to a script (issue 42): an
 * approval for a requester with no buyer account names the marketplace's own routes.
 */
function answerWords(answer: { code: string | null; problem: string | null }): string {
  if (answer.code === "buyer_required") {
    return "No offer was made: this requester has no buyer account yet. Folio can make an " +
      "offer once they sign up as a buyer and connect their agent to that account.";
  }
  return answer.problem!;
}
