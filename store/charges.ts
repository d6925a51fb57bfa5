/** Persistence of the ledger (charges). Amounts are integer micro-dollars. */
import type { InStatement } from "@libsql/client";
import { BoundedCache } from "./bounded_cache.ts";
import type { Client, Executor } from "./db.ts";
import { spendOf, type SpendState } from "./budgets.ts";
import { nextMonth, openStatementMonth } from "./statements.ts";

/** Kinds of ledger row. */
export type ChargeKind = "metered" | "landing" | "subscription" | "adjustment";

/** A ledger total for one publisher and kind of charge on a buyer's statement. */
export interface LedgerGroup {
  publisherId: string;
  publisherName: string;
  kind: ChargeKind;
  /** The month the usage happened in; differs from the statement month for late usage. */
  usageMonth: string;
  /** True when the processor collected these at checkout (card), false when invoiced. */
  prepaid: boolean;
  count: number;
  priceMicros: number;
  feeMicros: number;
}

/** The rows on the buyer's statement for `month`, grouped by publisher, kind and usage month. */
export async function ledgerForMonth(
  db: Executor,
  buyerId: string,
  month: string,
): Promise<LedgerGroup[]> {
  const rs = await db.execute({
    sql: `SELECT c.publisher_id, p.name AS publisher_name, c.kind, c.month AS usage_month,
            (c.paid_via IS NOT NULL) AS prepaid, COUNT(*) AS n,
            SUM(c.price_micros) AS price, SUM(c.fee_micros) AS fee
          FROM charges c JOIN publishers p ON p.id = c.publisher_id
          WHERE c.buyer_id = ? AND c.statement_month = ? AND c.credit_via IS NOT 'balance'
          GROUP BY c.publisher_id, c.kind, c.month, prepaid
          ORDER BY c.month, p.name, c.publisher_id, c.kind, prepaid`,
    args: [buyerId, month],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    publisherName: String(r.publisher_name),
    kind: String(r.kind) as ChargeKind,
    usageMonth: String(r.usage_month),
    prepaid: Number(r.prepaid) === 1,
    count: Number(r.n),
    priceMicros: Number(r.price),
    feeMicros: Number(r.fee),
  }));
}

/** Sum of every ledger row on the buyer's statement for `month` (price + fee), in micros. */
export async function ledgerTotal(db: Client, buyerId: string, month: string): Promise<number> {
  const rs = await db.execute({
    sql: `SELECT COALESCE(SUM(price_micros + fee_micros), 0) AS t FROM charges
          WHERE buyer_id = ? AND statement_month = ? AND credit_via IS NOT 'balance'`,
    args: [buyerId, month],
  });
  return Number(rs.rows[0].t);
}

/**
 * Adds a license's fee for `month` once (keyed `sub:<licenseId>:<month>`) and counts it in the
 * month's spend that the buyer's budgets limit.
 */
export async function insertSubscriptionCharge(
  db: Executor,
  buyerId: string,
  c: {
    id: string;
    licenseId: string;
    publisherId: string;
    feeMicros: number;
    month: string;
    prepaid: boolean;
    now: Date;
  },
): Promise<boolean> {
  const statementMonth = await openStatementMonth(db, buyerId, c.month);
  const rs = await db.execute({
    sql: `INSERT INTO charges (id, buyer_id, publisher_id, license_id, kind, price_micros,
            fee_micros, month, statement_month, idempotency_key, identity, surface, paid_via,
            created_at) VALUES (?, ?, ?, ?, 'subscription', ?, 0, ?, ?, ?, ?, 'marketplace', ?, ?)
          ON CONFLICT (buyer_id, idempotency_key) DO NOTHING`,
    args: [
      c.id,
      buyerId,
      c.publisherId,
      c.licenseId,
      c.feeMicros,
      c.month,
      statementMonth,
      `sub:${c.licenseId}:${c.month}`,
      `buyer:${buyerId}`,
      c.prepaid ? "card" : null,
      c.now.getTime(),
    ],
  });
  if (rs.rowsAffected !== 1) return false;
  // License fees count against the buyer's budgets (not the cap): docs/decisions/billing.md.
  await db.execute({
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros, license_micros)
          VALUES (?, ?, ?, 0, ?) ON CONFLICT DO UPDATE
          SET license_micros = license_micros + excluded.license_micros`,
    args: [buyerId, c.publisherId, c.month, c.feeMicros],
  });
  return true;
}

/** The buyer's metered and landing spend per publisher since `since` (ms), for usage reports. */
export async function spendByPublisher(
  db: Client,
  buyerId: string,
  options: { since: number },
): Promise<
  { publisherId: string; publisherName: string; reads: number; spendMicros: number }[]
> {
  const rs = await db.execute({
    sql: `SELECT c.publisher_id, p.name, COUNT(*) AS n, SUM(c.price_micros + c.fee_micros) AS s
          FROM charges c JOIN publishers p ON p.id = c.publisher_id
          WHERE c.buyer_id = ? AND c.kind IN ('metered', 'landing') AND c.created_at >= ?
          GROUP BY c.publisher_id ORDER BY p.name, c.publisher_id`,
    args: [buyerId, options.since],
  });
  return rs.rows.map((r) => ({
    publisherId: String(r.publisher_id),
    publisherName: String(r.name),
    reads: Number(r.n),
    spendMicros: Number(r.s),
  }));
}

/** The buyer's metered and landing spend per UTC day ("YYYY-MM-DD") since `since` (ms). */
export async function spendByDay(
  db: Client,
  buyerId: string,
  options: { since: number },
): Promise<{ day: string; spendMicros: number }[]> {
  const rs = await db.execute({
    sql: `SELECT date(created_at / 1000, 'unixepoch') AS day,
            SUM(price_micros + fee_micros) AS s
          FROM charges
          WHERE buyer_id = ? AND kind IN ('metered', 'landing') AND created_at >= ?
          GROUP BY day ORDER BY day`,
    args: [buyerId, options.since],
  });
  return rs.rows.map((r) => ({ day: String(r.day), spendMicros: Number(r.s) }));
}

/** What the publisher earned per statement month: its own prices; platform fees are not its. */
export async function earningsByMonth(
  db: Client,
  publisherId: string,
  options: { limit: number },
): Promise<
  { month: string; kind: ChargeKind; count: number; priceMicros: number; feeMicros: number }[]
> {
  const rs = await db.execute({
    sql: `SELECT statement_month AS m, kind, COUNT(*) AS n, SUM(price_micros) AS price,
            SUM(fee_micros) AS fee FROM charges
          WHERE publisher_id = ? AND statement_month IN (
            SELECT DISTINCT statement_month FROM charges WHERE publisher_id = ?
            ORDER BY statement_month DESC LIMIT ?)
          GROUP BY statement_month, kind ORDER BY statement_month DESC, kind`,
    args: [publisherId, publisherId, options.limit],
  });
  return rs.rows.map((r) => ({
    month: String(r.m),
    kind: String(r.kind) as ChargeKind,
    count: Number(r.n),
    priceMicros: Number(r.price),
    feeMicros: Number(r.fee),
  }));
}

/** A per-use charge to write if the month's spend stays within `capMicros`. */
export interface CappedCharge {
  id: string;
  buyerId: string;
  publisherId: string;
  articleId: string;
  useCase: string;
  kind: "metered" | "landing";
  /** What the buyer is billed: `priceMicros` plus `feeMicros` (the cap and budgets count it). */
  micros: number;
  /** The publisher's price, before the fee (server/platform/money.ts does the arithmetic). */
  priceMicros: number;
  feeMicros: number;
  /** The usage month, "YYYY-MM". */
  month: string;
  capMicros: number;
  idempotencyKey: string | null;
  requestHash: string;
  identity: string;
  surface: string;
  /** How it was collected at the read: `x402` on chain (docs/decisions/x402.md); else invoiced. */
  paidVia?: "x402" | null;
  now: Date;
}

/** Spend rows (buyer, publisher, month) a charge of this process saw exist, per store. */
const knownSpendRows = new WeakMap<Client, BoundedCache<string, true>>();
const KNOWN_SPEND_ROWS = 10_000;

/**
 * Raises the month's spend and writes the ledger row in one batch, only if the spend stays within
 * the cap and the buyer's budgets (store/budgets.ts) and the idempotency key is unused. The batch
 * runs without yielding in this process and under SQLite's write lock across processes, so no
 * concurrent read can push a month past the cap (store/write_lock.ts explains why a batch, not an
 * interactive transaction). `written` is true when this call wrote the row (`prior` is then that
 * row, `spend` the month's spend and budgets as this write left them, read under its lock: the
 * read path asks nothing before it); otherwise `prior` is the row the key already names, if any.
 *
 * Only the UPDATE returns a row: a RETURNING clause costs SQLite about 15 µs a statement
 * (docs/PERFORMANCE.md), so the ledger INSERT answers by its change count and the UPDATE says
 * whether the month's statement is closed. The spend row is created once per buyer, publisher and
 * month; a charge that knows it exists skips that statement, and should the row be missing after
 * all (nothing in Folio deletes one; a hand or another tool might), the UPDATE raises nothing, a
 * look finds no row and the charge runs again with it.
 */
export async function insertChargeWithinCap(
  db: Client,
  c: CappedCharge,
): Promise<{
  written: boolean;
  prior: { id: string; requestHash: string } | null;
  /** The statement month the written row landed on (null when nothing was written). */
  statementMonth: string | null;
  /** After the write: what the cap and budgets count and allow (null when nothing was written). */
  spend: SpendState | null;
}> {
  let known = knownSpendRows.get(db);
  if (!known) knownSpendRows.set(db, known = new BoundedCache(KNOWN_SPEND_ROWS));
  const rowKey = `${c.buyerId}\n${c.publisherId}\n${c.month}`;
  const skipUpsert = known.has(rowKey);
  const results = await db.batch(
    [...(skipUpsert ? [] : [spendRowUpsert(c)]), ...chargeWrite(c)],
    "write",
  );
  const [raised] = results.slice(-2);
  // The UPDATE returns its row only when it raised the spend.
  const written = raised.rows.length === 1;
  if (written) {
    known.set(rowKey, true);
    const row = raised.rows[0];
    return {
      written,
      prior: { id: c.id, requestHash: c.requestHash },
      statementMonth: Number(row.month_closed) ? nextMonth(c.month) : c.month,
      spend: spendOf(row),
    };
  }
  if (skipUpsert && !(await spendRowExists(db, c))) {
    known.delete(rowKey);
    return insertChargeWithinCap(db, c);
  }
  known.set(rowKey, true);
  if (c.idempotencyKey === null) return { written, prior: null, statementMonth: null, spend: null };
  // Not written: the key's row, if that is why, was committed before this batch saw it (in this
  // group commit or another process's), so a read after the batch finds it. A charged read, the
  // common case, skips this lookup.
  const rs = await db.execute({
    sql: "SELECT id, request_hash FROM charges WHERE buyer_id = ? AND idempotency_key = ?",
    args: [c.buyerId, c.idempotencyKey],
  });
  const row = rs.rows[0];
  return {
    written,
    prior: row ? { id: String(row.id), requestHash: String(row.request_hash) } : null,
    statementMonth: null,
    spend: null,
  };
}

async function spendRowExists(db: Client, c: CappedCharge): Promise<boolean> {
  const rs = await db.execute({
    sql: "SELECT 1 FROM monthly_spend WHERE buyer_id = ? AND publisher_id = ? AND month = ?",
    args: [c.buyerId, c.publisherId, c.month],
  });
  return rs.rows.length === 1;
}

/** Creates the month's spend row for the buyer and publisher if it is not there yet. */
function spendRowUpsert(c: CappedCharge): InStatement {
  return {
    sql: `INSERT INTO monthly_spend (buyer_id, publisher_id, month, metered_micros)
          VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING`,
    args: [c.buyerId, c.publisherId, c.month],
  };
}

/** The cap-and-budget UPDATE and the ledger INSERT it lets through. */
function chargeWrite(c: CappedCharge): InStatement[] {
  return [
    {
      // The cap check, the buyer's budgets (this publisher's, then every publisher's together) and
      // the spend increase are one statement; a used key raises nothing.
      sql: `UPDATE monthly_spend SET metered_micros = metered_micros + ?1
            WHERE buyer_id = ?2 AND publisher_id = ?3 AND month = ?4 AND metered_micros + ?1 <= ?5
              AND NOT EXISTS (SELECT 1 FROM buyer_budgets WHERE buyer_id = ?2 AND scope = ?3
                AND monthly_micros < metered_micros + license_micros + ?1)
              AND NOT EXISTS (SELECT 1 FROM buyer_budgets WHERE buyer_id = ?2 AND scope = '*'
                AND monthly_micros < ?1 + (SELECT SUM(metered_micros + license_micros)
                  FROM monthly_spend WHERE buyer_id = ?2 AND month = ?4))
              AND NOT EXISTS (SELECT 1 FROM charges WHERE buyer_id = ?2 AND idempotency_key = ?6)
            RETURNING metered_micros AS spent, metered_micros + license_micros AS budget_spent,
              (SELECT monthly_micros FROM buyer_budgets WHERE buyer_id = ?2 AND scope = ?3)
                AS publisher_budget,
              (SELECT monthly_micros FROM buyer_budgets WHERE buyer_id = ?2 AND scope = '*')
                AS overall_budget,
              CASE WHEN EXISTS (SELECT 1 FROM buyer_budgets WHERE buyer_id = ?2 AND scope = '*')
                THEN (SELECT SUM(metered_micros + license_micros) FROM monthly_spend
                  WHERE buyer_id = ?2 AND month = ?4) END AS overall_spent,
              EXISTS (SELECT 1 FROM statements WHERE buyer_id = ?2 AND month = ?4
                AND state = 'closed') AS month_closed`,
      args: [c.micros, c.buyerId, c.publisherId, c.month, c.capMicros, c.idempotencyKey],
    },
    {
      // Written only when the UPDATE above raised the spend (changes() = 1). The statement is the
      // month's unless it is already closed: then the next month's, as an adjustment line.
      sql: `INSERT INTO charges (id, buyer_id, publisher_id, article_id, use_case, kind,
              price_micros, fee_micros, month, statement_month, idempotency_key, request_hash,
              identity, surface, created_at, paid_via)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?,
              CASE WHEN EXISTS (SELECT 1 FROM statements WHERE buyer_id = ? AND month = ?
                AND state = 'closed') THEN ? ELSE ? END,
              ?, ?, ?, ?, ?, ? WHERE changes() = 1`,
      args: [
        c.id,
        c.buyerId,
        c.publisherId,
        c.articleId,
        c.useCase,
        c.kind,
        c.priceMicros,
        c.feeMicros,
        c.month,
        c.buyerId,
        c.month,
        nextMonth(c.month),
        c.month,
        c.idempotencyKey,
        c.requestHash,
        c.identity,
        c.surface,
        c.now.getTime(),
        c.paidVia ?? null,
      ],
    },
  ];
}
