/**
 * Charge items: the ledger row by row, with what a buyer or publisher needs to check it (the
 * publisher's name, the article's title and URL). Newest first, paged by (created_at, id).
 */
import type { Executor } from "./db.ts";
import type { ChargeKind } from "./charges.ts";

/** One ledger row as an item. Amounts are integer micro-dollars. */
export interface ChargeItem {
  id: string;
  buyerId: string;
  publisherId: string;
  publisherName: string;
  articleId: string | null;
  /** The article's canonical URL, else its URL; null for a subscription or a removed article. */
  articleUrl: string | null;
  articleTitle: string | null;
  licenseId: string | null;
  kind: ChargeKind;
  useCase: string | null;
  surface: string;
  priceMicros: number;
  feeMicros: number;
  idempotencyKey: string | null;
  /** The usage month and the statement month the row is on ("YYYY-MM"). */
  month: string;
  statementMonth: string;
  prepaid: boolean;
  createdAt: number;
  /** A credit note's item: the item it credits, and its note's number (migration 0065). */
  creditOf?: string | null;
  creditNoteSeq?: number | null;
}

/** Which items: a buyer's or a publisher's, narrowed by any of the rest. */
export interface ItemFilter {
  id?: string;
  /** The items of one credit note. */
  creditNoteId?: string;
  buyerId?: string;
  publisherId?: string;
  /** Created at or after (ms). */
  from?: number;
  /** Created before (ms). */
  to?: number;
  useCase?: string;
  surface?: string;
  kind?: ChargeKind;
  statementMonth?: string;
  usageMonth?: string;
  /** Collected by card at checkout (true) or invoiced (false). */
  prepaid?: boolean;
  /** The last item of the previous page. */
  after?: { createdAt: number; id: string };
}

/** Up to `limit` items matching `filter`, newest first. */
export async function listChargeItems(
  db: Executor,
  filter: ItemFilter,
  options: { limit: number },
): Promise<ChargeItem[]> {
  const { where, args } = whereOf(filter);
  const rs = await db.execute({
    sql: `SELECT c.id, c.buyer_id, c.publisher_id, p.name AS publisher_name, c.article_id,
            COALESCE(a.canonical_url, a.url) AS article_url, a.title AS article_title,
            c.license_id, c.kind, c.use_case, c.surface, c.price_micros, c.fee_micros,
            c.idempotency_key, c.month, c.statement_month, (c.paid_via IS NOT NULL) AS prepaid,
            c.created_at, c.credit_of, cn.seq AS credit_note_seq
          FROM charges c JOIN publishers p ON p.id = c.publisher_id
          LEFT JOIN articles a ON a.id = c.article_id AND a.publisher_id = c.publisher_id
          LEFT JOIN credit_notes cn ON cn.id = c.credit_note_id
          WHERE ${where.join(" AND ")}
          ORDER BY c.created_at DESC, c.id DESC LIMIT ?`,
    args: [...args, options.limit],
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    buyerId: String(r.buyer_id),
    publisherId: String(r.publisher_id),
    publisherName: String(r.publisher_name),
    articleId: r.article_id === null ? null : String(r.article_id),
    articleUrl: r.article_url === null ? null : String(r.article_url),
    articleTitle: r.article_title === null ? null : String(r.article_title),
    licenseId: r.license_id === null ? null : String(r.license_id),
    kind: String(r.kind) as ChargeKind,
    useCase: r.use_case === null ? null : String(r.use_case),
    surface: String(r.surface),
    priceMicros: Number(r.price_micros),
    feeMicros: Number(r.fee_micros),
    idempotencyKey: r.idempotency_key === null ? null : String(r.idempotency_key),
    month: String(r.month),
    statementMonth: String(r.statement_month),
    prepaid: Number(r.prepaid) === 1,
    createdAt: Number(r.created_at),
    creditOf: r.credit_of === null ? null : String(r.credit_of),
    creditNoteSeq: r.credit_note_seq === null ? null : Number(r.credit_note_seq),
  }));
}

/** One of the buyer's items by id (null: none such, or another buyer's). */
export async function getChargeItem(
  db: Executor,
  buyerId: string,
  id: string,
): Promise<ChargeItem | null> {
  const [item] = await listChargeItems(db, { buyerId, id }, { limit: 1 });
  return item ?? null;
}

/** The WHERE conditions of `filter` over `charges c`. */
function whereOf(filter: ItemFilter): { where: string[]; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const eq = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`c.${column} = ?`);
    args.push(value);
  };
  eq("id", filter.id);
  eq("credit_note_id", filter.creditNoteId);
  eq("buyer_id", filter.buyerId);
  eq("publisher_id", filter.publisherId);
  eq("use_case", filter.useCase);
  eq("surface", filter.surface);
  eq("kind", filter.kind);
  eq("statement_month", filter.statementMonth);
  eq("month", filter.usageMonth);
  if (filter.prepaid !== undefined) where.push(`c.paid_via IS ${filter.prepaid ? "NOT " : ""}NULL`);
  if (filter.from !== undefined) {
    where.push("c.created_at >= ?");
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("c.created_at < ?");
    args.push(filter.to);
  }
  if (filter.after) {
    where.push("(c.created_at < ? OR (c.created_at = ? AND c.id < ?))");
    args.push(filter.after.createdAt, filter.after.createdAt, filter.after.id);
  }
  if (!filter.buyerId && !filter.publisherId) throw new Error("items need a buyer or publisher");
  return { where, args };
}

/** How many items match `filter` (its cursor aside) and what they add up to, in micros. */
export async function sumChargeItems(
  db: Executor,
  filter: ItemFilter,
): Promise<{ count: number; priceMicros: number; feeMicros: number }> {
  const { where, args } = whereOf({ ...filter, after: undefined });
  const rs = await db.execute({
    sql: `SELECT COUNT(*) AS n, COALESCE(SUM(c.price_micros), 0) AS price,
            COALESCE(SUM(c.fee_micros), 0) AS fee FROM charges c WHERE ${where.join(" AND ")}`,
    args,
  });
  const r = rs.rows[0];
  return { count: Number(r.n), priceMicros: Number(r.price), feeMicros: Number(r.fee) };
}
