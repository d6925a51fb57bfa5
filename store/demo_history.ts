/**
 * Writes the demo publisher's made-up past (server/seed/history.ts) in one batch: calls, charges
 * with the month's spend they add up to, and reader intents. Past calls skip the hourly status
 * figures (store/status.ts): those measure this node, not the demo's story.
 */
import type { Client } from "./db.ts";
import { CALL_COLUMNS, type CallEntry, callValues } from "./call_log.ts";
import { type IntentEntry, intentInserts } from "./intents.ts";
import { multiRowInserts } from "./multi_row.ts";

/** A per-read charge of the past, priced as `decide()` priced it. */
export interface HistoricCharge {
  id: string;
  buyerId: string;
  publisherId: string;
  articleId: string;
  useCase: string;
  kind: "metered" | "landing";
  /** The publisher's price and the platform fee: the buyer was billed their sum. */
  priceMicros: number;
  feeMicros: number;
  /** The usage month, which is also its statement month (no statement was closed before it). */
  month: string;
  requestHash: string;
  identity: string;
  surface: string;
  at: Date;
}

/** Inserts the past in one transaction; `spend` is each buyer's billed total per month. */
export async function insertHistory(
  db: Client,
  history: {
    calls: CallEntry[];
    charges: HistoricCharge[];
    intents: IntentEntry[];
    spend: { buyerId: string; publisherId: string; month: string; micros: number }[];
  },
): Promise<void> {
  await db.batch([
    ...multiRowInserts("call_log", CALL_COLUMNS, history.calls.map(callValues)),
    ...multiRowInserts(
      "charges",
      [
        "id",
        "buyer_id",
        "publisher_id",
        "article_id",
        "use_case",
        "kind",
        "price_micros",
        "fee_micros",
        "month",
        "statement_month",
        "request_hash",
        "identity",
        "surface",
        "created_at",
      ],
      history.charges.map((c) => [
        c.id,
        c.buyerId,
        c.publisherId,
        c.articleId,
        c.useCase,
        c.kind,
        c.priceMicros,
        c.feeMicros,
        c.month,
        c.month,
        c.requestHash,
        c.identity,
        c.surface,
        c.at.getTime(),
      ]),
    ),
    ...multiRowInserts(
      "monthly_spend",
      ["buyer_id", "publisher_id", "month", "metered_micros"],
      history.spend.map((s) => [s.buyerId, s.publisherId, s.month, s.micros]),
    ),
    ...intentInserts(history.intents),
  ], "write");
}
