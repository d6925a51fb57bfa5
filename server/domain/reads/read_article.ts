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
import { getChargeItem } from "../../../store/charge_items.ts";
import type { CallLog } from "../../platform/call_log.ts";
import { type Clock, monthOf } from "../../platform/clock.ts";
import {
  type ArticleFacts,
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
  const found = await gather(db, req, now);
  if (!found) return { article: null, decision: null, charge: null };
  const { article, input } = found;
  let { decision } = found;
  let charge: ReadResult["charge"] = null;

  if (decision.charge && req.caller.buyerId) {
    const result = await chargeRead(db, {
      buyerId: req.caller.buyerId,
      publisherId: req.publisher.id,
      articleId: article.id,
      charge: decision.charge,
      identity: req.caller.identity,
      surface: req.caller.surface,
      idempotencyKey: req.idempotencyKey,
      now,
    });
    if (result.status === "capped") {
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
    } else {
      const duplicate = result.status === "duplicate";
      const room = roomOf(input.usage) - (duplicate ? 0 : decision.charge.micros);
      // The item as the ledger has it: the row just written (its statement month from the write),
      // or for a retry the first read's row, its time and key, read back.
      const row = result.status === "charged"
        ? {
          id: result.chargeId,
          buyerId: req.caller.buyerId,
          publisherId: req.publisher.id,
          publisherName: req.publisher.name,
          articleId: article.id,
          articleUrl: article.canonicalUrl ?? article.url,
          articleTitle: article.title,
          licenseId: null,
          kind: decision.charge.kind,
          useCase: decision.charge.use,
          surface: req.caller.surface,
          priceMicros: subtractMicros(decision.charge.micros, decision.charge.feeMicros),
          feeMicros: decision.charge.feeMicros,
          idempotencyKey: req.idempotencyKey || null,
          month: monthOf(now),
          statementMonth: result.statementMonth,
          prepaid: false,
          createdAt: now.getTime(),
        }
        : await getChargeItem(db, req.caller.buyerId, result.chargeId);
      const item = itemWire(row!);
      charge = {
        chargeId: result.chargeId,
        micros: item.amountUsdMicros,
        duplicate,
        remainingMicros: Math.max(0, room),
        item,
        receipt: await deps.receipts.sign(req.caller.buyerId, item),
      };
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
 * The article, the decision input for it and the decision taken on it, or null when the article
 * does not exist.
 */
async function gather(
  db: Client,
  req: Pick<ReadRequest, "publisher" | "idOrUrl" | "article" | "caller" | "use">,
  now: Date,
): Promise<{ article: Article; input: DecisionInput; decision: Decision } | null> {
  // The publisher was looked up in this request: its lookups read no version again.
  const view = readView(db, req.publisher);
  const article = req.article ?? await findArticle(view, req.publisher.id, req.idOrUrl);
  if (!article) return null;
  noteArticleRead(article.id); // the call log shows which page each call read
  const ctx = await readContext(view, req, now, { meter: false });
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
 * leaves the paywall meter at 0 for a caller that reads it only when it matters.
 */
export async function readContext(
  db: Client,
  req: Pick<ReadRequest, "publisher" | "caller">,
  now: Date,
  options: { meter?: boolean } = {},
): Promise<ReadContext> {
  const month = monthOf(now);
  const { publisher, caller } = req;
  const view = readView(db, publisher); // the request's: see gather()
  const [rules, requester, spend, metered] = await Promise.all([
    listRules(view, publisher.id),
    requesterFor(view, publisher.id, caller, { now }),
    caller.buyerId ? spendState(db, caller.buyerId, { publisherId: publisher.id, month }) : null,
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
function roomOf(usage: UsageState): number {
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
