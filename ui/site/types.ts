/**
 * The view types of a publisher's own website (the landing path on its custom domain): plain data
 * the routes hand to the pages in `ui/site/`; nothing here comes from the store.
 */

/** The publisher as its pages show it. Branding values are checked again before use (brand.ts). */
export interface SiteBrand {
  name: string;
  description: string;
  logoUrl: string | null;
  primaryColor: string | null;
  font: string | null;
  /**
   * Where the site lives, e.g. "https://news.example" (its custom domain), or
   * "https://folio.example/read/pub_x" (its pages on the platform); page URLs are origin + path.
   */
  origin: string;
  /** The path prefix of the site's own links: "" on its domain, "/read/pub_x" on the platform. */
  base: string;
  termsUrl: string;
  /** origin + "/license.xml" (RSL). */
  licenseXmlUrl: string;
}

/** One article or chapter in a list. */
export interface ArticleCard {
  title: string;
  /** The page's path on the publisher's domain, e.g. "/2026/11/x". */
  path: string;
  author: string;
  /** ISO 8601. */
  publishedAt: string | null;
  summary: string;
  tags: string[];
  kind: "article" | "chapter";
  policy: "OBSERVE" | "PAYWALL" | "BLOCKED";
}

/** A topic (tag) and how many articles carry it. */
export interface TopicCount {
  tag: string;
  count: number;
}

/** Where a list is: page 1 is the newest; `?page=N` is added to `basePath` for other pages. */
export interface Paging {
  page: number;
  hasNext: boolean;
  basePath: string;
}

/** A book as the home page lists it. */
export interface BookSummary {
  id: string;
  title: string;
  author: string;
  chapters: number;
}

/** GET / : latest articles, topics and books (if any). */
export interface SiteHomeView {
  brand: SiteBrand;
  latest: ArticleCard[];
  topics: TopicCount[];
  books: BookSummary[];
  paging: Paging;
}

/** GET /topics/:tag */
export interface SiteTopicView {
  brand: SiteBrand;
  tag: string;
  articles: ArticleCard[];
  paging: Paging;
}

/** GET /books/:bookId */
export interface SiteBookView {
  brand: SiteBrand;
  book: { id: string; title: string; author: string; createdAt: string };
  chapters: { no: number; title: string; path: string }[];
}

/** Where a chapter sits in its book. */
export interface ChapterPlace {
  bookId: string;
  bookTitle: string;
  no: number;
  prevPath: string | null;
  nextPath: string | null;
}

/** An article or chapter with its text. */
export interface ArticleWithBody extends ArticleCard {
  /** Plain text; paragraphs separated by blank lines; "# " and "## " lines are headings. */
  body: string;
  canonicalUrl: string;
  chapter?: ChapterPlace;
}

/**
 * An article or a chapter page. `access` is what the access decision allowed this visitor:
 * `full` the whole body; `teaser` the `teaser` text and how to license; `blocked` a notice only.
 */
export interface SiteArticleView {
  brand: SiteBrand;
  article: ArticleWithBody;
  access: "full" | "teaser" | "blocked";
  teaser: string;
  /** Price per read including the 4.7% platform fee, e.g. "0.0524". */
  priceUsd: string | null;
  /** The buyer portal's sign-up page. */
  signupUrl: string;
  /** Whether the publisher takes pay per crawl on its pages (its agent payments are on). */
  payPerCrawl: boolean;
  /** The access decision's sentence, shown small. */
  reason: string;
}

/** A page that is not there (404). */
export interface SiteNotFoundView {
  brand: SiteBrand;
  path: string;
}

/** Something went wrong on Folio's side (5xx); `requestId` lets the reader report it. */
export interface SiteErrorView {
  brand: SiteBrand;
  requestId: string | null;
}
