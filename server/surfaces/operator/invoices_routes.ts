/**
 * The operator's invoices and suspensions (issue 38 parts 2 and 3): list invoices by state, buyer
 * and month, paged; one invoice; record a payment (idempotent by key); void; mark uncollectible;
 * list suspensions; suspend a buyer by hand; lift. Every change is audited by the domain in its
 * own transaction (server/domain/billing/receivables.ts, suspensions.ts).
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { invoicesWire, type InvoiceWire } from "../../domain/billing/invoice_view.ts";
import { parseInvoiceNumber, receivablesSettings } from "../../domain/billing/invoice_terms.ts";
import { closeUnpaidInvoice, recordPayment } from "../../domain/billing/receivables.ts";
import { liftByHand, suspendByHand, type Suspension } from "../../domain/billing/suspensions.ts";
import { AppError } from "../../platform/errors.ts";
import { parseInput } from "../../platform/validate.ts";
import {
  buyerNames,
  getInvoice,
  type InvoiceRow,
  listInvoices,
} from "../../../store/receivables.ts";
import { listSuspensions } from "../../../store/suspensions.ts";
import type { Executor } from "../../../store/db.ts";
import type { OperatorEnv } from "./auth.ts";
import {
  invoiceQuerySchema,
  liftInputSchema,
  paymentInputSchema,
  reasonSchema,
  suspendInputSchema,
  suspensionQuerySchema,
} from "./invoices_schemas.ts";
import { json } from "./body.ts";

/** The invoices and suspensions routes. */
export function invoicesRoutes(deps: AppDeps): Hono<OperatorEnv> {
  const app = new Hono<OperatorEnv>();
  const db = deps.store.db;
  const options = () => ({ now: deps.clock.now(), settings: receivablesSettings(deps.config) });
  const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

  const withNames = async (
    rows: InvoiceRow[],
  ): Promise<(InvoiceWire & { buyerName: string })[]> => {
    const [wire, names] = await Promise.all([
      invoicesWire(db, rows, options()),
      buyerNames(db, rows.map((r) => r.buyerId)),
    ]);
    return wire.map((w) => ({ ...w, buyerName: names.get(w.buyerId) ?? "" }));
  };
  const one = async (tx: Executor, seq: number) => {
    const row = await getInvoice(tx, seq);
    if (!row) throw new AppError(404, "not_found", "No such invoice");
    return (await withNames([row]))[0];
  };

  app.get("/invoices", async (c) => {
    const q = parseInput(invoiceQuerySchema, params(c.req.url));
    const overdue = q.state === "overdue";
    const rows = await listInvoices(db, {
      state: q.state === "overdue" ? undefined : q.state,
      buyerId: q.buyerId,
      month: q.month,
      overdueAt: overdue ? deps.clock.now().getTime() : undefined,
    }, { limit: q.limit + 1, offset: q.offset });
    return c.json({
      invoices: await withNames(rows.slice(0, q.limit)),
      nextOffset: rows.length > q.limit ? q.offset + q.limit : null,
    });
  });

  app.get("/invoices/:number", async (c) => c.json(await one(db, seqOf(c.req.param("number")))));

  app.post("/invoices/:number/payments", json(paymentInputSchema), async (c) => {
    const input = c.req.valid("json");
    const seq = seqOf(c.req.param("number"));
    const done = await recordPayment(db, {
      seq,
      amountMicros: input.amountUsdMicros,
      paidOn: input.paidOn,
      method: input.method,
      reference: input.reference,
      idempotencyKey: `operator:${input.idempotencyKey}`,
      actor: c.get("operator").actor,
    }, options());
    return c.json({
      invoice: await one(db, seq),
      replayed: done.replayed,
      creditedUsdMicros: done.creditedMicros,
    }, done.replayed ? 200 : 201);
  });

  for (const [path, state] of [["void", "void"], ["uncollectible", "uncollectible"]] as const) {
    app.post(`/invoices/:number/${path}`, json(reasonSchema), async (c) => {
      const seq = seqOf(c.req.param("number"));
      await closeUnpaidInvoice(db, {
        seq,
        state,
        reason: c.req.valid("json").reason,
        actor: c.get("operator").actor,
      }, options());
      return c.json(await one(db, seq));
    });
  }

  app.get("/suspensions", async (c) => {
    const q = parseInput(suspensionQuerySchema, params(c.req.url));
    const rows = await listSuspensions(db, {
      open: q.open === "true" ? true : undefined,
      buyerId: q.buyerId,
    }, { limit: q.limit + 1, offset: q.offset });
    return c.json({
      suspensions: rows.slice(0, q.limit).map(({ url: _url, ...s }) => ({
        ...s,
        since: new Date(s.since).toISOString(),
        liftedAt: s.liftedAt === null ? null : new Date(s.liftedAt).toISOString(),
      })),
      nextOffset: rows.length > q.limit ? q.offset + q.limit : null,
    });
  });

  app.post("/suspensions", json(suspendInputSchema), async (c) => {
    const input = c.req.valid("json");
    const { after } = await suspendByHand(db, {
      buyerId: input.buyerId,
      note: input.reason,
      actor: c.get("operator").actor,
    }, options());
    return c.json(stateOf(input.buyerId, after), 201);
  });

  app.post("/suspensions/:buyerId/lift", json(liftInputSchema), async (c) => {
    const buyerId = c.req.param("buyerId");
    await liftByHand(db, {
      buyerId,
      note: c.req.valid("json").reason,
      actor: c.get("operator").actor,
    }, options());
    return c.json(stateOf(buyerId, null));
  });
  return app;
}

function seqOf(number: string): number {
  const seq = parseInvoiceNumber(number);
  if (seq === null) throw new AppError(404, "not_found", `No invoice ${number}`);
  return seq;
}

function stateOf(buyerId: string, s: Suspension | null) {
  return {
    buyerId,
    suspended: s !== null,
    reason: s?.reason ?? null,
    invoiceNumber: s?.invoiceNumber ?? null,
    note: s?.note ?? null,
  };
}
