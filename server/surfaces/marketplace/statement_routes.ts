/**
 * Usage and statements: GET /api/marketplace/usage, /statements (the months to choose from, for
 * the buyer portal: issue 12 part 5), /statement, /statement/csv and /statement/invoice.
 */
import { Hono } from "hono";
import { renderPage } from "../../../ui/layout.tsx";
import { InvoicePage } from "../../../ui/invoice.tsx";
import { isMonth } from "../../domain/billing/months.ts";
import { invoiceOf } from "../../domain/billing/invoice.ts";
import { receivablesSettings } from "../../domain/billing/invoice_terms.ts";
import {
  buildStatement,
  SETTLEMENT_NOTE,
  type Statement,
  statementCsv,
  type StatementWire,
} from "../../domain/billing/statement.ts";
import { buyerUsage, parseDays } from "../../domain/billing/usage.ts";
import { monthOf } from "../../platform/clock.ts";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { invalid } from "../../platform/errors.ts";
import { microsToWholeCents } from "../../platform/money.ts";
import { CSP, pageHeaders } from "../../platform/security_headers.ts";
import { statementMonths } from "../../../store/statements.ts";
import { requireBuyer } from "./auth.ts";
import { MARKETPLACE } from "./schemas.ts";

/** Usage and statement routes. */
export function statementRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);

  app.get("/usage", auth, async (c) => {
    const days = parseDays(c.req.query("days"));
    return c.json(await buyerUsage(db, c.get("buyer").id, { days, now: deps.clock.now() }));
  });

  const statementFor = (month: string | undefined, buyerId: string) => {
    const m = month ?? monthOf(deps.clock.now());
    if (!isMonth(m)) throw invalid("month", "must be a month written YYYY-MM");
    return buildStatement(db, buyerId, m, { now: deps.clock.now() });
  };

  // The current month always, then every earlier month with something on its statement.
  app.get("/statements", auth, async (c) => {
    const current = monthOf(deps.clock.now());
    const months = await statementMonths(db, c.get("buyer").id);
    if (!months.some((m) => m.month === current)) {
      months.unshift({ month: current, closed: false, totalMicros: 0 });
    }
    return c.json({
      months: months.map((m) => ({
        month: m.month,
        state: m.closed ? "closed" : "open",
        totalUsdCents: microsToWholeCents(m.totalMicros),
      })),
    });
  });

  app.get("/statement", auth, async (c) => {
    const s = await statementFor(c.req.query("month"), c.get("buyer").id);
    return c.json(present(s));
  });

  app.get("/statement/csv", auth, async (c) => {
    const s = await statementFor(c.req.query("month"), c.get("buyer").id);
    c.header("Content-Disposition", `attachment; filename="folio-statement-${s.month}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(statementCsv(s), 200, { "Content-Type": "text/csv; charset=utf-8" });
  });

  // The one HTML answer here (a page to print), so it carries the page headers.
  app.get("/statement/invoice", pageHeaders(deps.config, CSP.document), auth, async (c) => {
    const buyer = c.get("buyer");
    const s = await statementFor(c.req.query("month"), buyer.id);
    const invoice = await invoiceOf(db, s, {
      buyer: { id: buyer.id, name: buyer.name, email: buyer.email },
      seller: deps.config.seller,
    }, { now: deps.clock.now(), settings: receivablesSettings(deps.config) });
    // From the portal, the way back is its statement page; a script's page has no portal to go to.
    const back = c.get("buyerSession") ? `/buyer/statements/${s.month}` : undefined;
    c.header("Cache-Control", "no-store");
    // The portal pays by card from its own page (a form with CSRF); this page has no forms.
    const pay = back && deps.config.stripe ? `/buyer/invoices/${invoice.number}/pay` : undefined;
    return c.html(renderPage(InvoicePage({ invoice, backHref: back, payHref: pay })));
  });
  return app;
}

/** The statement's wire form: cents to show, micros to check, a drill-down per line. */
function present(s: Statement): StatementWire {
  const { totalMicros, lines, ...rest } = s;
  return {
    ...rest,
    lines: lines.map(({ priceMicros, feeMicros, amountMicros, itemKind, ...l }) => ({
      ...l,
      priceUsdMicros: priceMicros,
      feeUsdMicros: feeMicros,
      amountUsdMicros: amountMicros,
      itemsUrl: `${MARKETPLACE}/items?${new URLSearchParams({
        statementMonth: s.month,
        publisherId: l.publisherId,
        usageMonth: l.usageMonth,
        ...(itemKind ?? (l.kind === "adjustment" ? undefined : l.kind)
          ? { kind: itemKind ?? l.kind }
          : {}),
        prepaid: String(l.prepaid),
      })}`,
    })),
    totalUsdMicros: totalMicros,
    settlementNote: SETTLEMENT_NOTE,
  };
}
