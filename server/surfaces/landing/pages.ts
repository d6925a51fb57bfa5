/**
 * The publisher-host pages' data: listings that obey the access decision, and the views the
 * components of ui/site/ render. Listings are free to every visitor (titles and summaries); what an
 * article page shows is decided per visitor in server/surfaces/landing/article.ts.
 */
import { type Article, listRecent, sitePathOf, topTags } from "../../../store/articles.ts";
import { bookCeilings } from "../../../store/book_ceilings.ts";
import { listBooks } from "../../../store/books.ts";
import type { Publisher } from "../../../store/publishers.ts";
import type {
  ArticleCard,
  SiteBrand,
  SiteHomeView,
  SiteTopicView,
} from "../../../ui/site/types.ts";
import type { AppDeps } from "../../deps.ts";
import { decide } from "../../domain/licensing/mod.ts";
import { inputFor, readContext } from "../../domain/reads/read_article.ts";
import type { Caller } from "../../domain/reads/requester.ts";
import { publisherUrls } from "../../platform/urls.ts";

/** Articles per listing page. */
export const PAGE_SIZE = 20;

/** The publisher's branding and the links every page carries. */
/**
 * The site as its pages show it. `base` is the path prefix its pages are served under: "" on the
 * publisher's domain, `platformSitePath()` on the platform's host.
 */
export function brandOf(
  deps: Pick<AppDeps, "config">,
  publisher: Publisher,
  base = "",
): SiteBrand {
  const urls = publisherUrls(deps.config, publisher);
  const origin = base ? `${deps.config.baseUrl}${base}` : urls.host ?? deps.config.baseUrl;
  return {
    base,
    name: publisher.name,
    description: publisher.description,
    logoUrl: publisher.branding.logoUrl,
    primaryColor: publisher.branding.primaryColor,
    font: publisher.branding.font,
    origin,
    termsUrl: urls.terms,
    licenseXmlUrl: `${origin}/license.xml`,
  };
}

/** How an article is listed. */
export function cardOf(article: Article, policy: ArticleCard["policy"]): ArticleCard {
  return {
    title: article.title,
    path: sitePathOf(article) || `/${article.id}`,
    author: article.author,
    publishedAt: article.publishedAt,
    summary: article.summary,
    tags: article.tags,
    kind: article.kind,
    policy,
  };
}

/**
 * One page of the latest articles (optionally of a tag) that the caller may see: the access
 * decision for display leaves out what a territory or the BLOCKED policy withholds.
 */
export async function visibleCards(
  deps: AppDeps,
  req: { publisher: Publisher; caller: Caller; page: number; tag?: string },
): Promise<{ cards: ArticleCard[]; hasNext: boolean }> {
  const now = deps.clock.now();
  const [ctx, batch] = await Promise.all([
    readContext(deps.store.db, req, now),
    listRecent(deps.store.db, req.publisher.id, {
      limit: PAGE_SIZE + 1,
      offset: (req.page - 1) * PAGE_SIZE,
      tag: req.tag,
    }),
  ]);
  const ceilings = await bookCeilings(deps.store.db, req.publisher.id, batch);
  const cards = batch.slice(0, PAGE_SIZE).flatMap((article) => {
    const ceiling = article.bookId ? ceilings.get(article.bookId) ?? null : null;
    const d = decide(inputFor(ctx, article, { use: "display", ceiling, now }));
    return d.outcome === "blocked" || d.outcome === "territory_blocked"
      ? []
      : [cardOf(article, d.policy)];
  });
  return { cards, hasNext: batch.length > PAGE_SIZE };
}

/** The front page: the latest articles, the topics and the books. */
export async function homeView(
  deps: AppDeps,
  req: { publisher: Publisher; caller: Caller; page: number; base: string },
): Promise<SiteHomeView> {
  const [latest, topics, books] = await Promise.all([
    visibleCards(deps, req),
    topTags(deps.store.db, req.publisher.id, { limit: 30 }),
    listBooks(deps.store.db, req.publisher.id),
  ]);
  return {
    brand: brandOf(deps, req.publisher, req.base),
    latest: latest.cards,
    topics,
    books: books.map((b) => ({ id: b.id, title: b.title, author: b.author, chapters: b.chapters })),
    paging: { page: req.page, hasNext: latest.hasNext, basePath: `${req.base}/` },
  };
}

/** A topic's page. */
export async function topicView(
  deps: AppDeps,
  req: { publisher: Publisher; caller: Caller; page: number; tag: string; base: string },
): Promise<SiteTopicView> {
  const found = await visibleCards(deps, req);
  return {
    brand: brandOf(deps, req.publisher, req.base),
    tag: req.tag,
    articles: found.cards,
    paging: {
      page: req.page,
      hasNext: found.hasNext,
      basePath: `${req.base}/topics/${encodeURIComponent(req.tag)}`,
    },
  };
}

/** The opening of an article shown above the paywall: its first paragraphs, about 600 characters. */
export function teaserOf(article: Pick<Article, "body" | "summary">): string {
  const out: string[] = [];
  let length = 0;
  for (const para of article.body.split(/\n\s*\n/)) {
    const text = para.trim();
    if (!text || text.startsWith("#")) continue;
    out.push(text);
    length += text.length;
    if (length >= 600) break;
  }
  const teaser = out.join("\n\n");
  if (teaser.length <= 900) return teaser || article.summary;
  return `${teaser.slice(0, 900).replace(/\s+\S*$/, "")}…`;
}

/** A `?page=` value: a positive integer, else the first page. */
export function pageParam(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}
