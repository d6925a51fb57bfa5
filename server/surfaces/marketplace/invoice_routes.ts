/**
 * The buyer's invoices (issue 38): GET /invoices (balance due, credit, suspension, every invoice
 * with its state, due date and payments), GET /invoices/{number}, and POST
 * /invoices/{number}/checkout (a Stripe Checkout link for what is left, with Stripe configured).
 */
import { Hono } from "hono";
import { buyerReceivables, invoicesWire } from "../../domain/billing/invoice_view.ts";
import { invoiceCheckout } from "../../domain/billing/invoice_checkout.ts";
import { parseInvoiceNumber, receivablesSettings } from "../../domain/billing/invoice_terms.ts";
import { createStripe } from "../../domain/billing/stripe.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { AppError } from "../../platform/errors.ts";
import { getInvoice } from "../../../store/receivables.ts";
import { requireBuyer } from "./auth.ts";

/** Invoice routes. */
export function invoiceRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);
  const processor = deps.config.stripe ? createStripe(deps.config.stripe, deps.fetcher) : null;
  const options = () => ({ now: deps.clock.now(), settings: receivablesSettings(deps.config) });

  app.get("/invoices", auth, async (c) => {
    return c.json(await buyerReceivables(db, c.get("buyer").id, options()));
  });

  app.get("/invoices/:number", auth, async (c) => {
    const seq = seqOf(c.req.param("number"));
    const row = await getInvoice(db, seq);
    if (!row || row.buyerId !== c.get("buyer").id) throw noInvoice(c.req.param("number"));
    const [invoice] = await invoicesWire(db, [row], options());
    return c.json(invoice);
  });

  app.post("/invoices/:number/checkout", auth, async (c) => {
    const buyer = c.get("buyer");
    const session = await invoiceCheckout(
      { db, processor, settings: receivablesSettings(deps.config) },
      { seq: seqOf(c.req.param("number")), buyer, now: deps.clock.now() },
    );
    return c.json({ url: session.url, sessionId: session.sessionId });
  });
  return app;
}

function seqOf(number: string): number {
  const seq = parseInvoiceNumber(number);
  if (seq === null) throw noInvoice(number);
  return seq;
}

function noInvoice(number: string): AppError {
  return new AppError(404, "not_found", `No invoice ${number}`);
}
