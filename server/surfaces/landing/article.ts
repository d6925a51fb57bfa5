/**
 * An article or chapter page on the publisher's host: the one access decision on surface `landing`
 * for this visitor, then the answer in HTML and, for crawlers, in the pay-per-crawl dialect
 * (server/surfaces/landing/pay_per_crawl.ts). Nothing is recorded unless a paid read is served.
 */
import type { Context } from "hono";
import { licenseLink } from "./rsl.ts";
import type { Article } from "../../../store/articles.ts";
import { getBook } from "../../../store/books.ts";
import { SiteArticle } from "../../../ui/site/mod.ts";
import type { SiteArticleView } from "../../../ui/site/types.ts";
import { renderSite } from "../../../ui/site/mod.ts";
import type { AppDeps } from "../../deps.ts";
import type { PublishedEnv } from "../../platform/envelope.ts";
import { territoryOf } from "../../platform/identity.ts";
import type { Decision } from "../../domain/licensing/mod.ts";
import { peekArticle, readArticle } from "../../domain/reads/read_article.ts";
import { idempotencyKeyOf } from "../../domain/reads/inputs.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { formatCrawlerPrice } from "./crawler_price.ts";
import { brandOf, cardOf, teaserOf } from "./pages.ts";
import { CrawlerError, priceOffer, refusalOf } from "./pay_per_crawl.ts";
import { crawlTermsFor } from "./visitor.ts";

/** Answers the article page the site found, for the visitor it identified (both on `c.var`). */
export async function articlePage(deps: AppDeps, c: Context<PublishedEnv>): Promise<Response> {
  const publisher = c.get("publisher");
  const article = c.get("article")!;
  const visitor = c.get("visitor")!;
  const offer = visitor.treatment === "crawler" ? priceOffer(c.req.raw.headers) : null;
  const caller: Caller = {
    identity: visitor.identity,
    buyerId: visitor.buyerId,
    territory: territoryOf(deps.config, c.req.raw.headers),
    surface: "landing",
    crawl: await crawlTermsFor(deps, publisher, visitor, article),
  };
  const reads = {
    db: deps.store.db,
    clock: deps.clock,
    intents: deps.callLog,
    receipts: deps.receipts,
  };
  const req = { publisher, idOrUrl: article.id, article, caller, use: "display" as const };
  const { decision } = await peekArticle(reads, req);
  if (!decision) return c.notFound();
  const page = (status: 200 | 402 | 403 | 451, access: SiteArticleView["access"], d: Decision) =>
    render(deps, c, { article, decision: d, access, status });

  switch (decision.outcome) {
    case "blocked":
      // Blocking is not about payment: a named crawler is told in the dialect even when pages are free.
      if (visitor.treatment === "crawler" || visitor.crawler) {
        throw new CrawlerError("CrawlerForbidden", decision.reason);
      }
      return page(403, "blocked", decision);
    case "territory_blocked":
      return page(451, "blocked", decision);
    case "license_denied":
      if (decision.capped && offer && offer.kind !== "none") {
        throw new CrawlerError("PaymentFailed", decision.reason);
      }
      return page(403, "blocked", decision);
    case "license_limited":
      if (decision.capped && offer && offer.kind !== "none") {
        throw new CrawlerError("PaymentFailed", decision.reason);
      }
      return page(200, "teaser", decision);
    case "paywall_upsell":
      return page(200, "teaser", decision);
    case "payment_required": {
      // No buyer behind the request: a person sees the teaser; a crawler is quoted the price.
      if (visitor.treatment === "reader") return page(200, "teaser", decision);
      if (offer && offer.kind !== "none") {
        throw visitor.signature.kind === "verified"
          ? new CrawlerError(
            "PaymentFailed",
            `The key directory ${visitor.signature.agent} is not registered to a Folio buyer: register it in the buyer portal, or send a buyer key.`,
          )
          : new CrawlerError(
            "StrongAuthRequired",
            "A paid request needs a buyer credential: a Web Bot Auth signature from a registered key directory, or Authorization: Bearer <buyer key>.",
          );
      }
      c.header("crawler-price", formatCrawlerPrice(decision.quote!.micros));
      return page(402, "teaser", decision);
    }
    case "full":
      break;
  }
  if (!decision.charge) return page(200, "full", decision);

  // A buyer and a priced page: it pays only what it offered, with a credential that covers it.
  if (visitor.treatment === "reader") return page(200, "teaser", decision);
  const refused = refusalOf(offer!, decision.charge.micros);
  if (refused) {
    // A plain first request is quoted as Cloudflare does: 402 and the price, no error code.
    if (offer!.kind === "none" && visitor.buyerId === null) {
      c.header("crawler-price", formatCrawlerPrice(decision.charge.micros));
      return page(402, "teaser", decision);
    }
    throw refused;
  }
  if (
    visitor.via === "signature" && visitor.signature.kind === "verified" &&
    offer!.kind !== "none" && !visitor.signature.covered.includes(offer!.header)
  ) {
    throw new CrawlerError(
      "InvalidSignature",
      `${offer!.header} must be a covered component of the Web Bot Auth signature.`,
    );
  }
  const read = await readArticle(reads, {
    ...req,
    idempotencyKey: idempotencyKeyOf(c.req.header("idempotency-key")),
  });
  if (!read.decision || !read.charge) {
    // The cap or a budget was taken by another read between the look and the charge.
    throw new CrawlerError(
      "PaymentFailed",
      read.decision?.reason ?? "The charge did not go through.",
    );
  }
  c.header("crawler-charged", formatCrawlerPrice(read.charge.micros));
  c.header("Folio-Receipt", read.charge.receipt);
  return page(200, "full", read.decision);
}

async function render(
  deps: AppDeps,
  c: Context<PublishedEnv>,
  opts: { article: Article; decision: Decision; access: SiteArticleView["access"]; status: number },
): Promise<Response> {
  const publisher = c.get("publisher");
  const { article, decision } = opts;
  const brand = brandOf(deps, publisher);
  const card = cardOf(article, decision.policy);
  const price = decision.charge?.micros ?? decision.quote?.micros ?? null;
  const chapter = article.kind === "chapter" && article.bookId
    ? await chapterOf(deps, publisher.id, article)
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
    reason: decision.reason,
  };
  c.header("Link", licenseLink(brand.licenseXmlUrl));
  // The answer depends on who asks: shared caches must not keep it.
  c.header("Cache-Control", "private, no-store");
  c.header("Vary", "User-Agent, Authorization");
  return c.html(renderSite(SiteArticle(view)), opts.status as 200);
}

async function chapterOf(deps: AppDeps, publisherId: string, article: Article) {
  const book = await getBook(deps.store.db, publisherId, article.bookId!);
  if (!book) return undefined;
  const n = article.chapterNo!;
  const path = (no: number) => `/books/${book.id}/chapters/${no}`;
  return {
    bookId: book.id,
    bookTitle: book.title,
    no: n,
    prevPath: n > 1 ? path(n - 1) : null,
    nextPath: n < book.chapters ? path(n + 1) : null,
  };
}
