/**
 * /buyer/budgets: GET /api/marketplace/budgets (and the catalog, to offer every publisher), and the
 * budget forms, each a PUT /api/marketplace/budgets of one budget: `{publisherId?, monthlyUsdCents}`
 * in whole cents, null to remove it.
 */
import { type Context, Hono } from "hono";
import { BudgetsPage, type FailedBudget } from "../../../ui/buyer/budgets.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { budgetsSchema, catalogSchema } from "../../surfaces/marketplace/schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import {
  cents,
  doneRedirect,
  field,
  formLimit,
  noticeOf,
  optional,
  readForm,
  send,
} from "../kit/forms.ts";
import { must, pageStatus } from "../kit/pages.ts";
import { type FieldMap, formProblem } from "../kit/field_errors.ts";
import { type BuyerEnv, market } from "./site.ts";

const NOTICES: Record<string, string> = {
  saved: "Budget saved: it applies to the next read.",
  removed: "Budget removed.",
};

/** The budget API's input and the forms' amount field (each form shows its own refusal). */
const FIELDS: FieldMap = {
  monthlyUsdCents: {
    name: "monthlyUsd",
    label: "Monthly budget (USD)",
    plain: "enter an amount in dollars, such as 50 or 49.99",
    cents: true,
  },
};

/** The budgets page and its forms. */
export function budgetsPages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const render = async (c: Context<BuyerEnv>, failed: FailedBudget | null = null, status = 200) => {
    const [report, catalog] = await Promise.all([
      callApi(c, api, market("/budgets"), budgetsSchema).then(must),
      callApi(c, api, market("/catalog"), catalogSchema).then(must),
    ]);
    return c.html(
      renderPage(BudgetsPage({
        who: c.get("who"),
        report,
        publishers: catalog.publishers.map((p) => ({ publisherId: p.publisherId, name: p.name })),
        notice: noticeOf(c, NOTICES),
        failed,
      })),
      pageStatus(status),
    );
  };

  app.get("/budgets", (c) => render(c));

  app.post("/budgets", formLimit, async (c) => {
    const f = await readForm(c);
    const publisherId = optional(f, "publisherId") ?? null;
    const remove = field(f, "action") === "remove" || field(f, "monthlyUsd").trim() === "";
    // The API takes whole cents; dollars typed with more places are rounded to the cent.
    const monthlyUsdCents = remove ? null : cents(f, "monthlyUsd", true);
    const saved = await send(c, api, f, market("/budgets"), {
      method: "PUT",
      json: { ...(publisherId ? { publisherId } : {}), monthlyUsdCents },
    });
    if (!saved.ok) {
      return render(c, {
        publisherId,
        problem: ((p) => p.field?.message ?? p.top!)(formProblem(saved, FIELDS)),
        typed: field(f, "monthlyUsd"),
      }, saved.status);
    }
    return doneRedirect(c, "/buyer/budgets", remove ? "removed" : "saved");
  });
  return app;
}
