/**
 * A credit note on a closed month becomes a credit balance the next invoice uses: receivables'
 * `grantCredit` (server/domain/billing/credits.ts, issue 38 part 2), in the caller's transaction.
 */
import type { Executor } from "../../../store/db.ts";

/** What a credit note grants. */
export interface CreditGrant {
  buyerId: string;
  amountMicros: number;
  source: "credit_note";
  sourceId: string;
  now: Date;
}

// Loaded by a computed specifier until receivables (its own branch) is merged: the merge replaces
// this with a static import of grantCredit.
const CREDITS = "./credits.ts";

/** Grants the credit note's amount to the buyer's credit balance. */
export async function applyCreditBalance(tx: Executor, grant: CreditGrant): Promise<void> {
  const credits = await import(CREDITS).catch(() => null) as
    | { grantCredit(db: Executor, g: CreditGrant): Promise<unknown> }
    | null;
  if (!credits) {
    throw new Error("Credit balances need receivables (server/domain/billing/credits.ts)");
  }
  await credits.grantCredit(tx, grant);
}
