/**
 * Charge items (issue 29 item 5): every ledger row as an item its buyer (and its publisher) can see
 * and check: time, publisher, article, use, surface, price, platform fee, idempotency key and
 * receipt id. The same object is what a receipt signs (server/domain/billing/receipts.ts).
 */
import { z } from "zod";
import type { ChargeItem, ItemFilter } from "../../../store/charge_items.ts";
import { SURFACES, USE_CASES } from "../../../store/vocabulary.ts";
import { invalid } from "../../platform/errors.ts";
import { microsToCents, sumMicros } from "../../platform/money.ts";
import { isMonth, monthStart, nextMonth } from "./months.ts";

/** The kinds of ledger row, as items name them. */
export const ITEM_KINDS = ["metered", "landing", "subscription", "adjustment"] as const;

/** An item on the wire (micro-dollars exact; cents for display). */
export interface ItemWire {
  id: string;
  receiptId: string;
  at: string;
  kind: typeof ITEM_KINDS[number];
  publisher: { id: string; name: string };
  article: { id: string; url: string | null; title: string | null } | null;
  licenseId: string | null;
  use: string | null;
  surface: string;
  priceUsdMicros: number;
  feeUsdMicros: number;
  amountUsdMicros: number;
  amountUsdCents: number;
  idempotencyKey: string | null;
  usageMonth: string;
  statementMonth: string;
  prepaid: boolean;
  /** A credit note's item: the item it credits (null: a charge). */
  creditOf: string | null;
  /** A credit note's item: the note's number, FOLIO-CN-000001. */
  creditNote: string | null;
}

/** A credit note's number as printed: one global sequence (migration 0065). */
export function creditNoteNumber(seq: number): string {
  return `FOLIO-CN-${String(seq).padStart(6, "0")}`;
}

/** A charge's receipt id: the charge id's own letters under the receipt's prefix. */
export function receiptIdOf(chargeId: string): string {
  return `rct_${chargeId.replace(/^chg_/, "")}`;
}

/** The item as the APIs, the CSV and the receipts show it. */
export function itemWire(i: ChargeItem): ItemWire {
  const amount = sumMicros([i.priceMicros, i.feeMicros]);
  return {
    id: i.id,
    receiptId: receiptIdOf(i.id),
    at: new Date(i.createdAt).toISOString(),
    kind: i.kind,
    publisher: { id: i.publisherId, name: i.publisherName },
    article: i.articleId ? { id: i.articleId, url: i.articleUrl, title: i.articleTitle } : null,
    licenseId: i.licenseId,
    use: i.useCase,
    surface: i.surface,
    priceUsdMicros: i.priceMicros,
    feeUsdMicros: i.feeMicros,
    amountUsdMicros: amount,
    amountUsdCents: microsToCents(amount),
    idempotencyKey: i.idempotencyKey,
    usageMonth: i.month,
    statementMonth: i.statementMonth,
    prepaid: i.prepaid,
    creditOf: i.creditOf ?? null,
    creditNote: i.creditNoteSeq ? creditNoteNumber(i.creditNoteSeq) : null,
  };
}

/** The columns of the items CSV, in order. */
export const ITEM_CSV_HEADER = [
  "at",
  "item_id",
  "receipt_id",
  "kind",
  "publisher_id",
  "publisher",
  "article_id",
  "article_url",
  "article_title",
  "use",
  "surface",
  "price_usd_micros",
  "fee_usd_micros",
  "amount_usd_micros",
  "idempotency_key",
  "usage_month",
  "statement_month",
  "credit_of",
  "credit_note",
];

/** One CSV row of an item. */
export function itemCsvRow(w: ItemWire): (string | number)[] {
  return [
    w.at,
    w.id,
    w.receiptId,
    w.kind,
    w.publisher.id,
    w.publisher.name,
    w.article?.id ?? "",
    w.article?.url ?? "",
    w.article?.title ?? "",
    w.use ?? "",
    w.surface,
    w.priceUsdMicros,
    w.feeUsdMicros,
    w.amountUsdMicros,
    w.idempotencyKey ?? "",
    w.usageMonth,
    w.statementMonth,
    w.creditOf ?? "",
    w.creditNote ?? "",
  ];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `from`/`to`: a UTC day (YYYY-MM-DD: `to` takes the whole day) or an ISO 8601 instant. */
const instant = (end: boolean) =>
  z.string().refine(
    (s) =>
      (DAY.test(s) || z.iso.datetime({ offset: true }).safeParse(s).success) &&
      !Number.isNaN(Date.parse(s)),
    "must be a day (YYYY-MM-DD) or an ISO 8601 instant",
  ).transform((s) => Date.parse(s) + (end && DAY.test(s) ? 86_400_000 : 0));

const month = z.string().refine(isMonth, "must be a month written YYYY-MM");

/** The query of the items routes (every filter optional). */
export const itemQuerySchema = z.strictObject({
  from: instant(false).optional().describe(
    "Created at or after: a UTC day (YYYY-MM-DD) or an ISO 8601 instant",
  ),
  to: instant(true).optional().describe(
    "Created before (a day: up to its end): a UTC day (YYYY-MM-DD) or an ISO 8601 instant",
  ),
  month: month.optional().describe("Created within this UTC month (YYYY-MM)"),
  publisherId: z.string().min(1).max(100).optional(),
  use: z.enum(USE_CASES).optional(),
  // License fees are written with surface "marketplace" (store/charges.ts).
  surface: z.enum([...SURFACES, "marketplace"]).optional(),
  kind: z.enum(ITEM_KINDS).optional(),
  statementMonth: month.optional().describe("On the statement of this month (YYYY-MM)"),
  usageMonth: month.optional().describe("Usage in this month (YYYY-MM)"),
  prepaid: z.enum(["true", "false"]).optional().describe(
    "true: collected by card at checkout; false: invoiced",
  ),
  cursor: z.string().max(200).optional().describe("nextCursor of the previous page"),
  limit: z.string().regex(/^\d{1,4}$/, "must be a whole number from 1 to 500")
    .transform(Number).refine((n) => n >= 1 && n <= 500, "must be a whole number from 1 to 500")
    .optional().describe("Items per page (1 to 500, default 100)"),
});

/** A parsed items query: the store's filter and the page size. */
export interface ItemQuery {
  filter: Omit<ItemFilter, "buyerId">;
  limit: number;
}

/** Parses the items query; a bad field is a 400 naming it. */
export function parseItemQuery(query: Record<string, string>): ItemQuery {
  const r = itemQuerySchema.safeParse(query);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.length ? String(issue.path[0]) : String(
      (issue as { keys?: string[] }).keys?.[0] ?? "query",
    );
    throw invalid(field, issue.code === "unrecognized_keys" ? "is not a filter" : issue.message);
  }
  const q = r.data;
  let from = q.from;
  let to = q.to;
  if (q.month) {
    from = Math.max(from ?? 0, monthStart(q.month).getTime());
    const end = monthStart(nextMonth(q.month)).getTime();
    to = to === undefined ? end : Math.min(to, end);
  }
  if (from !== undefined && to !== undefined && from >= to) {
    throw invalid("to", "must be after from");
  }
  return {
    filter: {
      from,
      to,
      publisherId: q.publisherId,
      useCase: q.use,
      surface: q.surface,
      kind: q.kind,
      statementMonth: q.statementMonth,
      usageMonth: q.usageMonth,
      prepaid: q.prepaid === undefined ? undefined : q.prepaid === "true",
      after: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
    },
    limit: q.limit ?? 100,
  };
}

/** The cursor after an item: its time and id, base64url. */
export function cursorAfter(i: ChargeItem): string {
  return btoa(`${i.createdAt}.${i.id}`).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const m = /^(\d{1,15})\.(chg_[0-9A-Za-z_]{1,60})$/.exec(text);
    if (m) return { createdAt: Number(m[1]), id: m[2] };
  } catch {
    // not base64: the same answer as any other bad cursor
  }
  throw invalid("cursor", "is not a cursor this API gave out (use nextCursor as it came)");
}
