/**
 * Refusals the buyer portal words itself (issue 42: "pages speak to the reader ... linking the page
 * that does the thing; the API keeps its own sentences"). The API's message for these names its
 * own routes (`PUT /api/marketplace/budgets`) and codes; the page says what happened and links the
 * page where the reader fixes it. Any other refusal shows the API's words, as before.
 */
import type { LinkedWords } from "../../../ui/console/shell.tsx";

/** A license fee past a budget (409 budget_exceeded, server/domain/billing/budgets.ts). */
export const BUDGET_REFUSAL: LinkedWords = {
  text: "Nothing was charged: this would take what you spend this month past your budget. ",
  link: "Raise the budget on the Budgets page",
  href: "/buyer/budgets",
  after: ", or wait for next month: budgets start again on the 1st at midnight UTC.",
};

/** The page's own words for a refusal whose code it knows, or null (show the API's). */
export function refusalWords(answer: { code: string | null }): LinkedWords | null {
  return answer.code === "budget_exceeded" ? BUDGET_REFUSAL : null;
}
