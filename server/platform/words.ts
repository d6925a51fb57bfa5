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

/** A use case as a person names it on a page (the API's `fine_tuning` is "fine-tuning"). */
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
