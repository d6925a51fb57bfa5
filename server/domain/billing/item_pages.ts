/** Pages and CSV of charge items, for the marketplace (a buyer) and the management API (a publisher). */
import { type ItemFilter, listChargeItems, sumChargeItems } from "../../../store/charge_items.ts";
import type { Client } from "../../../store/db.ts";
import { toCsv } from "../../platform/csv.ts";
import { sumMicros } from "../../platform/money.ts";
import { cursorAfter, ITEM_CSV_HEADER, itemCsvRow, itemWire } from "./items.ts";

/** One page of items and the totals of everything the filter matches. */
export async function itemsPage(db: Client, filter: ItemFilter, limit: number) {
  const [rows, sums] = await Promise.all([
    listChargeItems(db, filter, { limit: limit + 1 }),
    sumChargeItems(db, filter),
  ]);
  const page = rows.slice(0, limit);
  return {
    items: page.map(itemWire),
    nextCursor: rows.length > limit ? cursorAfter(page[page.length - 1]) : null,
    matching: {
      count: sums.count,
      priceUsdMicros: sums.priceMicros,
      feeUsdMicros: sums.feeMicros,
      amountUsdMicros: sumMicros([sums.priceMicros, sums.feeMicros]),
    },
  };
}

/** Rows fetched per query while writing a CSV. */
const CSV_BATCH = 1000;

/** Every item the filter matches as CSV (RFC 4180), newest first. */
export async function itemsCsv(
  db: Client,
  filter: ItemFilter,
  options: { withKeys: boolean } = { withKeys: true },
): Promise<string> {
  const rows: (string | number)[][] = [ITEM_CSV_HEADER];
  let after = filter.after;
  for (;;) {
    const batch = await listChargeItems(db, { ...filter, after }, { limit: CSV_BATCH });
    for (const item of batch) {
      const w = itemWire(item);
      rows.push(itemCsvRow(options.withKeys ? w : { ...w, idempotencyKey: null }));
    }
    if (batch.length < CSV_BATCH) break;
    const last = batch[batch.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
  return toCsv(rows);
}
