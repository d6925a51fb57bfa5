/**
 * What an x402 payer is quoted off the landing path (REST): the charge the one decision would make
 * for a buyer with no licenses, budgets or spend, which is what a payer's fresh account pays
 * (docs/decisions/x402.md "REST"). Nothing is recorded.
 *
 * @module
 */
import type { Article } from "../../../store/articles.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type { Client } from "../../../store/db.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Quote } from "../licensing/mod.ts";
import { peekArticle } from "../reads/read_article.ts";
import type { Caller } from "../reads/requester.ts";

/** No buyer has this id: it holds nothing and has spent nothing. */
const WOULD_BE_BUYER = "byr_x402_quote";

/** The article and what a payer would be charged for it; null when nothing would be charged. */
export async function x402Quote(
  deps: { db: Client; clock: Clock },
  req: { publisher: Publisher; idOrUrl: string; caller: Caller },
): Promise<{ article: Article; quote: Quote } | null> {
  const caller = { ...req.caller, buyerId: WOULD_BE_BUYER, identity: `buyer:${WOULD_BE_BUYER}` };
  const { article, decision } = await peekArticle(deps, { ...req, caller, use: "display" });
  if (!article || !decision?.charge) return null;
  return {
    article,
    quote: { micros: decision.charge.micros, feeMicros: decision.charge.feeMicros },
  };
}
