/**
 * The wire of charge items (issue 29 item 5), one schema for the marketplace (a buyer's items) and
 * the management API (a publisher's); server/domain/billing/items.ts builds them.
 */
import { z } from "zod";
import { ITEM_KINDS } from "./items.ts";

/** One charge item. */
export const itemSchema = z.object({
  id: z.string().describe("The ledger row (charge) id"),
  receiptId: z.string().describe("The receipt's id (its `jti`)"),
  at: z.iso.datetime().describe("When it was charged (UTC)"),
  kind: z.enum(ITEM_KINDS),
  publisher: z.object({ id: z.string(), name: z.string() }),
  article: z.object({
    id: z.string(),
    url: z.string().nullable(),
    title: z.string().nullable().describe("null when the article was removed since"),
  }).nullable().describe("null for a subscription fee"),
  licenseId: z.string().nullable().describe("The license a subscription fee is for"),
  use: z.string().nullable().describe("summarization, display, rag or fine_tuning; null: a fee"),
  surface: z.string().describe("rest, mcp, a2a, landing; marketplace for subscription fees"),
  priceUsdMicros: z.int().describe("The publisher's price, in micro-dollars"),
  feeUsdMicros: z.int().describe("The platform fee (4.7% on the landing path, else 0)"),
  amountUsdMicros: z.int().describe("What the buyer is billed: price + fee"),
  amountUsdCents: z.number(),
  idempotencyKey: z.string().nullable(),
  usageMonth: z.string().describe("YYYY-MM the read happened in"),
  statementMonth: z.string().describe("YYYY-MM of the statement it is on"),
  prepaid: z.boolean().describe("Collected by card at checkout"),
  creditOf: z.string().nullable().describe(
    "A credit note's item (negative amounts): the item it credits; null for a charge",
  ),
  creditNote: z.string().nullable().describe("A credit note's item: its number, FOLIO-CN-…"),
});

/** A page of items, with the totals of everything the filter matches. */
export const itemPageSchema = z.object({
  items: z.array(itemSchema).describe("Newest first"),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null: last"),
  matching: z.object({
    count: z.int(),
    priceUsdMicros: z.int(),
    feeUsdMicros: z.int(),
    amountUsdMicros: z.int(),
  }).describe("Every item the filters match (all pages): the figures to check a statement with"),
});
