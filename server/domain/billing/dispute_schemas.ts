/**
 * The wire of disputes and credit notes (issue 38 part 4), one set for the marketplace (the buyer
 * opens), the management API (the publisher decides) and the operator API (the operator decides).
 */
import { z } from "zod";
import { itemSchema } from "./item_schemas.ts";

const reason = z.string().max(2000);

/** POST /api/marketplace/disputes. */
export const disputeOpenSchema = z.strictObject({
  itemIds: z.array(z.string().min(1).max(100)).min(1).max(100).describe(
    "The items (charge ids, chg_…) disputed: the buyer's own, of one publisher",
  ),
  reason: reason.refine((s) => s.trim() !== "", "must say what is wrong with the charges")
    .describe("What is wrong with these charges"),
});

/** POST …/disputes/<id>/decision. */
export const disputeDecisionSchema = z.discriminatedUnion("decision", [
  z.strictObject({
    decision: z.literal("accept"),
    amountUsdMicros: z.int().optional().describe(
      "Credit this much of the disputed total, spread over the items in proportion (default: all)",
    ),
    items: z.array(z.strictObject({
      itemId: z.string().min(1).max(100),
      amountUsdMicros: z.int(),
    })).min(1).max(100).optional().describe("Or: credit each item this much (unnamed items: 0)"),
    reason: reason.optional(),
  }),
  z.strictObject({
    decision: z.literal("refuse"),
    reason: reason.refine((s) => s.trim() !== "", "must say why the dispute is refused"),
  }),
]);

export const DISPUTE_STATES = [
  "open",
  "escalated",
  "accepted",
  "partially_accepted",
  "refused",
] as const;

/** A credit note as a dispute carries it. */
export const creditNoteSummarySchema = z.object({
  number: z.string().describe("FOLIO-CN-000001…: one global sequence, gap-free"),
  amountUsdMicros: z.int(),
  appliedTo: z.enum(["statement", "balance"]).describe(
    "statement: an adjustment on the items' open statement; balance: credited to the next invoice",
  ),
  statementMonth: z.string().describe("The statement (or, for a balance, the month) it lands on"),
  issuedAt: z.iso.datetime(),
});

/** A dispute. */
export const disputeSchema = z.object({
  id: z.string(),
  state: z.enum(DISPUTE_STATES),
  reason: z.string(),
  buyer: z.object({ id: z.string(), name: z.string() }),
  publisher: z.object({ id: z.string(), name: z.string() }),
  disputedUsdMicros: z.int(),
  creditedUsdMicros: z.int(),
  disputedUsdCents: z.int(),
  creditedUsdCents: z.int(),
  items: z.array(z.object({
    itemId: z.string(),
    amountUsdMicros: z.int().describe("What the item billed (price + fee)"),
    creditedUsdMicros: z.int(),
  })),
  openedAt: z.iso.datetime(),
  escalatesAt: z.iso.datetime().describe("When an undecided dispute goes to the operator"),
  escalatedAt: z.iso.datetime().nullable(),
  decision: z.object({
    by: z.enum(["publisher", "operator"]),
    reason: z.string().nullable(),
    at: z.iso.datetime(),
  }).nullable(),
  creditNote: creditNoteSummarySchema.nullable(),
  url: z.string().describe("The dispute in the buyer portal"),
});

/** A page of disputes. */
export const disputePageSchema = z.object({
  disputes: z.array(disputeSchema).describe("Newest first"),
  nextCursor: z.string().nullable(),
  matching: z.int().describe("How many disputes the filters match (all pages)"),
});

/** GET /api/marketplace/credit-notes/<number>: the note, its items and their receipts. */
export const creditNoteSchema = z.object({
  creditNote: creditNoteSummarySchema.extend({ disputeId: z.string() }),
  items: z.array(z.object({
    item: itemSchema,
    receipt: z.string().describe("Compact JWS (EdDSA) over the item; keys: /.well-known/jwks.json"),
  })),
});

/** The list query (every filter optional). */
export const disputeQuerySchema = z.strictObject({
  state: z.enum(DISPUTE_STATES).optional(),
  cursor: z.string().max(200).optional().describe("nextCursor of the previous page"),
  limit: z.string().regex(/^\d{1,3}$/, "must be a whole number from 1 to 100")
    .transform(Number).refine((n) => n >= 1 && n <= 100, "must be a whole number from 1 to 100")
    .optional().describe("Disputes per page (1 to 100, default 50)"),
});

/** The operator's list query: every dispute, narrowed also by publisher or buyer. */
export const operatorDisputeQuerySchema = disputeQuerySchema.extend({
  publisherId: z.string().min(1).max(100).optional(),
  buyerId: z.string().min(1).max(100).optional(),
});
