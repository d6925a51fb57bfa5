/** The wire shared by the publisher's and the operator's payout answers (issue 38 part 5). */
import { z } from "zod";

/** A payout's hold, with the sentence that explains it. */
export const holdSchema = z.object({
  code: z.enum([
    "no_payee_details",
    "dispute_open",
    "under_review",
    "earlier_payout_held",
    "nothing_due",
  ]),
  reason: z.string(),
});
