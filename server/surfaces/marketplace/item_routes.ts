/**
 * A buyer's charge items (issue 29 item 5): GET /api/marketplace/items (paged, filtered),
 * /items/csv (every item the filters match) and /items/<id> (one item and its signed receipt).
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { itemsCsv, itemsPage } from "../../domain/billing/item_pages.ts";
import { itemWire, parseItemQuery } from "../../domain/billing/items.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { json } from "./body.ts";
import { receiptCheckSchema } from "./item_schemas.ts";
import { getChargeItem } from "../../../store/charge_items.ts";
import { requireBuyer } from "./auth.ts";

/** The items routes. */
export function itemRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.store.db;
  const auth = requireBuyer(deps);

  app.get("/items", auth, async (c) => {
    const q = parseItemQuery(c.req.query());
    return c.json(await itemsPage(db, { ...q.filter, buyerId: c.get("buyer").id }, q.limit));
  });

  app.get("/items/csv", auth, async (c) => {
    const q = parseItemQuery(c.req.query());
    const csv = await itemsCsv(db, { ...q.filter, after: undefined, buyerId: c.get("buyer").id });
    c.header("Content-Disposition", 'attachment; filename="folio-items.csv"');
    c.header("Cache-Control", "no-store");
    return c.body(csv, 200, { "Content-Type": "text/csv; charset=utf-8" });
  });

  // Anyone may ask whether Folio signed a receipt, and whether the ledger still holds its charge
  // as signed: a forged or altered receipt is a 400 naming what failed.
  app.post("/receipts/verify", json(receiptCheckSchema), async (c) => {
    const { receipt } = c.req.valid("json");
    const verified = await deps.receipts.verify(receipt);
    if (!verified) {
      throw new AppError(
        400,
        "invalid_receipt",
        "receipt: the signature does not verify against Folio's published keys (/.well-known/jwks.json): the receipt is forged, altered or not Folio's",
        {},
        "receipt",
      );
    }
    const { claims, kid } = verified;
    const row = await getChargeItem(db, claims.sub, claims.charge.id);
    const ledger = row ? itemWire(row) : null;
    return c.json({
      valid: true as const,
      kid,
      receiptId: claims.jti,
      buyerId: claims.sub,
      charge: claims.charge,
      matchesLedger: ledger !== null &&
        ledger.amountUsdMicros === claims.charge.amountUsdMicros &&
        ledger.priceUsdMicros === claims.charge.priceUsdMicros &&
        ledger.feeUsdMicros === claims.charge.feeUsdMicros &&
        ledger.statementMonth === claims.charge.statementMonth,
    });
  });

  app.get("/items/:id", auth, async (c) => {
    const buyerId = c.get("buyer").id;
    const row = await getChargeItem(db, buyerId, c.req.param("id"));
    if (!row) throw notFound("The item");
    const item = itemWire(row);
    return c.json({ item, receipt: await deps.receipts.sign(buyerId, item) });
  });
  return app;
}
