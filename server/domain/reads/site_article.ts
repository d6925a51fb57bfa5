/**
 * The article a URL on a publisher's host names, as the crawler gate and the RSL license server
 * find it (docs/decisions/crawler-gate.md "Finding the article"): the URL Folio ingested or its
 * canonical URL (a query may name the page: ?p=123), else the path of the canonical URL, else an
 * unlisted page.
 */
import { type Article, findArticle, findArticleByPath } from "../../../store/articles.ts";
import type { Client } from "../../../store/db.ts";
import type { Publisher } from "../../../store/publishers.ts";

/** The article at `url` on the publisher's host; an unlisted page when Folio never saw one there. */
export async function siteArticle(db: Client, publisher: Publisher, url: URL): Promise<Article> {
  return await findArticle(db, publisher.id, url.href) ??
    await findArticleByPath(db, publisher.id, url.pathname) ??
    unlisted(publisher, url);
}

/**
 * A path Folio never ingested, priced by the publisher's rules and defaults: an OBSERVE article
 * whose id is its URL, so a charge for it names what was read.
 */
function unlisted(publisher: Publisher, url: URL): Article {
  const href = `${url.origin}${url.pathname}`;
  return {
    id: href,
    publisherId: publisher.id,
    url: href,
    canonicalUrl: null,
    title: url.pathname,
    author: "",
    publishedAt: null,
    summary: "",
    tags: [],
    body: "",
    policy: "OBSERVE",
    priceMicros: null,
    kind: "article",
    bookId: null,
    chapterNo: null,
    contentHash: "",
    updatedAt: "",
  };
}
