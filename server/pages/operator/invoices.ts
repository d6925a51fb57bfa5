/**
 * /operator/invoices: the invoices (GET /api/operator/invoices, filters in the query string),
 * one invoice (GET /invoices/<number>), and its forms: record a payment, void, mark uncollectible
 * (POST /invoices/<number>/payments, /void, /uncollectible). The payment form carries an
 * idempotency key made when the page was shown, so sending it twice records one payment.
 */
import { type Context, Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import {
  InvoiceDetailPage,
  type InvoiceFilters,
  InvoicesPage,
} from "../../../ui/operator/invoices.tsx";
import type { Clock } from "../../platform/clock.ts";
import { centsToMicros } from "../../platform/money.ts";
import { randomBase32 } from "../../../store/ids.ts";
import {
  invoicePageSchema,
  operatorInvoiceSchema,
} from "../../surfaces/operator/invoices_schemas.ts";
import { type ApiFetch, callApi } from "../kit/api.ts";
import { cents, doneRedirect, field, formLimit, noticeOf, readForm, send } from "../kit/forms.ts";
import { type FieldMap, formProblem } from "../kit/field_errors.ts";
import { must, pageStatus } from "../kit/pages.ts";
import type { OperatorPagesEnv } from "./site.ts";

const LIMIT = 50;
const NOTICES = {
  paid: "Payment recorded.",
  voided: "Invoice voided.",
  written_off: "Invoice marked uncollectible.",
};
const FIELDS: FieldMap = {
  amountUsdMicros: { name: "amount", label: "Amount", plain: "write an amount such as 12.50" },
  paidOn: { name: "paidOn", label: "Received on" },
  reason: { name: "reason", label: "Reason" },
};

/** The invoices pages. */
export function invoicesPages(api: ApiFetch, clock: Clock): Hono<OperatorPagesEnv> {
  const app = new Hono<OperatorPagesEnv>();

  app.get("/invoices", async (c) => {
    const params = new URL(c.req.url).searchParams;
    const filters: InvoiceFilters = {};
    for (const k of ["state", "buyerId", "month"] as const) {
      const v = params.get(k)?.trim();
      if (v) filters[k] = v;
    }
    const offset = Math.max(0, Number(params.get("offset")) || 0);
    const q = new URLSearchParams({ ...filters, limit: String(LIMIT), offset: String(offset) });
    const answer = await callApi(c, api, `/api/operator/invoices?${q}`, invoicePageSchema);
    if (!answer.ok && answer.status !== 400) must(answer);
    return c.html(
      renderPage(InvoicesPage({
        who: c.get("who"),
        list: answer.ok ? answer.body : { invoices: [], nextOffset: null },
        filters,
        offset,
        limit: LIMIT,
        problem: answer.ok ? null : formProblem(answer, {}).top,
      })),
      answer.ok ? 200 : 400,
    );
  });

  const detail = async (
    c: Context<OperatorPagesEnv>,
    problem: string | null = null,
    status = 200,
  ) => {
    const number = encodeURIComponent(c.req.param("number")!);
    const invoice = must(
      await callApi(c, api, `/api/operator/invoices/${number}`, operatorInvoiceSchema),
    );
    return c.html(
      renderPage(InvoiceDetailPage({
        who: c.get("who"),
        invoice,
        paymentKey: `page-${randomBase32(20)}`,
        today: clock.now().toISOString().slice(0, 10),
        notice: noticeOf(c, NOTICES),
        problem,
      })),
      pageStatus(status),
    );
  };
  app.get("/invoices/:number", (c) => detail(c));

  const act = (
    path: string,
    done: keyof typeof NOTICES,
    body: (f: Record<string, string | string[]>) => unknown,
  ) =>
    app.post(`/invoices/:number/${path}`, formLimit, async (c) => {
      const f = await readForm(c);
      const number = encodeURIComponent(c.req.param("number"));
      const answer = await send(c, api, f, `/api/operator/invoices/${number}/${path}`, {
        method: "POST",
        json: body(f),
      });
      if (!answer.ok) {
        const p = formProblem(answer, FIELDS);
        return detail(c, p.top ?? p.field!.message, answer.status);
      }
      return doneRedirect(c, `/operator/invoices/${c.req.param("number")}`, done);
    });

  act("payments", "paid", (f) => {
    const amount = cents(f, "amount", true);
    return {
      // A negative or zero amount goes as it is: the API says what is wrong with it.
      amountUsdMicros: typeof amount === "number" && amount > 0
        ? centsToMicros(amount)
        : amount ?? null,
      paidOn: field(f, "paidOn"),
      method: field(f, "method"),
      reference: field(f, "reference"),
      idempotencyKey: field(f, "idempotencyKey"),
    };
  });
  act("void", "voided", (f) => ({ reason: field(f, "reason") }));
  act("uncollectible", "written_off", (f) => ({ reason: field(f, "reason") }));
  return app;
}
