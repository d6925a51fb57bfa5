/**
 * A buyer's credit balance (docs/decisions/billing.md "Receivables"): a small ledger of signed
 * entries. Credit comes from an overpaid invoice or a credit note on a closed month; the next
 * invoice issued uses it (close.ts), as Stripe applies a customer's balance to its next invoice.
 * Each grant is idempotent per source and source id, so a retried grant adds nothing.
 */
import type { Executor } from "../../../store/db.ts";
import {
  creditBalanceMicros,
  creditEntries,
  type CreditEntry,
  insertCreditEntry,
} from "../../../store/credits.ts";
import { newId } from "../../../store/ids.ts";
import { wholeCentsBelow } from "../../platform/money.ts";

export type { CreditEntry };

/** What a grant needs: who, how much (positive micros), and the document it comes from. */
export interface CreditGrant {
  buyerId: string;
  amountMicros: number;
  source: "overpayment" | "credit_note";
  sourceId: string;
  now: Date;
}

/**
 * Adds `amountMicros` to the buyer's credit balance, once per `source` and `sourceId` (a second
 * call with the same pair changes nothing). Pass the caller's transaction so the grant commits
 * with whatever caused it.
 */
export async function grantCredit(db: Executor, grant: CreditGrant): Promise<void> {
  if (!Number.isSafeInteger(grant.amountMicros) || grant.amountMicros <= 0) {
    throw new RangeError(`A credit must be a positive number of micros, got ${grant.amountMicros}`);
  }
  if (grant.sourceId.length === 0) throw new RangeError("A credit needs its source's id");
  await insertCreditEntry(db, { id: newId("crd"), ...grant });
}

/** The buyer's credit balance in micros. */
export function creditBalance(db: Executor, buyerId: string): Promise<number> {
  return creditBalanceMicros(db, buyerId);
}

/**
 * Uses up to `upToMicros` of the buyer's balance for invoice `invoiceSeq`, in whole cents (what
 * is left is sub-cent and stays for later): answers what it used. Once per invoice.
 */
export async function useCredit(
  db: Executor,
  options: { buyerId: string; invoiceSeq: number; upToMicros: number; now: Date },
): Promise<number> {
  const balance = await creditBalanceMicros(db, options.buyerId);
  const usable = Math.min(wholeCentsBelow(balance), options.upToMicros);
  if (usable <= 0) return 0;
  const written = await insertCreditEntry(db, {
    id: newId("crd"),
    buyerId: options.buyerId,
    amountMicros: -usable,
    source: "invoice",
    sourceId: String(options.invoiceSeq),
    now: options.now,
  });
  return written ? usable : 0;
}

/** The buyer's credit entries, newest first. */
export function creditHistory(db: Executor, buyerId: string): Promise<CreditEntry[]> {
  return creditEntries(db, buyerId);
}
