/**
 * Reading one article on any surface: gather the facts, take the one access decision, then record
 * it (reader intent, charge or meter) so every surface bills and counts the same way.
 */
import { readView } from "../../../store/config_cache.ts";
import { inSpan, meters } from "../../platform/telemetry.ts";
import { type Article, findArticle } from "../../../store/articles.ts";
import { bookCeiling } from "../../../store/books.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";
import { listRules } from "../../../store/rules.ts";
import { type SpendState, spendState } from "../../../store/budgets.ts";
import { meterCount, takeMeteredRead } from "../../../store/usage.ts";
import { chargeRead } from "../billing/metering.ts";
import { type ItemWire, itemWire } from "../billing/items.ts";
import type { Receipts } from "../billing/receipts.ts";
import { type ChargeItem, getChargeItem } from "../../../store/charge_items.ts";
import { newTimeOrderedId } from "../../../store/ids.ts";
import type { CallLog } from "../../platform/call_log.ts";
import { type Clock, monthOf } from "../../platform/clock.ts";
import {
  type ArticleFacts,
  type Charge,
  type ContentRule,
  decide,
  type Decision,
  type DecisionInput,
  type Requester,
  type Rights,
  type UsageState,
  type UseCase,
} from "../licensing/mod.ts";
import { METERED_CAP_MICROS, subtractMicros } from "../../platform/money.ts";
import { type Caller, requesterFor } from "./requester.ts";
import { noteArticleRead } from "../../platform/call_scope.ts";

/** What a surface asks for. */
export interface ReadRequest {
  publisher: Publisher;
  idOrUrl: string;
  /** The article `idOrUrl` names, when the surface has already found it (the landing path). */
  article?: Article;
  caller: Caller;
  /** display = full body; summarization = summary; fine_tuning = body for training. */
  use: UseCase;
  /** Verbatim text of the end user's latest prompt, for reader-intent analytics. */
  lastUserPrompt?: string | null;
  idempotencyKey?: string | null;
  /** Collected at the read: `x402`, settled on chain before the charge (docs/decisions/x402.md). */
  paidVia?: "x402" | null;
}

/** The article and the decision about it; `article` is null when it does not exist. */
export interface ReadResult {
  article: Article | null;
  decision: Decision | null;
  /**
   * The ledger entry this read created or matched (retries with the same key match), and what the
   * buyer can still spend with this publisher this month: the least of the cap's and the budgets'
   * room after this read.
   */
  charge: {
    chargeId: string;
    micros: number;
    duplicate: boolean;
    remainingMicros: number;
    /** The charge item (a retry: the first read's) and its signed receipt (compact JWS). */
    item: ItemWire;
    receipt: string;
  } | null;
}

/**
 * Decides about one article without recording anything (no charge, meter or intent): for uses
 * that show only metadata, such as a citation. `article` is null when it does not exist.
 */
export async function peekArticle(
  deps: { db: Client; clock: Clock },
  req: Pick<ReadRequest, "publisher" | "idOrUrl" | "article" | "caller" | "use">,
): Promise<{ article: Article | null; decision: Decision | null }> {
  const found = await gather(deps.db, req, deps.clock.now());
  return found
    ? { article: found.article, decision: found.decision }
    : { article: null, decision: null };
}

/**
 * What recording a read needs: the store, the clock, the call log that writes intents, and the
 * receipts that sign each charge.
 */
export interface ReadDeps {
  db: Client;
  clock: Clock;
  intents: Pick<CallLog, "recordIntent">;
  receipts: Pick<Receipts, "sign">;
}

/** Decides and records one read. */
export function readArticle(
  deps: ReadDeps,
  req: ReadRequest,
): Promise<ReadResult> {
  const surface = req.caller.surface;
  return inSpan("folio.read", { "folio.surface": surface, "folio.use": req.use }, async (span) => {
    const result = await read(deps, req);
    if (result.decision) {
      span.setAttributes({
        "folio.article_id": result.article!.id,
        "folio.outcome": result.decision.outcome,
        "folio.policy": result.decision.policy,
      });
      meters.decisions.add(1, { surface, use: req.use, outcome: result.decision.outcome });
    }
    return result;
  });
}

async function read(deps: ReadDeps, req: ReadRequest): Promise<ReadResult> {
  const { db } = deps;
  const now = deps.clock.now();
  // Decided as if within the cap and budgets: the charge's write checks both under its lock and
  // returns the spend it left, so the read asks the store nothing about spend before it writes
  // (a write refused as capped reads the spend and decides again, below).
  const found = await gather(db, req, now, { spend: false });
  if (!found) return { article: null, decision: null, charge: null };
  const { article, input } = found;
  let { decision } = found;
  let charge: ReadResult["charge"] = null;

  if (decision.charge && req.caller.buyerId) {
    const charged = await chargeAndSign(deps, req, { article, charge: decision.charge, now });
    if (charged) charge = charged;
    else {
      // Another read won the last of the cap or a budget between our look and our write: decide
      // again on the spend as it is now; should that still charge, the write's refusal stands.
      const spend = await spendState(db, req.caller.buyerId, {
        publisherId: req.publisher.id,
        month: monthOf(now),
      });
      decision = decide({ ...input, usage: { ...input.usage, ...usageOf(spend) } });
      if (decision.charge) {
        decision = decide({
          ...input,
          usage: { ...input.usage, spentThisMonthMicros: METERED_CAP_MICROS },
        });
      }
    }
  }
  if (decision.countsAgainstMeter) {
    const took = await takeMeteredRead(db, req.publisher.id, {
      identity: req.caller.identity,
      month: monthOf(now),
      limit: req.publisher.paywallMeterLimit,
      articleId: article.id,
      now,
    });
    if (!took) {
      decision = decide({
        ...input,
        usage: { ...input.usage, meterCount: req.publisher.paywallMeterLimit },
      });
    }
  }
  if (req.lastUserPrompt) {
    deps.intents.recordIntent({
      publisherId: req.publisher.id,
      articleId: article.id,
      prompt: req.lastUserPrompt,
      identity: req.caller.identity,
      surface: req.caller.surface,
      at: now,
    });
  }
  return { article, decision, charge };
}

/**
 * Writes the charge within the cap and budgets and signs its receipt; null when the write refused
 * it (capped). The receipt of the row this read would write is signed before the write (the
 * charge id and month are the read's own), and answered only if the write made that row as
 * signed; a retry answers the first read's row, read back, and its receipt.
 */
async function chargeAndSign(
  deps: ReadDeps,
  req: ReadRequest,
  read: { article: Article; charge: Charge; now: Date },
): Promise<NonNullable<ReadResult["charge"]> | null> {
  const { db } = deps;
  const { article, now } = read;
  const buyerId = req.caller.buyerId!;
  const month = monthOf(now);
  const chargeId = newTimeOrderedId("chg", now);
  const rowOf = (statementMonth: string): ChargeItem => ({
    id: chargeId,
    buyerId,
    publisherId: req.publisher.id,
    publisherName: req.publisher.name,
    articleId: article.id,
    articleUrl: article.canonicalUrl ?? article.url,
    articleTitle: article.title,
    licenseId: null,
    kind: read.charge.kind,
    useCase: read.charge.use,
    surface: req.caller.surface,
    priceMicros: subtractMicros(read.charge.micros, read.charge.feeMicros),
    feeMicros: read.charge.feeMicros,
    idempotencyKey: req.idempotencyKey || null,
    month,
    statementMonth,
    prepaid: Boolean(req.paidVia),
    createdAt: now.getTime(),
  });
  // Most rows land on their own month's statement (a closed one sends them to the next).
  const expected = itemWire(rowOf(month));
  const signing = deps.receipts.sign(buyerId, expected);
  const result = await chargeRead(db, {
    chargeId,
    buyerId,
    publisherId: req.publisher.id,
    articleId: article.id,
    charge: read.charge,
    identity: req.caller.identity,
    surface: req.caller.surface,
    idempotencyKey: req.idempotencyKey,
    paidVia: req.paidVia,
    now,
  }).catch(async (err) => {
    await signing.catch(() => {});
    throw err;
  });
  if (result.status !== "charged") await signing.catch(() => {}); // not this read's row
  if (result.status === "capped") return null;
  let item: ItemWire;
  let receipt: string;
  let spend: SpendState;
  if (result.status === "charged") {
    spend = result.spend;
    item = result.statementMonth === month ? expected : itemWire(rowOf(result.statementMonth));
    receipt = item === expected ? await signing : await deps.receipts.sign(buyerId, item);
  } else {
    const [row, current] = await Promise.all([
      getChargeItem(db, buyerId, result.chargeId),
      spendState(db, buyerId, { publisherId: req.publisher.id, month }),
    ]);
    spend = current;
    item = itemWire(row!);
    receipt = await deps.receipts.sign(buyerId, item);
  }
  return {
    chargeId: result.chargeId,
    micros: item.amountUsdMicros,
    duplicate: result.status === "duplicate",
    remainingMicros: Math.max(0, roomOf(usageOf(spend))),
    item,
    receipt,
  };
}

/**
 * The article, the decision input for it and the decision taken on it, or null when the article
 * does not exist.
 */
async function gather(
  db: Client,
  req: Pick<ReadRequest, "publisher" | "idOrUrl" | "article" | "caller" | "use">,
  now: Date,
  options: { spend?: boolean } = {},
): Promise<{ article: Article; input: DecisionInput; decision: Decision } | null> {
  // The publisher was looked up in this request: its lookups read no version again.
  const view = readView(db, req.publisher);
  const article = req.article ?? await findArticle(view, req.publisher.id, req.idOrUrl);
  if (!article) return null;
  noteArticleRead(article.id); // the call log shows which page each call read
  const ctx = await readContext(view, req, now, { meter: false, spend: options.spend });
  const ceiling = article.bookId ? await bookCeiling(view, req.publisher.id, article.bookId) : null;
  const input = inputFor(ctx, article, { use: req.use, ceiling, now });
  // The meter is read only when it can change the outcome: the decision reaches it only for a
  // non-buyer's paid read, and then a free read would count against it (an OBSERVE read skips
  // the query).
  const decision = decide(input);
  if (req.caller.buyerId || !decision.countsAgainstMeter) return { article, input, decision };
  const count = await meterCount(db, req.publisher.id, {
    identity: req.caller.identity,
    month: monthOf(now),
    articleId: article.id,
  });
  const metered = { ...input, usage: { ...input.usage, meterCount: count } };
  return { article, input: metered, decision: decide(metered) };
}

/** Everything the decision needs that does not depend on the article: gathered once. */
export interface ReadContext {
  publisher: Pick<Publisher, "id" | "name" | "rights" | "pricesMicros" | "paywallMeterLimit">;
  rules: ContentRule[];
  requester: Requester;
  usage: UsageState;
}

/**
 * Gathers the publisher's rules and the caller's licenses and month counters; `meter: false`
 * leaves the paywall meter at 0 for a caller that reads it only when it matters, `spend: false`
 * leaves a buyer's spend at 0 and its budgets unset for a read whose charge write checks them.
 */
export async function readContext(
  db: Client,
  req: Pick<ReadRequest, "publisher" | "caller">,
  now: Date,
  options: { meter?: boolean; spend?: boolean } = {},
): Promise<ReadContext> {
  const month = monthOf(now);
  const { publisher, caller } = req;
  const view = readView(db, publisher); // the request's: see gather()
  const [rules, requester, spend, metered] = await Promise.all([
    listRules(view, publisher.id),
    requesterFor(view, publisher.id, caller, { now }),
    caller.buyerId && options.spend !== false
      ? spendState(db, caller.buyerId, { publisherId: publisher.id, month })
      : null,
    caller.buyerId || options.meter === false
      ? 0
      : meterCount(db, publisher.id, { identity: caller.identity, month }),
  ]);
  return {
    publisher: {
      id: publisher.id,
      name: publisher.name,
      rights: publisher.rights,
      pricesMicros: publisher.pricesMicros,
      paywallMeterLimit: publisher.paywallMeterLimit,
    },
    rules,
    requester,
    usage: { ...usageOf(spend), meterCount: metered },
  };
}

/** The decision's view of a buyer's spend: what the cap counts and what the budgets still allow. */
function usageOf(
  spend: SpendState | null,
): Pick<UsageState, "spentThisMonthMicros" | "budgetLeftMicros"> {
  if (!spend) return { spentThisMonthMicros: 0, budgetLeftMicros: null };
  const left = [
    spend.publisherBudgetMicros === null
      ? null
      : subtractMicros(spend.publisherBudgetMicros, spend.budgetSpentMicros),
    spend.overallBudgetMicros === null
      ? null
      : subtractMicros(spend.overallBudgetMicros, spend.overallSpentMicros),
  ].filter((v): v is number => v !== null);
  return {
    spentThisMonthMicros: spend.spentMicros,
    budgetLeftMicros: left.length ? Math.max(0, Math.min(...left)) : null,
  };
}

/** What the buyer may still spend with the publisher this month: the cap's room or the budget's. */
function roomOf(
  usage: Pick<UsageState, "spentThisMonthMicros" | "budgetLeftMicros">,
): number {
  const cap = subtractMicros(METERED_CAP_MICROS, usage.spentThisMonthMicros);
  return usage.budgetLeftMicros === null ? cap : Math.min(cap, usage.budgetLeftMicros);
}

/** The decision input for one article within a gathered context. */
export function inputFor(
  ctx: ReadContext,
  article: Article,
  options: { use: UseCase; ceiling: Rights | null; now: Date },
): DecisionInput {
  return {
    publisher: ctx.publisher,
    article: articleFacts(article, options.ceiling),
    rules: ctx.rules,
    requester: ctx.requester,
    use: options.use,
    usage: ctx.usage,
    now: options.now,
  };
}

/** What the decision reads of an article (an undated article counts as old: no embargo). */
export function articleFacts(
  article:
    & Pick<Article, "id" | "url" | "publishedAt" | "policy" | "priceMicros">
    & { canonicalUrl?: string | null },
  ceiling: Rights | null,
): ArticleFacts {
  return {
    id: article.id,
    url: article.url,
    citeUrl: article.canonicalUrl ?? article.url,
    publishedAt: article.publishedAt ?? new Date(0).toISOString(),
    policy: article.policy,
    priceMicros: article.priceMicros,
    bookCeiling: ceiling,
  };
}
