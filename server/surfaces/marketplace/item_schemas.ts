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
