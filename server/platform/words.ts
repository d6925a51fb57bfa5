/**
 * Counted nouns in the sentences people and agents read, on every surface and page: "1 article",
 * "2 articles", "0 articles". English has two forms (CLDR plural rules: one, other), so a noun is
 * singular for exactly one and plural otherwise. Pure, so ui/ may import it (like money.ts).
 */

/** The noun for `n` things: `singular` for exactly one, else `pluralForm` (default: + "s"). */
export function noun(n: number, singular: string, pluralForm = `${singular}s`): string {
  return n === 1 ? singular : pluralForm;
}

/**
 * `n` and its noun: `plural(1, "article")` is "1 article", `plural(3, "article")` "3 articles".
 * `shown` writes the number another way (the console's thousands separators).
 */
export function plural(
  n: number,
  singular: string,
  options: { plural?: string; shown?: string } = {},
): string {
  return `${options.shown ?? n} ${noun(n, singular, options.plural)}`;
}

/**
 * The API's codes as a person names them on a page (issue 42: "pages speak to the reader"), one
 * map per list, so every page says the same thing: uses (the API's `fine_tuning` is
 * "fine-tuning"), surfaces (store/vocabulary.ts SURFACES, plus the marketplace API), item kinds and
 * license kinds (server/surfaces/marketplace/schemas.ts). tests/page_words_browser_test.ts fails
 * when a page shows one of these codes as it is.
 */

/** A use case as a person names it on a page. */
const USE_WORDS: Record<string, string> = {
  summarization: "summaries",
  display: "full display",
  rag: "RAG retrieval",
  fine_tuning: "fine-tuning",
};

/** Uses as a list a person reads: "summaries, full display and fine-tuning". */
export function usesInWords(uses: readonly string[]): string {
  const words = uses.map((u) => USE_WORDS[u] ?? u.replaceAll("_", " "));
  return words.length <= 1
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** A use as a person reads it alone: "fine-tuning". */
export function useInWords(use: string): string {
  return usesInWords([use]);
}

const SURFACE_WORDS: Record<string, string> = {
  rest: "REST API",
  mcp: "MCP",
  a2a: "Agent to agent (A2A)",
  landing: "Publisher pages",
  nlweb: "NLWeb",
  marketplace: "Marketplace",
  dashboard: "Console",
  oauth: "OAuth apps",
};

/** Where a call arrived, as a person names it: `rest` is "REST API", `landing` "Publisher pages". */
export function surfaceInWords(surface: string): string {
  return SURFACE_WORDS[surface] ?? surface.replaceAll("_", " ");
}

/** Surfaces as a list: "REST API, MCP and Publisher pages". */
export function surfacesInWords(surfaces: readonly string[]): string {
  const words = surfaces.map(surfaceInWords);
  return words.length <= 1
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

const ITEM_KIND_WORDS: Record<string, string> = {
  subscription: "license fee",
  metered: "metered read",
  landing: "publisher page read",
  adjustment: "adjustment",
};

/** What a statement item is: `subscription` (any monthly license fee, offers too) is "license fee". */
export function itemKindInWords(kind: string): string {
  return ITEM_KIND_WORDS[kind] ?? kind.replaceAll("_", " ");
}

const LICENSE_KIND_WORDS: Record<string, string> = {
  subscription: "subscription",
  enterprise: "enterprise license",
  request: "accepted offer",
};

/** How a license came to be: `request` is "accepted offer". */
export function licenseKindInWords(kind: string): string {
  return LICENSE_KIND_WORDS[kind] ?? kind.replaceAll("_", " ");
}

/** A sentence's first letter in capitals, for a word that starts a table cell: "License fee". */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
