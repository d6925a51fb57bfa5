/**
 * An article or chapter page on the publisher's host: the one access decision on surface `landing`
 * for this visitor (access.ts), then the answer in HTML and, for crawlers, in the pay-per-crawl
 * dialect (server/surfaces/landing/pay_per_crawl.ts).
 */
import type { Context } from "hono";
import { LICENSE_REQUIRED, licenseLink } from "./rsl.ts";
import type { Article } from "../../../store/articles.ts";
import { getBook } from "../../../store/books.ts";
import { SiteArticle } from "../../../ui/site/mod.ts";
import type { SiteArticleView } from "../../../ui/site/types.ts";
import { renderSite } from "../../../ui/site/mod.ts";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import type { Decision } from "../../domain/licensing/mod.ts";
import { formatCrawlerPrice } from "./crawler_price.ts";
import { brandOf, cardOf, teaserOf } from "./pages.ts";
import { pageAccess } from "./access.ts";
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE } from "../../domain/x402/load.ts";

/** Answers the article page the site found, for the visitor it identified (both on `c.var`). */
export async function articlePage(deps: AppDeps, c: Context<PublishedEnv>): Promise<Response> {
  const article = c.get("article")!;
  const access = await pageAccess(deps, c, article);
  if (!access) return c.notFound();
  if (access.quoteMicros !== null) {
    c.header("crawler-price", formatCrawlerPrice(access.quoteMicros));
    c.header("WWW-Authenticate", LICENSE_REQUIRED);
  }
  if (access.chargedMicros !== null) {
    c.header("crawler-charged", formatCrawlerPrice(access.chargedMicros));
  }
  // A paid read answers its signed receipt (docs/decisions/billing.md "Items, receipts").
  if (access.charge) {
    c.header("Folio-Receipt", access.charge.receipt);
  }
  // x402 (docs/decisions/x402.md): what to pay on chain, or the settlement of what was paid.
  if (access.x402?.paymentRequired) c.header(PAYMENT_REQUIRED, access.x402.paymentRequired);
  if (access.x402?.paymentResponse) c.header(PAYMENT_RESPONSE, access.x402.paymentResponse);
  return render(deps, c, {
    article,
    decision: access.decision,
    access: access.access,
    status: access.status,
  });
}

async function render(
  deps: AppDeps,
  c: Context<PublishedEnv>,
  opts: { article: Article; decision: Decision; access: SiteArticleView["access"]; status: number },
): Promise<Response> {
  const publisher = c.get("publisher");
  const { article, decision } = opts;
  const base = c.get("siteBase") ?? "";
  const brand = brandOf(deps, publisher, base);
  const card = cardOf(article, decision.policy);
  const price = decision.charge?.micros ?? decision.quote?.micros ?? null;
  const chapter = article.kind === "chapter" && article.bookId
    ? await chapterOf(deps, publisher.id, article, base)
    : undefined;
  const view: SiteArticleView = {
    brand,
    article: {
      ...card,
      body: opts.access === "full" ? article.body : "",
      // The publisher's own URL is canonical; a chapter's is its page here.
      canonicalUrl: article.canonicalUrl ??
        (/^https?:/.test(article.url) ? article.url : `${brand.origin}${card.path}`),
      chapter,
    },
    access: opts.access,
    teaser: opts.access === "blocked"
      ? ""
      : decision.deliver === "summary"
      ? article.summary
      : teaserOf(article),
    priceUsd: price === null ? null : formatCrawlerPrice(price).slice("USD ".length),
    signupUrl: `${deps.config.baseUrl}/buyer`,
    // With agent payments off no page tells a crawler to pay: retrying changes nothing.
    payPerCrawl: publisher.agentPayments.enabled,
    reason: decision.reason,
  };
  c.header("Link", licenseLink(brand.licenseXmlUrl));
  // The answer depends on who asks: shared caches must not keep it.
  c.header("Cache-Control", "private, no-store");
  c.header("Vary", "User-Agent, Authorization");
  return c.html(renderSite(SiteArticle(view)), opts.status as 200);
}

async function chapterOf(deps: AppDeps, publisherId: string, article: Article, base: string) {
  const book = await getBook(deps.store.db, publisherId, article.bookId!);
  if (!book) return undefined;
  const n = article.chapterNo!;
  const path = (no: number) => `${base}/books/${book.id}/chapters/${no}`;
  return {
    bookId: book.id,
    bookTitle: book.title,
    no: n,
    prevPath: n > 1 ? path(n - 1) : null,
    nextPath: n < book.chapters ? path(n + 1) : null,
  };
}
