/**
 * /operator/suspensions: the suspensions (GET /api/operator/suspensions), suspending a buyer by
 * hand (POST /suspensions) and lifting one (POST /suspensions/<buyerId>/lift), each with a reason.
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { SuspensionsPage } from "../../../ui/operator/invoices.tsx";
import { suspensionPageSchema } from "../../surfaces/operator/invoices_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { type FieldMap, formProblem } from "../kit/field_errors.ts";
import { must, pageStatus } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

const LIMIT = 50;
const NOTICES = { suspended: "Buyer suspended.", lifted: "Suspension lifted." };
const FIELDS: FieldMap = {
  buyerId: { name: "buyerId", label: "Buyer id" },
  reason: { name: "reason", label: "Reason" },
};

/** The suspensions pages. */
export function suspensionsPages(api: ApiFetch): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();
  const render = async (
    c: Context<OperatorPagesEnv>,
    problem: string | null = null,
    status = 200,
  ) => {
    const params = new URL(c.req.url).searchParams;
    const openOnly = params.get("open") === "true";
    const offset = Math.max(0, Number(params.get("offset")) || 0);
    const q = new URLSearchParams({
      ...(openOnly ? { open: "true" } : {}),
      limit: String(LIMIT),
      offset: String(offset),
    });
    const list = must(
      await callApi(c, api, `/api/operator/suspensions?${q}`, suspensionPageSchema),
    );
    return c.html(
      renderPage(SuspensionsPage({
        who: c.get("who"),
        list,
        openOnly,
        offset,
        limit: LIMIT,
        notice: noticeOf(c, NOTICES),
        problem,
      })),
      pageStatus(status),
    );
  };
  app.get("/suspensions", (c) => render(c));

  app.post(
    "/suspensions",
    formLimit,
    (c) => suspendOrLift(c, "/api/operator/suspensions", ["buyerId", "reason"], "suspended"),
  );
  app.post("/suspensions/:buyerId/lift", formLimit, async (c) => {
    const buyerId = encodeURIComponent(c.req.param("buyerId"));
    return await suspendOrLift(
      c,
      `/api/operator/suspensions/${buyerId}/lift`,
      ["reason"],
      "lifted",
    );
  });

  async function suspendOrLift(
    c: Context<OperatorPagesEnv>,
    path: string,
    names: string[],
    code: string,
  ) {
    const f = await readForm(c);
    const answer = await send(c, api, f, path, {
      method: "POST",
      json: Object.fromEntries(names.map((n) => [n, field(f, n)])),
    });
    if (!answer.ok) {
      const p = formProblem(answer, FIELDS);
      return render(c, p.top ?? p.field!.message, answer.status);
    }
    return doneRedirect(c, "/operator/suspensions", code);
  }
  return app;
}
