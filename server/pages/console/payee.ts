/**
 * /publisher/payouts/payee: the payee details page (GET /api/publisher/payee) and its form
 * (PUT /api/publisher/payee, in process, with the form's CSRF token).
 */
import { type Context, Hono } from "hono";
import { PayeePage } from "../../../ui/console/payee.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import { payeeAnswerSchema } from "../../surfaces/manage/payee_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { type FieldMap, formProblem } from "../kit/field_errors.ts";
import { doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { must } from "../kit/pages.ts";
import type { ConsoleEnv } from "../kit/session.ts";

const FIELDS: FieldMap = {
  legalName: { name: "legalName", label: "Legal name" },
  country: { name: "country", label: "Country" },
  currency: { name: "currency", label: "Currency" },
  method: { name: "method", label: "How to pay you", plain: "choose one of the three ways" },
  iban: { name: "iban", label: "IBAN" },
  bic: { name: "bic", label: "BIC" },
  accountNumber: { name: "accountNumber", label: "Account number" },
  routingNumber: { name: "routingNumber", label: "Routing number" },
  email: { name: "email", label: "Email" },
};

const NOTICES = { saved: "Saved. Your next payouts go there." };

/** The payee page and its form. */
export function payeePages(api: ApiFetch): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const current = async (c: Context<ConsoleEnv>) =>
    must(await callApi(c, api, "/api/publisher/payee", payeeAnswerSchema));

  app.get("/payouts/payee", async (c) =>
    c.html(renderPage(PayeePage({
      who: c.get("who"),
      answer: await current(c),
      notice: noticeOf(c, NOTICES),
    }))));

  app.post("/payouts/payee", formLimit, async (c) => {
    const fields = await readForm(c);
    const method = field(fields, "method");
    const common = {
      legalName: field(fields, "legalName"),
      country: field(fields, "country"),
      currency: field(fields, "currency"),
      method,
    };
    const body = method === "iban"
      ? { ...common, iban: field(fields, "iban"), bic: field(fields, "bic").trim() || null }
      : method === "us_account"
      ? {
        ...common,
        accountNumber: field(fields, "accountNumber"),
        routingNumber: field(fields, "routingNumber"),
        accountType: field(fields, "accountType"),
      }
      : { ...common, provider: field(fields, "provider"), email: field(fields, "email") };
    const saved = await send(c, api, fields, "/api/publisher/payee", { method: "PUT", json: body });
    if (saved.ok) return doneRedirect(c, "/publisher/payouts/payee", "saved");
    const problem = formProblem(saved, FIELDS);
    const typed = Object.fromEntries(
      Object.entries(fields).filter(([k]) => k !== "_csrf").map(([k, v]) => [k, String(v)]),
    );
    return c.html(
      renderPage(PayeePage({
        who: c.get("who"),
        answer: await current(c),
        problem: problem.top,
        fieldProblem: problem.field,
        typed,
      })),
      saved.status === 400 ? 400 : 409,
    );
  });
  return app;
}
