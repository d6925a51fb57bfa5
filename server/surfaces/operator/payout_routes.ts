/**
 * The operator's payouts (issue 38 part 5; docs/OPERATIONS.md "Running a payout"): the payouts
 * with their holds, review holds placed and released, batches approved, their payout file, and
 * payouts marked paid. Each change is the domain's one write transaction with its audit entry.
 */
import { Hono } from "hono";
import { payeesOf } from "../../../store/payees.ts";
import {
  batchById,
  findPayouts,
  listBatches,
  type PayoutBatch,
  payoutById,
  type PayoutListed,
} from "../../../store/payouts.ts";
import type { AppDeps } from "../../deps.ts";
import {
  approveBatch,
  exportBatch,
  markPaid,
  reviewHold,
} from "../../domain/billing/payout_batches.ts";
import { payoutsDue } from "../../domain/billing/payouts_due.ts";
import { payoutView } from "../../domain/billing/payout_views.ts";
import { monthOf } from "../../platform/clock.ts";
import { notFound } from "../../platform/errors.ts";
import { parseInput } from "../../platform/validate.ts";
import type { OperatorEnv } from "./auth.ts";
import {
  batchInputSchema,
  paidInputSchema,
  payoutQuerySchema,
  releaseSchema,
  reviewHoldSchema,
} from "./payout_schemas.ts";
import { json } from "./body.ts";

const MASK = { iban: "IBAN", us_account: "Account", email: "Email" } as const;

/** The payout routes. */
export function payoutRoutes(deps: AppDeps): Hono<OperatorEnv> {
  const app = new Hono<OperatorEnv>();
  const db = deps.store.db;
  const now = () => deps.clock.now();
  const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

  /** Payouts as the operator sees them: state, amount and holds as of now, payee masked. */
  const viewsOf = async (rows: PayoutListed[]) => {
    const due = new Map(
      (await payoutsDue(db, monthOf(now()))).map((d) => [d.payout.id, d]),
    );
    const payees = new Map(
      (await payeesOf(db, [...new Set(rows.map((r) => r.publisherId))])).map((p) => [
        p.publisherId,
        `${MASK[p.method]} •••• ${p.last4} (${p.country}, ${p.currency})`,
      ]),
    );
    return rows.map((p) => ({
      ...payoutView(p, due.get(p.id) ?? null),
      publisherId: p.publisherId,
      publisherName: p.publisherName,
      reviewHold: p.reviewHold,
      batchId: p.batchId,
      payee: payees.get(p.publisherId) ?? null,
    }));
  };
  const batchOf = async (b: PayoutBatch) => {
    const paid = (await findPayouts(db, { batchId: b.id, stage: "paid" }, {
      limit: 1,
      offset: 0,
    })).total;
    return {
      id: b.id,
      month: b.month,
      payoutCount: b.payoutCount,
      totalUsdMicros: b.totalMicros,
      approvedBy: b.approvedBy,
      createdAt: new Date(b.createdAt).toISOString(),
      exportedAt: b.exportedAt === null ? null : new Date(b.exportedAt).toISOString(),
      paidCount: paid,
      fileUrl: `/api/operator/payout-batches/${b.id}/csv`,
    };
  };
  const listed = async (ids: string[]) =>
    (await Promise.all(ids.map((id) => payoutById(db, id)))).filter((p) => p !== null);
  const oneView = async (id: string) => (await viewsOf(await listed([id])))[0];
  const batchAnswer = async (id: string) => {
    const batch = await batchById(db, id);
    if (!batch) throw notFound(`Payout batch "${id}"`);
    const { payouts } = await findPayouts(db, { batchId: id }, { limit: 10_000, offset: 0 });
    return { batch: await batchOf(batch), payouts: await viewsOf(payouts) };
  };

  app.get("/payouts", async (c) => {
    const q = parseInput(payoutQuerySchema, params(c.req.url));
    const stage = q.state === "paid"
      ? "paid" as const
      : q.state === "approved"
      ? "batched" as const
      : q.state
      ? "unbatched" as const
      : undefined;
    const filter = { month: q.month, publisherId: q.publisherId, batchId: q.batchId, stage };
    if (q.state === "held" || q.state === "due") {
      // Held or due is decided by the holds as of now: filtered after computing them.
      const all = await viewsOf(
        (await findPayouts(db, filter, { limit: 100_000, offset: 0 }))
          .payouts,
      );
      const of = all.filter((p) => p.state === q.state);
      return c.json({
        payouts: of.slice(q.offset, q.offset + q.limit),
        total: of.length,
        offset: q.offset,
        limit: q.limit,
      });
    }
    const page = await findPayouts(db, filter, { limit: q.limit, offset: q.offset });
    return c.json({
      payouts: await viewsOf(page.payouts),
      total: page.total,
      offset: q.offset,
      limit: q.limit,
    });
  });

  app.post("/payouts/:id/hold", json(reviewHoldSchema), async (c) => {
    const p = await reviewHold(db, {
      payoutId: c.req.param("id"),
      reason: c.req.valid("json").reason,
      actor: c.get("operator").actor,
      now: now(),
    });
    return c.json({ payout: await oneView(p.id) });
  });

  app.post("/payouts/:id/release", json(releaseSchema, { empty: true }), async (c) => {
    const p = await reviewHold(db, {
      payoutId: c.req.param("id"),
      reason: null,
      actor: c.get("operator").actor,
      now: now(),
    });
    return c.json({ payout: await oneView(p.id) });
  });

  app.post("/payouts/:id/paid", json(paidInputSchema), async (c) => {
    const body = c.req.valid("json");
    const paid = await markPaid(db, {
      payoutId: c.req.param("id"),
      paidAt: new Date(`${body.paidOn}T00:00:00Z`),
      reference: body.reference,
      actor: c.get("operator").actor,
      now: now(),
      baseUrl: deps.config.baseUrl,
    });
    return c.json({ payouts: await viewsOf(await listed(paid.map((p) => p.id))) });
  });

  app.get("/payout-batches", async (c) => {
    const month = c.req.query("month");
    const batches = await listBatches(db, {
      month: month && /^\d{4}-\d{2}$/.test(month) ? month : undefined,
      limit: 100,
      offset: 0,
    });
    return c.json({ batches: await Promise.all(batches.map(batchOf)) });
  });

  app.post("/payout-batches", json(batchInputSchema), async (c) => {
    const body = c.req.valid("json");
    const { batch } = await approveBatch(db, {
      month: body.month,
      payoutIds: body.payoutIds,
      actor: c.get("operator").actor,
      now: now(),
    });
    return c.json(await batchAnswer(batch.id), 201);
  });

  app.get("/payout-batches/:id", async (c) => c.json(await batchAnswer(c.req.param("id"))));

  app.get("/payout-batches/:id/csv", async (c) => {
    const { batch, csv } = await exportBatch({ db, secret: deps.config.payeeKeySecret }, {
      batchId: c.req.param("id"),
      actor: c.get("operator").actor,
      now: now(),
    });
    c.header("Content-Disposition", `attachment; filename="folio-payouts-${batch.id}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(csv, 200, { "Content-Type": "text/csv; charset=utf-8" });
  });

  app.post("/payout-batches/:id/paid", json(paidInputSchema), async (c) => {
    const body = c.req.valid("json");
    const paid = await markPaid(db, {
      batchId: c.req.param("id"),
      paidAt: new Date(`${body.paidOn}T00:00:00Z`),
      reference: body.reference,
      actor: c.get("operator").actor,
      now: now(),
      baseUrl: deps.config.baseUrl,
    });
    return c.json({ payouts: await viewsOf(await listed(paid.map((p) => p.id))) });
  });

  return app;
}
