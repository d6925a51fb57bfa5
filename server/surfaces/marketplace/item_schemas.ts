/**
 * The wire of a buyer's charge items (issue 29 item 5): the item and page schemas are the billing
 * domain's (the management API answers the same items), the receipt answer is the marketplace's.
 */
import { z } from "zod";
import { itemSchema } from "../../domain/billing/item_schemas.ts";

export { itemPageSchema, itemSchema } from "../../domain/billing/item_schemas.ts";

/** GET /api/marketplace/items/<id>: the item and its receipt. */
export const itemReceiptSchema = z.object({
  item: itemSchema,
  receipt: z.string().describe("Compact JWS (EdDSA) over the item; keys: /.well-known/jwks.json"),
});

/** POST /api/marketplace/receipts/verify. */
export const receiptCheckSchema = z.strictObject({
  receipt: z.string().min(1).max(20_000).describe("The compact JWS a charged read answered with"),
});

/** Its answer for a receipt Folio signed. */
export const receiptCheckedSchema = z.object({
  valid: z.literal(true),
  kid: z.string().describe("The key that signed it"),
  receiptId: z.string(),
  buyerId: z.string(),
  charge: itemSchema,
  matchesLedger: z.boolean().describe(
    "The ledger holds the charge with the amounts and statement month the receipt names",
  ),
});
