/** The budget input of the marketplace API: one zod schema, parsed by the route and documented. */
import { z } from "zod";

/** Highest budget accepted, in cents: 1,000,000 USD a month. */
export const MAX_BUDGET_CENTS = 100_000_000;

/** PUT /api/marketplace/budgets. */
export const budgetInputSchema = z.strictObject({
  publisherId: z.string().min(1).max(100).optional().describe(
    "The publisher this budget is for; leave it out for the overall budget across publishers",
  ),
  monthlyUsdCents: z.int().min(0).max(MAX_BUDGET_CENTS).nullable().describe(
    "The most per-read spend allowed in a UTC month, in US cents; null removes the budget",
  ),
});
