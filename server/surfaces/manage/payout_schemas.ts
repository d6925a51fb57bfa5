/** The wire of a publisher's payout statement and its items (issue 29 item 5). */
import { z } from "zod";
import { itemSchema } from "../../domain/billing/item_schemas.ts";

const figures = {
  count: z.int(),
  grossUsdMicros: z.int().describe("What buyers were billed: your prices + platform fees"),
  platformFeesUsdMicros: z.int().describe("The platform's 4.7% on agent payments; not yours"),
  netUsdMicros: z.int().describe("Yours: gross less platform fees (your own prices)"),
};

/** GET /api/publisher/payouts?month=. */
export const payoutStatementSchema = z.object({
  month: z.string().describe("YYYY-MM (UTC): charges on that month's statements"),
  currency: z.literal("usd"),
  state: z.enum(["open", "closed"]).describe("open: the month is in progress"),
  lines: z.array(z.object({
    kind: z.enum(["metered", "landing", "subscription", "adjustment"]),
    description: z.string(),
    ...figures,
    itemsUrl: z.string().describe("The line's items (GET, same credentials)"),
  })),
  perRead: z.object(figures).describe("Per-read earnings: metered reads and agent payments"),
  subscriptions: z.object(figures).describe("License fees"),
  totals: z.object({ ...figures, netUsdCents: z.int() }),
  payout: z.object({
    state: z.enum(["accruing", "pending", "paid"]).describe(
      "accruing: the month is open; pending: due, not paid yet; paid",
    ),
    amountUsdMicros: z.int(),
  }),
});

/** GET /api/publisher/items: a page of the publisher's items (no buyer's key or identity). */
export const publisherItemPageSchema = z.object({
  items: z.array(itemSchema),
  nextCursor: z.string().nullable(),
  matching: z.object({
    count: z.int(),
    priceUsdMicros: z.int(),
    feeUsdMicros: z.int(),
    amountUsdMicros: z.int(),
  }),
});
