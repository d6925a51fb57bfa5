/** Sample views of a publisher's pages, for the tests and the screenshots (no store, no server). */
import type {
  ArticleCard,
  SiteArticleView,
  SiteBookView,
  SiteBrand,
  SiteHomeView,
  SiteTopicView,
} from "./types.ts";

/** A publisher's branding; `over` replaces fields. */
export function sampleBrand(over: Partial<SiteBrand> = {}): SiteBrand {
  return {
    name: "The Harbour Ledger",
    description:
      "Independent reporting on energy, climate and the coastal economy, from the people who live on it.",
    logoUrl: null,
    primaryColor: "#0f766e",
    font: null,
    origin: "https://news.example",
    base: "",
    termsUrl: "https://news.example/terms",
    licenseXmlUrl: "https://news.example/license.xml",
    ...over,
  };
}

/** Eight recent articles, newest first. */
export const SAMPLE_CARDS: ArticleCard[] = [
  {
    title: "The grid that learned to wait: how batteries changed the evening peak",
    path: "/2026/11/grid-that-learned-to-wait",
    author: "Maren Okafor",
    publishedAt: "2026-11-15T07:30:00Z",
    summary:
      "Three years after the first large storage sites opened on the coast, the evening price spike has all but gone. Who paid for it, and who gains?",
    tags: ["energy", "markets"],
    kind: "article",
    policy: "PAYWALL",
  },
  {
    title: "Harbour towns count the cost of a warmer sea",
    path: "/2026/11/harbour-towns-warmer-sea",
    author: "Tomás Reyes",
    publishedAt: "2026-11-14T16:05:00Z",
    summary:
      "Fishing fleets are sailing further for smaller catches, and the ports are feeling it.",
    tags: ["climate", "fisheries"],
    kind: "article",
    policy: "OBSERVE",
  },
  {
    title: "Council approves offshore wind cable route after two-year dispute",
    path: "/2026/11/offshore-cable-route",
    author: "Aisha Lindqvist",
    publishedAt: "2026-11-13T11:00:00Z",
    summary: "The route avoids the seagrass beds but crosses two farms; compensation is agreed.",
    tags: ["energy", "local"],
    kind: "article",
    policy: "OBSERVE",
  },
  {
    title: "Interview: the engineer who keeps the tidal barrage running",
    path: "/2026/11/tidal-barrage-interview",
    author: "Maren Okafor",
    publishedAt: "2026-11-12T09:15:00Z",
    summary: "Forty years of storms, silt and spare parts, in her own words.",
    tags: ["people"],
    kind: "article",
    policy: "BLOCKED",
  },
  {
    title: "Chapter 1: Low Water",
    path: "/books/tides/1",
    author: "Ines Faulkner",
    publishedAt: "2026-11-10T08:00:00Z",
    summary: "How the estuary was made, and who first lived on it.",
    tags: [],
    kind: "chapter",
    policy: "PAYWALL",
  },
];

/** The front page, page 1, with more to come. */
export function sampleHome(over: Partial<SiteHomeView> = {}): SiteHomeView {
  return {
    brand: sampleBrand(),
    latest: SAMPLE_CARDS,
    topics: [
      { tag: "energy", count: 14 },
      { tag: "climate", count: 9 },
      { tag: "local", count: 7 },
      { tag: "markets", count: 5 },
      { tag: "fisheries", count: 3 },
      { tag: "people", count: 1 },
    ],
    books: [{
      id: "bk_tides",
      title: "Tides: A History of the Estuary",
      author: "Ines Faulkner",
      chapters: 12,
    }],
    paging: { page: 1, hasNext: true, basePath: "/" },
    ...over,
  };
}

/** One topic's page 2. */
export function sampleTopic(over: Partial<SiteTopicView> = {}): SiteTopicView {
  return {
    brand: sampleBrand(),
    tag: "energy",
    articles: SAMPLE_CARDS.filter((c) => c.tags.includes("energy")),
    paging: { page: 2, hasNext: true, basePath: "/topics/energy" },
    ...over,
  };
}

/** A book with three chapters. */
export function sampleBook(over: Partial<SiteBookView> = {}): SiteBookView {
  return {
    brand: sampleBrand(),
    book: {
      id: "bk_tides",
      title: "Tides: A History of the Estuary",
      author: "Ines Faulkner",
      createdAt: "2026-10-02T12:00:00Z",
    },
    chapters: [
      { no: 1, title: "Low Water", path: "/books/tides/1" },
      { no: 2, title: "The Salt Road", path: "/books/tides/2" },
      { no: 3, title: "Flood", path: "/books/tides/3" },
    ],
    ...over,
  };
}

const BODY = [
  "At six in the evening, when the kettles go on and the street lights come up, the coast used to pay the highest electricity prices in the country. This winter it did not.",
  "The change came from three rows of grey containers behind the old power station: batteries that fill up at midday, when the solar farms upriver flood the grid, and empty again as the sun goes down.",
  "# Counting the cost",
  "The storage sites were built on contracts that guaranteed their owners a floor price for ten years. Those guarantees are paid for on every household bill, about four pounds a year on average.",
  "## The small print",
  "Critics point out that the guarantee runs long after the batteries are expected to lose a fifth of their capacity.",
  "Supporters answer that the evening peak alone used to cost the region far more than that.",
].join("\n\n");

/** An article page in the form `access` allows (the paywalled feature). */
export function sampleArticle(
  access: SiteArticleView["access"] = "full",
  over: Partial<SiteArticleView> = {},
): SiteArticleView {
  const card = SAMPLE_CARDS[0];
  return {
    brand: sampleBrand(),
    article: {
      ...card,
      policy: access === "blocked" ? "BLOCKED" : card.policy,
      body: BODY,
      canonicalUrl: `https://news.example${card.path}`,
    },
    access,
    teaser: BODY.split("\n\n")[0],
    priceUsd: access === "teaser" ? "0.0524" : null,
    signupUrl: "https://folio.example/buyer/signup",
    payPerCrawl: true,
    reason: access === "full"
      ? "Licensed read: charged USD 0.0524 to your monthly statement."
      : access === "teaser"
      ? "This article is paywalled for AI agents: pay per read, or hold a license."
      : "The publisher does not license this article to AI agents.",
    ...over,
  };
}

/** The second chapter of the sample book, in full. */
export function sampleChapter(over: Partial<SiteArticleView> = {}): SiteArticleView {
  const base = sampleArticle("full");
  return {
    ...base,
    article: {
      ...SAMPLE_CARDS[4],
      title: "The Salt Road",
      path: "/books/tides/2",
      body:
        "# The Salt Road\n\nBefore the railway, salt came down the estuary on flat boats.\n\nThe road that carried it inland still runs behind the harbour.",
      canonicalUrl: "https://news.example/books/tides/2",
      chapter: {
        bookId: "bk_tides",
        bookTitle: "Tides: A History of the Estuary",
        no: 2,
        prevPath: "/books/tides/1",
        nextPath: "/books/tides/3",
      },
    },
    reason: "Free to read.",
    ...over,
  };
}
