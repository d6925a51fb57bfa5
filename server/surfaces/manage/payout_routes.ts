/**
 * A publisher's payout statements and charge items (issue 29 item 5): GET /api/publisher/payouts
 * (?month=, default the current one) and its CSV, GET /api/publisher/items and its CSV. The items
 * are the ledger rows of its content, without the buyer's idempotency key (the buyer's own).
 */
import { Hono } from "hono";
import type { AppDeps } from "../../deps.ts";
import { itemsCsv, itemsPage } from "../../domain/billing/item_pages.ts";
import { parseItemQuery } from "../../domain/billing/items.ts";
import { isMonth } from "../../domain/billing/months.ts";
import { payoutStatement } from "../../domain/billing/payout_statement.ts";
import { monthOf } from "../../platform/clock.ts";
import { toCsv } from "../../platform/csv.ts";
import { invalid } from "../../platform/errors.ts";
import type { ManageEnv } from "./auth.ts";
import { json } from "./body.ts";
import { payeeInputSchema } from "./payee_schemas.ts";
import { payeeView, savePayee } from "../../domain/billing/payees.ts";
import { publisherPayouts } from "../../domain/billing/payout_views.ts";

/** The payout and items routes. */
export function payoutRoutes(deps: AppDeps): Hono<ManageEnv> {
  const app = new Hono<ManageEnv>();
  const db = deps.store.db;
  const monthOfQuery = (raw: string | undefined) => {
    const month = raw ?? monthOf(deps.clock.now());
    if (!isMonth(month)) throw invalid("month", "must be a month written YYYY-MM");
    return month;
  };

  app.get("/payouts", async (c) => {
    const month = monthOfQuery(c.req.query("month"));
    return c.json(
      await payoutStatement(db, c.get("publisher").id, month, { now: deps.clock.now() }),
    );
  });

  const payeeDeps = () => ({
    db,
    secret: deps.config.payeeKeySecret,
    now: deps.clock.now(),
  });
  const encryptedWith = () => deps.config.payeeKeySecret ? "operator_secret" : "store_key";

  // Where payouts go: masked in every answer; a change is audited (without the numbers).
  app.get("/payee", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({
      payee: await payeeView(payeeDeps(), c.get("publisher").id),
      encryptedWith: encryptedWith(),
    });
  });
  app.put("/payee", json(payeeInputSchema), async (c) => {
    const p = c.get("publisher");
    const actor = { kind: "publisher" as const, id: p.id };
    const payee = await savePayee(payeeDeps(), p.id, c.req.valid("json"), actor);
    c.header("Cache-Control", "no-store");
    return c.json({ payee, encryptedWith: encryptedWith() });
  });

  app.get("/payouts/history", async (c) => {
    const payouts = await publisherPayouts(db, c.get("publisher").id, {
      upTo: monthOf(deps.clock.now()),
      limit: 36,
    });
    return c.json({ payouts });
  });

  app.get("/payouts/csv", async (c) => {
    const month = monthOfQuery(c.req.query("month"));
    const s = await payoutStatement(db, c.get("publisher").id, month, { now: deps.clock.now() });
    const rows: (string | number)[][] = [[
      "month",
      "line",
      "description",
      "count",
      "gross_usd_micros",
      "platform_fees_usd_micros",
      "net_usd_micros",
    ]];
    for (const l of s.lines) {
      rows.push([
        month,
        l.kind,
        l.description,
        l.count,
        l.grossUsdMicros,
        l.platformFeesUsdMicros,
        l.netUsdMicros,
      ]);
    }
    const t = s.totals;
    rows.push([
      month,
      "total",
      `Payout ${s.payout.state}`,
      t.count,
      t.grossUsdMicros,
      t.platformFeesUsdMicros,
      t.netUsdMicros,
    ]);
    c.header("Content-Disposition", `attachment; filename="folio-payout-${month}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(toCsv(rows), 200, { "Content-Type": "text/csv; charset=utf-8" });
  });

  app.get("/items", async (c) => {
    const q = parseItemQuery(c.req.query());
    const page = await itemsPage(db, { ...q.filter, publisherId: c.get("publisher").id }, q.limit);
    return c.json({
      ...page,
      items: page.items.map((i) => ({ ...i, idempotencyKey: null })),
    });
  });

  app.get("/items/csv", async (c) => {
    const q = parseItemQuery(c.req.query());
    const csv = await itemsCsv(db, {
      ...q.filter,
      after: undefined,
      publisherId: c.get("publisher").id,
    }, { withKeys: false });
    c.header("Content-Disposition", 'attachment; filename="folio-items.csv"');
    c.header("Cache-Control", "no-store");
    return c.body(csv, 200, { "Content-Type": "text/csv; charset=utf-8" });
  });
  return app;
}
