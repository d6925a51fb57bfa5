/**
 * /buyer/invoices/<number>/pay: confirm paying an invoice by card, then POST to the API's
 * checkout (POST /api/marketplace/invoices/<number>/checkout) and go to Stripe's page.
 */
import { type Context, Hono } from "hono";
import { PayInvoicePage } from "../../../ui/buyer/invoices.tsx";
import { renderPage } from "../../../ui/layout.tsx";
import {
  invoiceCheckoutSchema,
  invoiceSchema,
} from "../../surfaces/marketplace/invoice_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { formLimit, readForm, send } from "../kit/forms.ts";
import { formProblem } from "../kit/field_errors.ts";
import { must, pageStatus } from "../kit/pages.ts";
import { type BuyerEnv, market } from "./site.ts";

/** The pay-by-card pages. */
export function invoicePages(api: ApiFetch): Hono<BuyerEnv> {
  const app = new Hono<BuyerEnv>();
  const path = (c: Context<BuyerEnv>) =>
    market(`/invoices/${encodeURIComponent(c.req.param("number")!)}`);
  const render = async (c: Context<BuyerEnv>, problem: string | null = null, status = 200) => {
    const invoice = must(await callApi(c, api, path(c), invoiceSchema));
    return c.html(
      renderPage(PayInvoicePage({ who: c.get("who"), invoice, problem })),
      pageStatus(status),
    );
  };

  app.get("/invoices/:number/pay", (c) => render(c));

  app.post("/invoices/:number/pay", formLimit, async (c) => {
    const f = await readForm(c);
    const answer = await send(
      c,
      api,
      f,
      `${path(c)}/checkout`,
      { method: "POST" },
      invoiceCheckoutSchema,
    );
    if (!answer.ok) {
      return render(c, formProblem(answer, {}).top ?? "The payment could not start", answer.status);
    }
    return c.redirect(answer.body.url, 303);
  });
  return app;
}
