/**
 * The disputes desk both the publisher's console and the operator's pages show, and its decision
 * form as the API's decision body.
 */
import { type Context, type Env, Hono } from "hono";
import type { z } from "zod";
import type { FailedDispute } from "../../../ui/console/disputes.tsx";
import { usdToMicros } from "../../platform/money.ts";
import { type ApiFetch, callApi } from "./api.ts";
import {
  doneRedirect,
  type Fields,
  formLimit,
  noticeOf,
  numeric,
  optional,
  readForm,
  send,
} from "./forms.ts";
import { must, pageStatus, segment } from "./pages.ts";

/** accept: an amount in USD (empty: in full) and an optional note; refuse: the reason. */
export function decisionOf(action: "accept" | "refuse", f: Fields): Record<string, unknown> {
  if (action === "refuse") return { decision: "refuse", reason: optional(f, "reason") ?? "" };
  const amount = numeric(f, "amountUsd");
  return {
    decision: "accept",
    // A number the API checks against the disputed total; text goes on as it was, for the
    // API to name the problem.
    amountUsdMicros: typeof amount === "number" && amount >= 0 && amount < 1e9
      ? usdToMicros(amount)
      : amount,
    reason: optional(f, "reason"),
  };
}

/** What a disputes desk shows: one page of disputes, the state filter and the last outcome. */
export interface DisputeDeskView<P> {
  page: P;
  state: string | null;
  notice: string | null;
  problem: string | null;
  failed: FailedDispute | null;
}

/** One disputes desk (the publisher's console, the operator's): where it reads and what it shows. */
export interface DisputeDesk<E extends Env, S extends z.ZodType> {
  /** The API's disputes collection, e.g. `/api/publisher/disputes`. */
  api: string;
  /** The page's own address, e.g. `/publisher/disputes`. */
  pages: string;
  schema: S;
  notices: Record<string, string>;
  render: (c: Context<E>, view: DisputeDeskView<z.output<S>>) => string;
}

/**
 * GET `/disputes` (by state, paged; a refused filter shows the first page with its problem) and the
 * accept and refuse forms, each a POST to the API's `<id>/decision`, back on the page when refused.
 */
export function disputeDeskPages<E extends Env, S extends z.ZodType>(
  api: ApiFetch,
  desk: DisputeDesk<E, S>,
): Hono<E> {
  const app = new Hono<E>();
  const render = async (c: Context<E>, failed: FailedDispute | null, status = 200) => {
    const query = new URLSearchParams();
    const state = c.req.query("state") || null;
    if (state) query.set("state", state);
    const cursor = c.req.query("cursor");
    if (cursor) query.set("cursor", cursor);
    const answer = await callApi(c, api, `${desk.api}?${query}`, desk.schema);
    const refused = answer.status === 400 ? answer.problem : null;
    const page = refused ? must(await callApi(c, api, desk.api, desk.schema)) : must(answer);
    return c.html(
      desk.render(c, {
        page: page as z.output<S>,
        state: refused ? null : state,
        notice: noticeOf(c, desk.notices),
        problem: refused,
        failed,
      }),
      pageStatus(refused ? 400 : status),
    );
  };

  app.get("/disputes", (c) => render(c, null));

  for (const action of ["accept", "refuse"] as const) {
    app.post(`/disputes/:id/${action}`, formLimit, async (c: Context<E>) => {
      const id = c.req.param("id")!;
      const f = await readForm(c);
      const answer = await send(c, api, f, `${desk.api}/${segment(id)}/decision`, {
        method: "POST",
        json: decisionOf(action, f),
      });
      if (!answer.ok) return render(c, { id, problem: answer.problem! }, answer.status);
      return doneRedirect(c, `${desk.pages}#${id}`, action);
    });
  }
  return app;
}
