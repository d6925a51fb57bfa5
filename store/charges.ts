/** Persistence of the ledger (charges). Amounts are integer micro-dollars. */
import type { InStatement } from "@libsql/client";
import { setImmediate } from "node:timers";
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

/** What a capped charge's write did (see insertChargeWithinCap). */
export interface CappedChargeResult {
  written: boolean;
  prior: { id: string; requestHash: string } | null;
  /** The statement month the written row landed on (null when nothing was written). */
  statementMonth: string | null;
  /**
   * After the write: what the cap and budgets count and allow (null when nothing was written).
   * A write of several charges leaves one state; `addedAfter` holds the amounts of the charges it
   * wrote after this one (the spend right after this one is the state less their sum).
   */
  spend: SpendState | null;
  addedAfter: number[];
}

/**
 * Raises the month's spend and writes the ledger row in one batch, only if the spend stays within
 * the cap and the buyer's budgets (store/budgets.ts) and the idempotency key is unused. The batch
 * runs without yielding in this process and under SQLite's write lock across processes, so no
 * concurrent read can push a month past the cap (store/write_lock.ts explains why a batch, not an
 * interactive transaction). `written` is true when this call wrote the row (`prior` is then that
 * row, `spend` the month's spend and budgets as this write left them, read under its lock: the
 * read path asks nothing before it); otherwise `prior` is the row the key already names, if any.
 *
 * Charges asked for in one turn of the event loop for the same buyer, publisher and month are
 * written as one: one UPDATE raises the spend by their sum and one INSERT writes their rows
 * (about 60 µs of SQL a charge alone, docs/PERFORMANCE.md). Every prefix of a sum within the cap
 * and budgets is within them too, so each charge's own spend after it is exact (the sum less the
 * charges after it); a sum refused, or a batch that fails, is written again one charge at a time,
 * so each charge gets the answer it would have had alone. Nothing is acknowledged before its
 * commit, as before.
 */
export function insertChargeWithinCap(db: Client, c: CappedCharge): Promise<CappedChargeResult> {
  return new Promise((resolve, reject) => {
    let pending = pendingCharges.get(db);
    if (!pending) pendingCharges.set(db, pending = []);
    pending.push({ charge: c, resolve, reject });
    if (pending.length === 1) setImmediate(() => flushCharges(db));
  });
}

interface PendingCharge {
  charge: CappedCharge;
  resolve: (result: CappedChargeResult) => void;
  reject: (err: unknown) => void;
}

/** Charges waiting for the end of this turn, per store. */
const pendingCharges = new WeakMap<Client, PendingCharge[]>();
/** Charges written as one at most (the INSERT binds 12 values a row). */
const MAX_SET = 64;

/**
 * Writes this turn's charges: those of one buyer, publisher and month as one set each. A key met
 * twice in the turn (a retry racing its first try) is written alone, after, so the key's first
 * row decides which one is the duplicate, as it would without sets.
 */
function flushCharges(db: Client): void {
  const pending = pendingCharges.get(db) ?? [];
  pendingCharges.delete(db);
  const sets = new Map<string, PendingCharge[]>(); // the set still filling, per key
  const all: PendingCharge[][] = []; // every set, in the order they began
  const alone: PendingCharge[] = [];
  const keys = new Set<string>();
  for (const p of pending) {
    const { buyerId, idempotencyKey } = p.charge;
    if (idempotencyKey !== null) {
      const key = `${buyerId}\n${idempotencyKey}`;
      if (keys.has(key)) {
        alone.push(p);
        continue;
      }
      keys.add(key);
    }
    const setKey = `${spendRowKey(p.charge)}\n${p.charge.capMicros}`;
    const open = sets.get(setKey);
    if (open && open.length < MAX_SET) open.push(p);
    else {
      const set = [p];
      sets.set(setKey, set);
      all.push(set);
    }
  }
  for (const set of all) {
    if (set.length === 1) settle(set[0], insertOne(db, set[0].charge));
    else void insertSet(db, set);
  }
  for (const p of alone) settle(p, insertOne(db, p.charge));
}

function settle(p: PendingCharge, result: Promise<CappedChargeResult>): void {
  result.then(p.resolve, p.reject);
}

const spendRowKey = (c: CappedCharge) => `${c.buyerId}\n${c.publisherId}\n${c.month}`;

function knownRows(db: Client): BoundedCache<string, true> {
  let known = knownSpendRows.get(db);
  if (!known) knownSpendRows.set(db, known = new BoundedCache(KNOWN_SPEND_ROWS));
  return known;
}

/** Writes a set of charges of one buyer, publisher and month as one, or each alone if refused. */
async function insertSet(db: Client, set: PendingCharge[]): Promise<void> {
  const charges = set.map((p) => p.charge);
  const first = charges[0];
  const known = knownRows(db);
  const skipUpsert = known.has(spendRowKey(first));
  const results = await db.batch(
    [...(skipUpsert ? [] : [spendRowUpsert(first)]), ...chargeWrite(charges)],
    "write",
  ).catch(() => null);
  const raised = results?.at(-2);
  if (!raised || raised.rows.length !== 1) {
    // Refused (over the cap or a budget, a key used, no spend row) or failed: each one alone.
    for (const p of set) settle(p, insertOne(db, p.charge));
    return;
  }
  known.set(spendRowKey(first), true);
  const row = raised.rows[0];
  const statementMonth = Number(row.month_closed) ? nextMonth(first.month) : first.month;
  const spend = spendOf(row);
  set.forEach((p, i) => {
    const c = p.charge;
    p.resolve({
      written: true,
      prior: { id: c.id, requestHash: c.requestHash },
      statementMonth,
      spend,
      addedAfter: charges.slice(i + 1).map((later) => later.micros),
    });
  });
}

/**
 * One charge alone. Only the UPDATE returns a row: a RETURNING clause costs SQLite about 15 µs a
 * statement (docs/PERFORMANCE.md), so the ledger INSERT answers by its change count and the
 * UPDATE says whether the month's statement is closed. The spend row is created once per buyer,
 * publisher and month; a charge that knows it exists skips that statement, and should the row be
 * missing after all (nothing in Folio deletes one; a hand or another tool might), the UPDATE
 * raises nothing, a look finds no row and the charge runs again with it.
 */
async function insertOne(db: Client, c: CappedCharge): Promise<CappedChargeResult> {
  const known = knownRows(db);
  const rowKey = spendRowKey(c);
  const skipUpsert = known.has(rowKey);
  const results = await db.batch(
    [...(skipUpsert ? [] : [spendRowUpsert(c)]), ...chargeWrite([c])],
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
      addedAfter: [],
    };
  }
  if (skipUpsert && !(await spendRowExists(db, c))) {
    known.delete(rowKey);
    return insertOne(db, c);
  }
  known.set(rowKey, true);
  if (c.idempotencyKey === null) {
    return { written, prior: null, statementMonth: null, spend: null, addedAfter: [] };
  }
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
    addedAfter: [],
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

/**
 * The cap-and-budget UPDATE raising the spend by the charges' sum (added up by SQLite, in exact
 * integers) and the ledger INSERT it lets through, for charges of one buyer, publisher and month.
 */
function chargeWrite(charges: CappedCharge[]): InStatement[] {
  const c = charges[0];
  const keys = charges.flatMap((c) => c.idempotencyKey === null ? [] : [c.idempotencyKey]);
  const keyList = keys.map((_, i) => `?${5 + charges.length + i}`).join(", ");
  const sum = charges.length === 1 ? "?5" : `(${charges.map((_, i) => `?${5 + i}`).join(" + ")})`;
  return [
    {
      // The cap check, the buyer's budgets (this publisher's, then every publisher's together) and
      // the spend increase are one statement; a used key raises nothing.
      sql: `UPDATE monthly_spend SET metered_micros = metered_micros + ${sum}
            WHERE buyer_id = ?2 AND publisher_id = ?3 AND month = ?4 AND metered_micros + ${sum} <= ?1
              AND NOT EXISTS (SELECT 1 FROM buyer_budgets WHERE buyer_id = ?2 AND scope = ?3
                AND monthly_micros < metered_micros + license_micros + ${sum})
              AND NOT EXISTS (SELECT 1 FROM buyer_budgets WHERE buyer_id = ?2 AND scope = '*'
                AND monthly_micros < ${sum} + (SELECT SUM(metered_micros + license_micros)
                  FROM monthly_spend WHERE buyer_id = ?2 AND month = ?4))${
        keys.length
          ? `
              AND NOT EXISTS (SELECT 1 FROM charges WHERE buyer_id = ?2
                AND idempotency_key IN (${keyList}))`
          : ""
      }
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
      args: [
        c.capMicros,
        c.buyerId,
        c.publisherId,
        c.month,
        ...charges.map((c) => c.micros),
        ...keys,
      ],
    },
    ledgerInsert(charges),
  ];
}

/** A ledger row's own values, in LEDGER_COLUMNS' order after the shared ones. */
const rowValues = (c: CappedCharge) => [
  c.id,
  c.articleId,
  c.useCase,
  c.kind,
  c.priceMicros,
  c.feeMicros,
  c.idempotencyKey,
  c.requestHash,
  c.identity,
  c.surface,
  c.now.getTime(),
  c.paidVia ?? null,
];

/**
 * The ledger rows, written only when the UPDATE before it raised the spend (changes() = 1; SQLite
 * counts a statement's changes when it ends, so every row sees the UPDATE's). The statement is
 * the month's unless it is already closed: then the next month's, as an adjustment line.
 */
function ledgerInsert(charges: CappedCharge[]): InStatement {
  const c = charges[0];
  const own = (i: number) => charges.length === 1 ? `?${5 + i}` : `column${i + 1}`;
  const select = `SELECT ${own(0)}, ?1, ?2, ${own(1)}, ${own(2)}, ${own(3)}, ${own(4)}, ${
    own(5)
  }, ?3,
              CASE WHEN EXISTS (SELECT 1 FROM statements WHERE buyer_id = ?1 AND month = ?3
                AND state = 'closed') THEN ?4 ELSE ?3 END,
              ${own(6)}, ${own(7)}, ${own(8)}, ${own(9)}, ${own(10)}, ${own(11)}`;
  const values = charges.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
  return {
    sql: `INSERT INTO charges (id, buyer_id, publisher_id, article_id, use_case, kind,
            price_micros, fee_micros, month, statement_month, idempotency_key, request_hash,
            identity, surface, created_at, paid_via)
            ${select}
            ${charges.length === 1 ? "" : `FROM (VALUES ${values})`} WHERE changes() = 1`,
    args: [c.buyerId, c.publisherId, c.month, nextMonth(c.month), ...charges.flatMap(rowValues)],
  };
}
